import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { ROOT_ROUTE } from '@/lib/config.ts';
import { useAppSelector } from './hooks.ts';

/**
 * After a lost session (network error or 401) the app goes to the root path (spec §4, §8). A loss
 * before this mounts counts too: on a reload with a dead token the first call can fail while the
 * routes are still loading (seen on a loaded machine), and the session guard alone would have sent
 * the page straight to /login.
 */
export function SessionLossRedirect() {
  const count = useAppSelector((state) => state.auth.sessionLossCount);
  const seen = useRef(0);
  const navigate = useNavigate();
  useEffect(() => {
    if (count === seen.current) return;
    seen.current = count;
    void navigate(ROOT_ROUTE, { replace: true });
  }, [count, navigate]);
  return null;
}
