/** Browser storage keys. `userData`, `accessToken`, `skin`, `isRtl` and `menuCollapsed` are the spec's (§3). */
export const storageKeys = {
  userData: 'userData',
  accessToken: 'accessToken',
  skin: 'skin',
  isRtl: 'isRtl',
  menuCollapsed: 'menuCollapsed',
  language: 'i18nextLng',
  /** Session storage: the message of a lost session and the page to return to. */
  sessionMessage: 'cm.sessionMessage',
  returnTo: 'cm.returnTo',
} as const;

type StorageKind = 'local' | 'session';

function getStorage(kind: StorageKind): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    // Storage can be disabled (privacy mode, sandboxed frame): the app still works, it just forgets.
    return null;
  }
}

/** Reads a JSON value; `undefined` when absent or unreadable. */
export function readJson(key: string, kind: StorageKind = 'local'): unknown {
  const raw = getStorage(kind)?.getItem(key);
  if (raw == null) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    return value;
  } catch {
    return undefined;
  }
}

/** Writes a JSON value. */
export function writeJson(key: string, value: unknown, kind: StorageKind = 'local'): void {
  try {
    getStorage(kind)?.setItem(key, JSON.stringify(value));
  } catch {
    // Quota exceeded or storage disabled: nothing better to do.
  }
}

/** Removes a key. */
export function removeKey(key: string, kind: StorageKind = 'local'): void {
  try {
    getStorage(kind)?.removeItem(key);
  } catch {
    // ignore
  }
}

/** The stored access token, if any. */
export function readAccessToken(): string | null {
  const value = readJson(storageKeys.accessToken);
  return typeof value === 'string' && value.length > 0 ? value : null;
}
