import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { request, resetHttpClientState, setSessionLossHandler } from '@/lib/http-client.ts';
import { storageKeys } from '@/lib/storage.ts';
import { wireSessionLoss } from './session-wiring.ts';
import { store } from './store.ts';
import { loginSucceeded } from '@/features/auth/auth-slice.ts';

const record = {
  user: { id: 1, email: 'admin@demo.cm', fullName: 'Dana', role: 1 as const, mustChangePassword: false },
  isLoggedIn: true as const,
  token: 'tok-1',
  role: 1 as const,
  tokenExpiresAt: Date.now() + 30 * 60_000,
  ability: [{ action: 'manage' as const, subject: 'all' as const }],
};

describe('a lost session, end to end in the store', () => {
  beforeEach(() => {
    document.head.innerHTML = '<meta name="cm-api-key" content="k">';
    localStorage.clear();
    sessionStorage.clear();
    resetHttpClientState();
    wireSessionLoss(store.dispatch);
    localStorage.setItem(storageKeys.userData, JSON.stringify(record));
    localStorage.setItem(storageKeys.accessToken, JSON.stringify(record.token));
    store.dispatch(loginSucceeded(record));
    window.history.replaceState(null, '', '/check?meter=EM-10001');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    setSessionLossHandler(null);
  });

  it('on 401: stores "Session Expired! Please login again.", remembers the page, logs out once', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('{}', { status: 401 }))),
    );
    const before = store.getState().auth.sessionLossCount;
    await Promise.all([request({ url: '/api/a' }), request({ url: '/api/b' }), request({ url: '/api/c' })]);
    await Promise.resolve();

    const { auth } = store.getState();
    expect(auth.sessionLossCount - before).toBe(1);
    expect(auth.isLoggedIn).toBe(false);
    expect(auth.token).toBeNull();
    expect(auth.sessionMessage?.message).toBe('Session Expired! Please login again.');
    expect(auth.returnTo).toBe('/check?meter=EM-10001');
    expect(localStorage.getItem(storageKeys.userData)).toBeNull();
    expect(localStorage.getItem(storageKeys.accessToken)).toBeNull();
    expect(JSON.parse(sessionStorage.getItem(storageKeys.returnTo) ?? 'null')).toBe('/check?meter=EM-10001');
  });

  it('on a network error: stores "Network Error! Please login again."', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await Promise.all([request({ url: '/api/a' }), request({ url: '/api/b' })]);
    await Promise.resolve();
    expect(store.getState().auth.sessionMessage?.message).toBe('Network Error! Please login again.');
    expect(store.getState().auth.isLoggedIn).toBe(false);
  });
});
