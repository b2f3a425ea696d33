import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAppAbility, type AbilityAction, type AbilitySubject } from '@/lib/ability-context.ts';
import { defaultRouteForRole, LOGIN_ROUTE, NOT_AUTHORIZED_ROUTE } from '@/lib/config.ts';
import { useAppSelector } from './hooks.ts';

/** `/`: a logged-in user goes to its role's default route, anyone else to /login (spec §2). */
export function HomeRedirect() {
  const { isLoggedIn, role } = useAppSelector((state) => state.auth);
  return <Navigate to={isLoggedIn ? defaultRouteForRole(role) : LOGIN_ROUTE} replace />;
}

/** Pages for logged-in users; others go to /login and come back afterwards. An unknown role goes to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isLoggedIn, role } = useAppSelector((state) => state.auth);
  const location = useLocation();
  if (!isLoggedIn || defaultRouteForRole(role) === LOGIN_ROUTE) {
    return (
      <Navigate
        to={LOGIN_ROUTE}
        replace
        state={{ from: `${location.pathname}${location.search}${location.hash}` }}
      />
    );
  }
  return children;
}

/** /login is for guests: a logged-in user with a known role goes to its default route. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { isLoggedIn, role } = useAppSelector((state) => state.auth);
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
