import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { AbilityRule } from '@cm/contracts/abilities.ts';
import type { ChangePasswordBody } from '@cm/contracts/admin.ts';
import type {
  CurrentUserResult,
  LoginBody,
  PublicUser,
  RefreshResult,
  UserRecord,
} from '@cm/contracts/auth.ts';
import type { RoleId } from '@cm/contracts/enums.ts';
import { LOGIN_ROUTE, ROOT_ROUTE, SESSION_MESSAGES, type SessionLossReason } from '@/lib/config.ts';
import { isUserRecord } from '@/lib/contract-guards.ts';
import { request, type HttpError } from '@/lib/http-client.ts';
import { nextTask } from '@/lib/next-task.ts';
import { sessionEnded } from '@/lib/session-events.ts';
import { readAccessToken, readJson, removeKey, storageKeys, writeJson } from '@/lib/storage.ts';

/** States of the load-current-user call (spec §4). */
export type LoadStatus = 'idle' | 'loading' | 'succeeded' | 'failed';

/** The message stored when a session is lost (spec §8), shown once on the login page. */
export interface SessionMessage {
  reason: SessionLossReason;
  message: string;
}

/** Authentication state (spec §4): user, login flag, token, role and token expiry. */
export interface AuthState {
  user: PublicUser | null;
  isLoggedIn: boolean;
  token: string | null;
  role: RoleId | null;
  tokenExpiresAt: number | null;
  ability: AbilityRule[];
  currentUserStatus: LoadStatus;
  sessionMessage: SessionMessage | null;
  /** The page to return to after the next login. */
  returnTo: string | null;
  /** Counts lost sessions; the app goes to the root path each time it grows. */
  sessionLossCount: number;
}

const loggedOut = {
  user: null,
  isLoggedIn: false,
  token: null,
  role: null,
  tokenExpiresAt: null,
  ability: [],
} satisfies Partial<AuthState>;

/** Reads the stored user record (`userData`) and token (`accessToken`); anything invalid counts as logged out. */
export function readStoredRecord(): UserRecord | null {
  const stored = readJson(storageKeys.userData);
  const token = readAccessToken();
  if (!isUserRecord(stored) || token === null) return null;
  // The token key wins: it is what every request sends.
  return { ...stored, token };
}

function readStoredSessionMessage(): SessionMessage | null {
  const value = readJson(storageKeys.sessionMessage, 'session');
  if (value === 'network' || value === 'expired') return { reason: value, message: SESSION_MESSAGES[value] };
  return null;
}

/** Only same-origin paths may be returned to (no `//host` or `https:` open redirects). */
export function isSafeReturnPath(path: unknown): path is string {
  return (
    typeof path === 'string' && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\')
  );
}

function readStoredReturnTo(): string | null {
  const value = readJson(storageKeys.returnTo, 'session');
  return isSafeReturnPath(value) ? value : null;
}

/** The state at start-up, from browser storage. */
export function initialAuthState(): AuthState {
  const record = readStoredRecord();
  const base: AuthState = {
    ...loggedOut,
    currentUserStatus: 'idle',
    sessionMessage: readStoredSessionMessage(),
    returnTo: readStoredReturnTo(),
    sessionLossCount: 0,
  };
  if (!record) return base;
  return {
    ...base,
    user: record.user,
    isLoggedIn: true,
    token: record.token,
    role: record.role,
    tokenExpiresAt: record.tokenExpiresAt,
    ability: record.ability,
  };
}

function clearStoredSession(): void {
  removeKey(storageKeys.userData);
  removeKey(storageKeys.accessToken);
}

/** Loads the auth schemas (and zod) on demand: they are not needed before the login page is interactive. */
export function loadAuthContracts() {
  return import('@cm/contracts/auth.ts');
}

/**
 * Login: `POST /api/auth/login`, then stores the user record (with `ability`) as `userData`
 * and the token as `accessToken` (spec §4). Failures go back to the caller (its 401 means a
 * wrong password, not a lost session: the call carries no token).
 */
export const login = createAsyncThunk<UserRecord, LoginBody, { rejectValue: HttpError | null }>(
  'auth/login',
  async (body, { dispatch, rejectWithValue }) => {
    const result = await request({ url: '/api/auth/login', method: 'POST', body, withAuth: false });
    if (!result.ok) return rejectWithValue(result.error);
    const { userRecordSchema } = await loadAuthContracts();
    const parsed = userRecordSchema.safeParse(result.data);
    if (!parsed.success) return rejectWithValue(null);
    const record = parsed.data;
    writeJson(storageKeys.userData, record);
    writeJson(storageKeys.accessToken, record.token);
    dispatch(loginSucceeded(record));
    return record;
  },
);

/** Logout: clears the state and the stored token and user data, then tells the server (its failure is ignored). */
export const logout = createAsyncThunk('auth/logout', async (_: void, { dispatch }) => {
  const token = readAccessToken();
  clearStoredSession();
  dispatch(sessionEnded({ reason: 'logout' }));
  if (token !== null) {
    await request({ url: '/api/auth/logout', method: 'POST', token, canLoseSession: false });
  }
});

/**
 * A network error or 401 ended the session (spec §4, §8): remember the current page, store the
 * message, log out. The app then goes to the root path.
 */
export const loseSession = createAsyncThunk(
  'auth/loseSession',
  (args: { reason: SessionLossReason; currentPath: string }, { dispatch }) => {
    const pathname = args.currentPath.split(/[?#]/)[0];
    const isWorthReturning =
      isSafeReturnPath(args.currentPath) && pathname !== ROOT_ROUTE && pathname !== LOGIN_ROUTE;
    const returnTo = isWorthReturning ? args.currentPath : null;
    writeJson(storageKeys.sessionMessage, args.reason, 'session');
    if (returnTo !== null) writeJson(storageKeys.returnTo, returnTo, 'session');
    clearStoredSession();
    dispatch(sessionEnded({ reason: args.reason, returnTo }));
  },
);

/** The stored message was shown: forget it. */
export const consumeSessionMessage = createAsyncThunk(
  'auth/consumeSessionMessage',
  (_: void, { dispatch }) => {
    removeKey(storageKeys.sessionMessage, 'session');
    dispatch(sessionMessageConsumed());
  },
);

/** The remembered page was used: forget it. */
export const consumeReturnTo = createAsyncThunk('auth/consumeReturnTo', (_: void, { dispatch }) => {
  removeKey(storageKeys.returnTo, 'session');
  dispatch(returnToConsumed());
});

/** Renews the token while the user is active (sessions idle out on the server). */
export const refreshToken = createAsyncThunk<RefreshResult, void, { rejectValue: HttpError | null }>(
  'auth/refreshToken',
  async (_, { dispatch, rejectWithValue }) => {
    const result = await request({ url: '/api/auth/refresh', method: 'POST' });
    if (!result.ok) return rejectWithValue(result.error);
    const { refreshResultSchema } = await loadAuthContracts();
    const parsed = refreshResultSchema.safeParse(result.data);
    if (!parsed.success) return rejectWithValue(null);
    const stored = readStoredRecord();
    if (stored) writeJson(storageKeys.userData, { ...stored, ...parsed.data });
    writeJson(storageKeys.accessToken, parsed.data.token);
    dispatch(tokenRefreshed(parsed.data));
    return parsed.data;
  },
);

/**
 * Change password: `POST /api/auth/change-password`. On success the server has cleared the
 * must-change flag (and signed out the user's other sessions, not this one): the stored user
 * and the state say so too, which lets the route guards through. Failures go back to the page.
 */
export const changePassword = createAsyncThunk<void, ChangePasswordBody, { rejectValue: HttpError }>(
  'auth/changePassword',
  async (body, { dispatch, rejectWithValue }) => {
    const result = await request({ url: '/api/auth/change-password', method: 'POST', body });
    if (!result.ok) return rejectWithValue(result.error);
    const stored = readStoredRecord();
    if (stored)
      writeJson(storageKeys.userData, { ...stored, user: { ...stored.user, mustChangePassword: false } });
    dispatch(passwordChanged());
  },
);

/**
 * Another tab of this origin changed the stored session (the `storage` event; tabs share local
 * storage): it logged out or lost the session, so this tab logs out too, without telling the
 * server again; or it logged in, renewed the token or changed the password, so this tab takes the
 * stored record. A different user's record first ends this tab's session, so no per-user data
 * (the API cache) outlives its owner.
 */
export const syncStoredSession = createAsyncThunk<void, void, { state: { auth: AuthState } }>(
  'auth/syncStoredSession',
  (_, { dispatch, getState }) => {
    const { isLoggedIn, user } = getState().auth;
    const record = readStoredRecord();
    if (isLoggedIn && (!record || record.user.id !== user?.id)) dispatch(sessionEnded({ reason: 'logout' }));
    if (record) dispatch(loginSucceeded(record));
  },
);

/** Load-current-user (spec §4): idle → loading → succeeded | failed; the user is `result.currentUser`. */
export const loadCurrentUser = createAsyncThunk<
  CurrentUserResult['currentUser'],
  void,
  { rejectValue: HttpError | null }
>('auth/loadCurrentUser', async (_, { rejectWithValue }) => {
  const result = await request({ url: '/api/auth/me' });
  if (!result.ok) return rejectWithValue(result.error);
  const { currentUserResultSchema } = await loadAuthContracts();
  // The schemas' first evaluation (zod) and the re-render this answer causes, in separate tasks.
  await nextTask();
  const parsed = currentUserResultSchema.safeParse(result.data);
  if (!parsed.success) return rejectWithValue(null);
  const { currentUser } = parsed.data;
  const stored = readStoredRecord();
  if (stored) {
    const { ability, ...user } = currentUser;
    writeJson(storageKeys.userData, { ...stored, user, role: user.role, ability });
  }
  return currentUser;
});

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    loginSucceeded(state, action: PayloadAction<UserRecord>) {
      const record = action.payload;
      state.user = record.user;
      state.isLoggedIn = true;
      state.token = record.token;
      state.role = record.role;
      state.tokenExpiresAt = record.tokenExpiresAt;
      state.ability = record.ability;
      state.currentUserStatus = 'succeeded';
    },
    passwordChanged(state) {
      if (state.user) state.user.mustChangePassword = false;
    },
    tokenRefreshed(state, action: PayloadAction<RefreshResult>) {
      state.token = action.payload.token;
      state.tokenExpiresAt = action.payload.tokenExpiresAt;
    },
    sessionMessageConsumed(state) {
      state.sessionMessage = null;
    },
    returnToConsumed(state) {
      state.returnTo = null;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionEnded, (state, action) => {
        Object.assign(state, loggedOut);
        state.currentUserStatus = 'idle';
        const { reason } = action.payload;
        if (reason === 'logout') return;
        state.sessionMessage = { reason, message: SESSION_MESSAGES[reason] };
        state.returnTo = action.payload.returnTo ?? state.returnTo;
        state.sessionLossCount += 1;
      })
      .addCase(loadCurrentUser.pending, (state) => {
        state.currentUserStatus = 'loading';
      })
      .addCase(loadCurrentUser.fulfilled, (state, action) => {
        const { ability, ...user } = action.payload;
        state.currentUserStatus = 'succeeded';
        state.user = user;
        state.role = user.role;
        state.ability = ability;
      })
      .addCase(loadCurrentUser.rejected, (state) => {
        state.currentUserStatus = 'failed';
      });
  },
});

export const { loginSucceeded, passwordChanged, tokenRefreshed, sessionMessageConsumed, returnToConsumed } =
  authSlice.actions;
export const authReducer = authSlice.reducer;

/** Selects the auth state from any root state that holds it. */
export const selectAuth = (state: { auth: AuthState }): AuthState => state.auth;
