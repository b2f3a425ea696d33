// @vitest-environment jsdom
import { configureStore, isAction, type Middleware } from '@reduxjs/toolkit';
import type { UserRecord } from '@cm/contracts/auth.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetHttpClientState, setSessionLossHandler } from '@/lib/http-client.ts';
import { sessionEnded } from '@/lib/session-events.ts';
import { storageKeys } from '@/lib/storage.ts';
import {
  authReducer,
  changePassword,
  consumeSessionMessage,
  isSafeReturnPath,
  loadCurrentUser,
  login,
  logout,
  loseSession,
  refreshToken,
  syncStoredSession,
} from './auth-slice.ts';

const record: UserRecord = {
  user: { id: 7, email: 'client.a@demo.cm', fullName: 'Ana Client', role: 2, mustChangePassword: false },
  isLoggedIn: true,
  token: 'tok-7',
  role: 2,
  tokenExpiresAt: 1_900_000_000_000,
  ability: [
    { action: 'read', subject: 'Check' },
    { action: 'manage', subject: 'Bookmark' },
  ],
};

function makeStore() {
  return configureStore({ reducer: { auth: authReducer } });
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('auth slice', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let losses: string[];

  beforeEach(() => {
    document.head.innerHTML = '<meta name="cm-api-key" content="k">';
    localStorage.clear();
    sessionStorage.clear();
    resetHttpClientState();
    losses = [];
    setSessionLossHandler((reason) => losses.push(reason));
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    setSessionLossHandler(null);
  });

  it('starts logged out, with the load-current-user call idle', () => {
    expect(makeStore().getState().auth).toMatchObject({
      user: null,
      isLoggedIn: false,
      token: null,
      role: null,
      tokenExpiresAt: null,
      currentUserStatus: 'idle',
    });
  });

  it('restores a stored session, and ignores a stored record that is not one', () => {
    localStorage.setItem(storageKeys.userData, JSON.stringify(record));
    localStorage.setItem(storageKeys.accessToken, JSON.stringify('tok-7'));
    expect(makeStore().getState().auth).toMatchObject({
      isLoggedIn: true,
      token: 'tok-7',
      role: 2,
      user: record.user,
    });

    localStorage.setItem(storageKeys.userData, JSON.stringify({ ...record, role: 9 }));
    expect(makeStore().getState().auth.isLoggedIn).toBe(false);
  });

  it('login stores the user record (with ability) as userData and the token as accessToken', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, record));
    const store = makeStore();
    const result = await store.dispatch(login({ email: 'client.a@demo.cm', password: 'ClientA!2026' }));

    expect(login.fulfilled.match(result)).toBe(true);
    expect(JSON.parse(localStorage.getItem(storageKeys.userData) ?? 'null')).toEqual(record);
    expect(JSON.parse(localStorage.getItem(storageKeys.accessToken) ?? 'null')).toBe('tok-7');
    expect(store.getState().auth).toMatchObject({
      user: record.user,
      isLoggedIn: true,
      token: 'tok-7',
      role: 2,
      tokenExpiresAt: record.tokenExpiresAt,
      ability: record.ability,
    });
    const init = fetchMock.mock.calls[0]?.[1] as RequestInit;
    expect(new Headers(init.headers).get('Authorization')).toBeNull();
  });

  it('a wrong password is the caller’s business, not a lost session', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(401, { statusCode: 401, error: 'Unauthorized', message: 'Wrong email or password.' }),
    );
    const store = makeStore();
    const result = await store.dispatch(login({ email: 'a@b.c', password: 'nope' }));
    expect(login.rejected.match(result) && result.payload).toMatchObject({ status: 401 });
    expect(store.getState().auth.isLoggedIn).toBe(false);
    expect(localStorage.getItem(storageKeys.userData)).toBeNull();
    expect(losses).toEqual([]);
  });

  it('logout clears the state and the stored token and user data, and tells the server (ignoring its failure)', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, record));
    const store = makeStore();
    await store.dispatch(login({ email: 'client.a@demo.cm', password: 'x' }));
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));

    await store.dispatch(logout());

    expect(store.getState().auth).toMatchObject({
      user: null,
      isLoggedIn: false,
      token: null,
      role: null,
      tokenExpiresAt: null,
      ability: [],
    });
    expect(localStorage.getItem(storageKeys.userData)).toBeNull();
    expect(localStorage.getItem(storageKeys.accessToken)).toBeNull();
    const [url, init] = fetchMock.mock.calls[1] as [string, RequestInit];
    expect(url).toBe('/api/auth/logout');
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer tok-7');
    expect(losses).toEqual([]);
    expect(store.getState().auth.sessionMessage).toBeNull();
  });

  it('load-current-user goes idle → loading → succeeded and takes result.currentUser', async () => {
    localStorage.setItem(storageKeys.userData, JSON.stringify(record));
    localStorage.setItem(storageKeys.accessToken, JSON.stringify('tok-7'));
    const ability = [{ action: 'read', subject: 'Meter' }];
    let resolve: (response: Response) => void = () => undefined;
    fetchMock.mockReturnValue(new Promise<Response>((r) => (resolve = r)));
    const store = makeStore();
    expect(store.getState().auth.currentUserStatus).toBe('idle');

    const pending = store.dispatch(loadCurrentUser());
    expect(store.getState().auth.currentUserStatus).toBe('loading');
    resolve(jsonResponse(200, { currentUser: { ...record.user, fullName: 'Ana Renamed', ability } }));
    await pending;

    expect(store.getState().auth).toMatchObject({
      currentUserStatus: 'succeeded',
      user: { ...record.user, fullName: 'Ana Renamed' },
      ability,
    });
    expect(JSON.parse(localStorage.getItem(storageKeys.userData) ?? 'null')).toMatchObject({
      ability,
      user: { fullName: 'Ana Renamed' },
    });
  });

  it('load-current-user fails on an error or an answer of the wrong shape', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(500, { statusCode: 500, error: 'x', message: 'y' }));
    const store = makeStore();
    await store.dispatch(loadCurrentUser());
    expect(store.getState().auth.currentUserStatus).toBe('failed');
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { user: {} }));
    await store.dispatch(loadCurrentUser());
    expect(store.getState().auth.currentUserStatus).toBe('failed');
  });

  it('refresh replaces the token and its expiry, in the state and in storage', async () => {
    localStorage.setItem(storageKeys.userData, JSON.stringify(record));
    localStorage.setItem(storageKeys.accessToken, JSON.stringify('tok-7'));
    fetchMock.mockResolvedValue(jsonResponse(200, { token: 'tok-8', tokenExpiresAt: 1_900_000_600_000 }));
    const store = makeStore();
    await store.dispatch(refreshToken());
    expect(store.getState().auth).toMatchObject({ token: 'tok-8', tokenExpiresAt: 1_900_000_600_000 });
    expect(JSON.parse(localStorage.getItem(storageKeys.accessToken) ?? 'null')).toBe('tok-8');
    expect(JSON.parse(localStorage.getItem(storageKeys.userData) ?? 'null')).toMatchObject({
      token: 'tok-8',
    });
  });

  it('a lost session stores the exact message and the page, once shown the message is forgotten', async () => {
    const store = makeStore();
    await store.dispatch(loseSession({ reason: 'network', currentPath: '/check?location=Block%20C' }));
    expect(store.getState().auth.sessionMessage).toEqual({
      reason: 'network',
      message: 'Network Error! Please login again.',
    });
    expect(store.getState().auth.returnTo).toBe('/check?location=Block%20C');
    expect(makeStore().getState().auth.sessionMessage?.message).toBe('Network Error! Please login again.');

    await store.dispatch(consumeSessionMessage());
    expect(store.getState().auth.sessionMessage).toBeNull();
    expect(makeStore().getState().auth.sessionMessage).toBeNull();

    store.dispatch(sessionEnded({ reason: 'expired' }));
    expect(store.getState().auth.sessionMessage?.message).toBe('Session Expired! Please login again.');
  });

  it('change password: sends both passwords, then the state and the stored user have no pending change', async () => {
    const pending = { ...record, user: { ...record.user, mustChangePassword: true } };
    localStorage.setItem(storageKeys.userData, JSON.stringify(pending));
    localStorage.setItem(storageKeys.accessToken, JSON.stringify('tok-7'));
    const store = makeStore();
    expect(store.getState().auth.user?.mustChangePassword).toBe(true);
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    const body = { currentPassword: 'Temporary!pass-1', newPassword: 'Chosen!pass-0001' };
    const result = await store.dispatch(changePassword(body));
    expect(changePassword.fulfilled.match(result)).toBe(true);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/auth/change-password');
    expect(JSON.parse(String(init?.body))).toEqual(body);
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer tok-7');
    expect(store.getState().auth.user?.mustChangePassword).toBe(false);
    expect(JSON.parse(localStorage.getItem(storageKeys.userData) ?? 'null')).toMatchObject({
      token: 'tok-7',
      user: { id: 7, mustChangePassword: false },
    });
  });

  it('change password: a refusal goes back to the page and changes nothing', async () => {
    const pending = { ...record, user: { ...record.user, mustChangePassword: true } };
    localStorage.setItem(storageKeys.userData, JSON.stringify(pending));
    localStorage.setItem(storageKeys.accessToken, JSON.stringify('tok-7'));
    const store = makeStore();
    fetchMock.mockResolvedValueOnce(
      jsonResponse(400, {
        statusCode: 400,
        error: 'Bad Request',
        message: 'currentPassword is incorrect.',
        param: 'currentPassword',
      }),
    );
    const result = await store.dispatch(
      changePassword({ currentPassword: 'x', newPassword: 'Chosen!pass-0001' }),
    );
    expect(changePassword.rejected.match(result) && result.payload?.body?.param).toBe('currentPassword');
    expect(store.getState().auth.user?.mustChangePassword).toBe(true);
    expect(JSON.parse(localStorage.getItem(storageKeys.userData) ?? 'null').user.mustChangePassword).toBe(
      true,
    );
    expect(losses).toEqual([]);
  });

  it("another tab's login of a different user first ends this tab's session (so per-user data goes)", async () => {
    localStorage.setItem(storageKeys.userData, JSON.stringify(record));
    localStorage.setItem(storageKeys.accessToken, JSON.stringify('tok-7'));
    const seen: string[] = [];
    const recordTypes: Middleware = () => (next) => (action) => {
      if (isAction(action)) seen.push(action.type);
      return next(action);
    };
    const store = configureStore({
      reducer: { auth: authReducer },
      middleware: (getDefault) => getDefault().concat(recordTypes),
    });
    const other = { ...record, user: { ...record.user, id: 9, email: 'other@demo.cm' }, token: 'tok-9' };
    localStorage.setItem(storageKeys.userData, JSON.stringify(other));
    localStorage.setItem(storageKeys.accessToken, JSON.stringify('tok-9'));
    await store.dispatch(syncStoredSession());
    expect(seen.filter((type) => !type.startsWith('auth/syncStoredSession'))).toEqual([
      sessionEnded.type,
      'auth/loginSucceeded',
    ]);
    expect(store.getState().auth).toMatchObject({ isLoggedIn: true, token: 'tok-9', user: { id: 9 } });

    // The same user with a renewed token: no logout in between.
    seen.length = 0;
    localStorage.setItem(storageKeys.accessToken, JSON.stringify('tok-9b'));
    await store.dispatch(syncStoredSession());
    expect(seen).not.toContain(sessionEnded.type);
    expect(store.getState().auth.token).toBe('tok-9b');
  });

  it('only returns to same-origin paths', () => {
    expect(isSafeReturnPath('/check?meter=EM-1')).toBe(true);
    expect(isSafeReturnPath('//evil.example')).toBe(false);
    expect(isSafeReturnPath('/\\evil.example')).toBe(false);
    expect(isSafeReturnPath('https://evil.example')).toBe(false);
  });
});
