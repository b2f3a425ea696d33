import { loseSession, syncStoredSession } from '@/features/auth/auth-slice.ts';
import { setSessionLossHandler } from '@/lib/http-client.ts';
import { storageKeys } from '@/lib/storage.ts';
import type { AppDispatch } from './store.ts';

const SESSION_KEYS: ReadonlySet<string> = new Set([storageKeys.accessToken, storageKeys.userData]);

let stopListening: (() => void) | null = null;

/**
 * How this tab's session ends or changes from outside the page:
 * - a network error or 401 on an authenticated call (spec §8): remember the current page, store
 *   the message and log out; the router then goes to the root path (router.tsx). The HTTP client
 *   calls this at most once per token.
 * - another tab of the origin logs out, loses its session, logs in, renews the token or changes
 *   the password: the `storage` event (fired in every other tab when local storage changes) makes
 *   this tab follow, so that no tab goes on with a session that ended or with a stale user. A
 *   logged-out tab's guards then send it to /login.
 * Wiring again replaces the earlier listener. Answers a function that removes the listener.
 */
export function wireSessionLoss(dispatch: AppDispatch): () => void {
  setSessionLossHandler((reason) => {
    const { pathname, search, hash } = window.location;
    void dispatch(loseSession({ reason, currentPath: `${pathname}${search}${hash}` }));
  });
  stopListening?.();
  // `key` is null when another tab cleared the whole storage.
  const handleStorage = (event: StorageEvent) => {
    if (event.key === null || SESSION_KEYS.has(event.key)) void dispatch(syncStoredSession());
  };
  window.addEventListener('storage', handleStorage);
  const stop = () => {
    window.removeEventListener('storage', handleStorage);
    if (stopListening === stop) stopListening = null;
  };
  stopListening = stop;
  return stop;
}
