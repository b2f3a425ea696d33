import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { CHANGE_PASSWORD_ROUTE } from '@/features/auth/routes.ts';
import { useAppAbility, type AbilityAction, type AbilitySubject } from '@/lib/ability-context.ts';
import { defaultRouteForRole, LOGIN_ROUTE, NOT_AUTHORIZED_ROUTE } from '@/lib/config.ts';
import { useAppSelector } from './hooks.ts';
import type { RootState } from './store.ts';

// Guards wrap whole pages: they read single values, so that other session changes (the current
// user loading, a renewed token) do not re-render the page under them.
const selectIsLoggedIn = (state: RootState) => state.auth.isLoggedIn;
const selectRole = (state: RootState) => state.auth.role;

/** `/`: a logged-in user goes to its role's default route, anyone else to /login (spec §2). */
export function HomeRedirect() {
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const role = useAppSelector(selectRole);
  return <Navigate to={isLoggedIn ? defaultRouteForRole(role) : LOGIN_ROUTE} replace />;
}

/** Where a guard sends the user, remembering the page it came from (to come back afterwards). */
function RedirectFromHere({ to }: { to: string }) {
  const location = useLocation();
  return (
    <Navigate to={to} replace state={{ from: `${location.pathname}${location.search}${location.hash}` }} />
  );
}

/** Logged in with a known role; a pending password change does not matter here. */
function useHasSession(): boolean {
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const role = useAppSelector(selectRole);
  return isLoggedIn && defaultRouteForRole(role) !== LOGIN_ROUTE;
}

/**
 * Pages for logged-in users; others go to /login and come back afterwards. An unknown role goes
 * to /login. A user whose password an administrator reset goes to /change-password first.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const hasSession = useHasSession();
  const mustChangePassword = useAppSelector((state) => state.auth.user?.mustChangePassword === true);
  if (!hasSession) return <RedirectFromHere to={LOGIN_ROUTE} />;
  if (mustChangePassword) return <RedirectFromHere to={CHANGE_PASSWORD_ROUTE} />;
  return children;
}

/** /change-password: any logged-in user, with or without a pending change. */
export function RequireSession({ children }: { children: ReactNode }) {
  return useHasSession() ? children : <RedirectFromHere to={LOGIN_ROUTE} />;
}

/** /login is for guests: a logged-in user with a known role goes to its default route. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const role = useAppSelector(selectRole);
  const target = defaultRouteForRole(role);
  if (isLoggedIn && target !== LOGIN_ROUTE) return <Navigate to={target} replace />;
  return children;
}

interface RequireAbilityProps {
  action: AbilityAction;
  subject: AbilitySubject;
  children: ReactNode;
}

/** A page the user's ability must allow; otherwise the not-authorized page. */
export function RequireAbility({ action, subject, children }: RequireAbilityProps) {
  const ability = useAppAbility();
  if (!ability.can(action, subject)) return <Navigate to={NOT_AUTHORIZED_ROUTE} replace />;
  return children;
}
