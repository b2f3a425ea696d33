import { loseSession } from '@/features/auth/auth-slice.ts';
import { setSessionLossHandler } from '@/lib/http-client.ts';
import type { AppDispatch } from './store.ts';

/**
 * A network error or 401 on an authenticated call (spec §8): remember the current page, store
 * the message and log out; the router then goes to the root path (router.tsx). The HTTP client
 * calls this at most once per token.
 */
export function wireSessionLoss(dispatch: AppDispatch): void {
  setSessionLossHandler((reason) => {
    const { pathname, search, hash } = window.location;
    void dispatch(loseSession({ reason, currentPath: `${pathname}${search}${hash}` }));
  });
}
