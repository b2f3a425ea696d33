// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { request, resetHttpClientState, setSessionLossHandler } from '@/lib/http-client.ts';
import { storageKeys } from '@/lib/storage.ts';
import { wireSessionLoss } from './session-wiring.ts';
import { store } from './store.ts';
import { loginSucceeded, sessionMessageConsumed } from '@/features/auth/auth-slice.ts';

const record = {
  user: { id: 1, email: 'admin@demo.cm', fullName: 'Dana', role: 1 as const, mustChangePassword: false },
  isLoggedIn: true as const,
  token: 'tok-1',
  role: 1 as const,
  tokenExpiresAt: Date.now() + 30 * 60_000,
  ability: [{ action: 'manage' as const, subject: 'all' as const }],
};

let unwire: () => void = () => {};

describe('a lost session, end to end in the store', () => {
  beforeEach(() => {
    document.head.innerHTML = '<meta name="cm-api-key" content="k">';
    localStorage.clear();
    sessionStorage.clear();
    resetHttpClientState();
    unwire = wireSessionLoss(store.dispatch);
    localStorage.setItem(storageKeys.userData, JSON.stringify(record));
    localStorage.setItem(storageKeys.accessToken, JSON.stringify(record.token));
    store.dispatch(loginSucceeded(record));
    window.history.replaceState(null, '', '/check?meter=EM-10001');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    setSessionLossHandler(null);
    unwire();
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

/** What another tab does to the shared local storage, and the `storage` event this tab then gets. */
function inAnotherTab(key: string, newValue: unknown) {
  const oldValue = localStorage.getItem(key);
  const raw = newValue === null ? null : JSON.stringify(newValue);
  if (raw === null) localStorage.removeItem(key);
  else localStorage.setItem(key, raw);
  window.dispatchEvent(
    new StorageEvent('storage', { key, oldValue, newValue: raw, storageArea: localStorage }),
  );
}

describe('the session follows the other tabs of the origin', () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    unwire = wireSessionLoss(store.dispatch);
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    localStorage.setItem(storageKeys.userData, JSON.stringify(record));
    localStorage.setItem(storageKeys.accessToken, JSON.stringify(record.token));
    store.dispatch(loginSucceeded(record));
    store.dispatch(sessionMessageConsumed());
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    unwire();
  });

  it('logs out when another tab logs out, quietly and without calling the server again', async () => {
    const losses = store.getState().auth.sessionLossCount;
    inAnotherTab(storageKeys.userData, null);
    inAnotherTab(storageKeys.accessToken, null);
    await Promise.resolve();
    const { auth } = store.getState();
    expect(auth).toMatchObject({ isLoggedIn: false, user: null, token: null, sessionMessage: null });
    expect(auth.sessionLossCount).toBe(losses);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('takes the renewed token of another tab, and its changed user', async () => {
    const renewed = { ...record, token: 'tok-2', tokenExpiresAt: record.tokenExpiresAt + 60_000 };
    inAnotherTab(storageKeys.userData, renewed);
    inAnotherTab(storageKeys.accessToken, renewed.token);
    await Promise.resolve();
    expect(store.getState().auth).toMatchObject({ token: 'tok-2', tokenExpiresAt: renewed.tokenExpiresAt });

    inAnotherTab(storageKeys.userData, { ...renewed, user: { ...record.user, fullName: 'Dana Renamed' } });
    await Promise.resolve();
    expect(store.getState().auth.user?.fullName).toBe('Dana Renamed');
  });

  it('a logged-out tab takes the login of another tab, with its pending password change', async () => {
    inAnotherTab(storageKeys.userData, null);
    inAnotherTab(storageKeys.accessToken, null);
    await Promise.resolve();
    expect(store.getState().auth.isLoggedIn).toBe(false);
    const client = {
      ...record,
      user: { id: 8, email: 'client.b@demo.cm', fullName: 'Bo', role: 2 as const, mustChangePassword: true },
      role: 2 as const,
      token: 'tok-8',
      ability: [{ action: 'read' as const, subject: 'Check' as const }],
    };
    inAnotherTab(storageKeys.userData, client);
    inAnotherTab(storageKeys.accessToken, client.token);
    await Promise.resolve();
    expect(store.getState().auth).toMatchObject({
      isLoggedIn: true,
      token: 'tok-8',
      role: 2,
      user: { id: 8, mustChangePassword: true },
    });
  });

  it('ignores changes to other keys', async () => {
    localStorage.removeItem(storageKeys.accessToken);
    inAnotherTab(storageKeys.skin, 'dark');
    await Promise.resolve();
    expect(store.getState().auth.isLoggedIn).toBe(true);
  });
});
