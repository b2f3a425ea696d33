import { useEffect, useRef } from 'react';
import { endSession } from '@/lib/http-client.ts';
import { loadCurrentUser, refreshToken } from './auth-slice.ts';
import { useAuthDispatch, useAuthSelector } from './auth-hooks.ts';

/** Renew the token when less than this is left and the user did something since the last renewal. */
export const REFRESH_BEFORE_EXPIRY_MS = 10 * 60_000;
const CHECK_EVERY_MS = 30_000;
const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/**
 * Keeps an active user's session alive (sessions idle out on the server after 30 minutes):
 * refreshes the token before it expires if the user was active, and ends the session with the
 * "Session Expired!" message when it runs out. Also loads the current user once per session,
 * so the ability rules are the server's latest.
 */
export function useSessionKeepAlive(): void {
  const dispatch = useAuthDispatch();
  const isLoggedIn = useAuthSelector((state) => state.auth.isLoggedIn);
  const tokenExpiresAt = useAuthSelector((state) => state.auth.tokenExpiresAt);
  const currentUserStatus = useAuthSelector((state) => state.auth.currentUserStatus);
  const lastActivity = useRef(0);
  const lastRenewal = useRef(0);

  useEffect(() => {
    if (isLoggedIn && currentUserStatus === 'idle') void dispatch(loadCurrentUser());
  }, [dispatch, isLoggedIn, currentUserStatus]);

  useEffect(() => {
    lastRenewal.current = Date.now();
  }, [tokenExpiresAt]);

  useEffect(() => {
    const markActive = () => {
      lastActivity.current = Date.now();
    };
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, markActive, { passive: true });
    return () => {
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, markActive);
    };
  }, []);

  useEffect(() => {
    if (!isLoggedIn || tokenExpiresAt === null) return;
    let isRefreshing = false;
    const check = () => {
      const left = tokenExpiresAt - Date.now();
      if (left <= 0) {
        endSession('expired');
        return;
      }
      if (!isRefreshing && left < REFRESH_BEFORE_EXPIRY_MS && lastActivity.current > lastRenewal.current) {
        isRefreshing = true;
        void dispatch(refreshToken()).finally(() => {
          isRefreshing = false;
        });
      }
    };
    check();
    const timer = window.setInterval(check, CHECK_EVERY_MS);
    // Wake up exactly at expiry too, so an idle tab does not keep showing data after the session ended.
    const expiry = window.setTimeout(
      check,
      Math.min(Math.max(0, tokenExpiresAt - Date.now()) + 50, 2 ** 31 - 1),
    );
    return () => {
      window.clearInterval(timer);
      window.clearTimeout(expiry);
    };
  }, [dispatch, isLoggedIn, tokenExpiresAt]);
}
