import { lazy, Suspense, useLayoutEffect, type ComponentType, type ReactNode } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { LoadingScreen } from '@/components/loading-screen.tsx';
import { endFirstPaint, FIRST_PAINT_PATH } from '@/lib/first-paint.ts';
import { CHANGE_PASSWORD_ROUTE } from '@/features/auth/routes.ts';
import { GuestOnly, HomeRedirect, RequireAbility, RequireAuth, RequireSession } from './guards.tsx';
import { SessionLossRedirect } from './session-loss-redirect.tsx';

/** Every page is its own chunk. */
function lazyNamed<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

const LoginPage = lazyNamed(() => import('@/features/auth/login-page.tsx'), 'LoginPage');
const ChangePasswordPage = lazyNamed(
  () => import('@/features/auth/change-password-page.tsx'),
  'ChangePasswordPage',
);
const VerticalLayout = lazyNamed(() => import('@/layout/vertical-layout.tsx'), 'VerticalLayout');
const CheckPage = lazyNamed(() => import('@/features/check/check-page.tsx'), 'CheckPage');
const WhoReadPage = lazyNamed(() => import('@/features/access-log/who-read-page.tsx'), 'WhoReadPage');
const ConsentPage = lazyNamed(() => import('@/features/connect/consent-page.tsx'), 'ConsentPage');
const ConnectedAppsPage = lazyNamed(
  () => import('@/features/connect/connected-apps-page.tsx'),
  'ConnectedAppsPage',
);
const AdminPage = lazyNamed(() => import('@/features/admin/admin-page.tsx'), 'AdminPage');
const NotAuthorizedPage = lazyNamed(
  () => import('@/features/errors/not-authorized-page.tsx'),
  'NotAuthorizedPage',
);
const NotFoundPage = lazyNamed(() => import('@/features/errors/not-found-page.tsx'), 'NotFoundPage');

/** index.html's first paint stands for the check page only: on any other path (a redirect) it goes. */
function FirstPaintElsewhere() {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    if (pathname !== FIRST_PAINT_PATH) endFirstPaint();
  }, [pathname]);
  return null;
}

function FullPage({ children }: { children: ReactNode }) {
  return <Suspense fallback={<LoadingScreen />}>{children}</Suspense>;
}

/**
 * The routes (declarative mode: the data router's loaders and actions are not used, and its
 * extra weight would count against the start-up budget).
 */
export function AppRoutes() {
  return (
    <>
      <SessionLossRedirect />
      <FirstPaintElsewhere />
      <Routes>
        <Route path="/" element={<HomeRedirect />} />
        <Route
          path="/login"
          element={
            <GuestOnly>
              <FullPage>
                <LoginPage />
              </FullPage>
            </GuestOnly>
          }
        />
        {/* Outside the layout: while a change is pending, its menu and navbar calls would all be refused. */}
        <Route
          path={CHANGE_PASSWORD_ROUTE}
          element={
            <RequireSession>
              <FullPage>
                <ChangePasswordPage />
              </FullPage>
            </RequireSession>
          }
        />
        <Route
          element={
            <RequireAuth>
              <FullPage>
                <VerticalLayout />
              </FullPage>
            </RequireAuth>
          }
        >
          <Route
            path="/check"
            element={
              <RequireAbility action="read" subject="Check">
                <CheckPage />
              </RequireAbility>
            }
          />
          <Route
            path="/who-read/:meterNumber"
            element={
              <RequireAbility action="read" subject="Check">
                <WhoReadPage />
              </RequireAbility>
            }
          />
          {/* Connect My Data: the OAuth server sends the customer here (oauth-provider.ts on the server). */}
          <Route
            path="/connect/consent/:uid"
            element={
              <RequireAbility action="read" subject="Check">
                <ConsentPage />
              </RequireAbility>
            }
          />
          <Route
            path="/connected-apps"
            element={
              <RequireAbility action="read" subject="Check">
                <ConnectedAppsPage />
              </RequireAbility>
            }
          />
          <Route
            path="/admin/*"
            element={
              <RequireAbility action="manage" subject="all">
                <AdminPage />
              </RequireAbility>
            }
          />
          <Route path="/not-authorized" element={<NotAuthorizedPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </>
  );
}
