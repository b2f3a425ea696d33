import type { SqlRunner } from '../../db/client.ts';
import type { sessions, users } from '../../db/schema.ts';
import type { RowOf } from '../../db/rows.ts';

export type UserRow = Pick<
  RowOf<typeof users>,
  'id' | 'email' | 'full_name' | 'password_hash' | 'role_id' | 'is_disabled' | 'must_change_password'
>;

const userColumns = 'id, email, full_name, password_hash, role_id, is_disabled, must_change_password';

export async function findUserByEmail(db: SqlRunner, email: string): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(`SELECT ${userColumns} FROM users WHERE email = $1`, [email]);
  return rows[0];
}

export async function findUserById(db: SqlRunner, id: number): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(`SELECT ${userColumns} FROM users WHERE id = $1`, [id]);
  return rows[0];
}

export async function recordLogin(db: SqlRunner, userId: number): Promise<void> {
  await db.query('UPDATE users SET last_login_at = now() WHERE id = $1', [userId]);
}

export type SessionRow = Pick<
  RowOf<typeof sessions>,
  'id' | 'user_id' | 'last_active_at' | 'expires_at' | 'revoked_at'
>;

export async function insertSession(
  db: SqlRunner,
  id: string,
  userId: number,
  maxSeconds: number,
): Promise<SessionRow> {
  const rows = await db.query<SessionRow>(
    `INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))
     RETURNING id, user_id, last_active_at, expires_at, revoked_at`,
    [id, userId, maxSeconds],
  );
  const row = rows[0];
  if (!row) throw new Error('insert into sessions returned no row');
  return row;
}

export async function findSession(db: SqlRunner, id: string): Promise<SessionRow | undefined> {
  const rows = await db.query<SessionRow>(
    'SELECT id, user_id, last_active_at, expires_at, revoked_at FROM sessions WHERE id = $1',
    [id],
  );
  return rows[0];
}

/** A session and its user in one round trip: this runs on every authenticated request. */
export async function findSessionWithUser(
  db: SqlRunner,
  id: string,
): Promise<{ session: SessionRow; user: UserRow } | undefined> {
  const rows = await db.query<SessionRow & Omit<UserRow, 'id'> & { user_row_id: number }>(
    `SELECT s.id, s.user_id, s.last_active_at, s.expires_at, s.revoked_at,
            u.id AS user_row_id, u.email, u.full_name, u.password_hash, u.role_id, u.is_disabled, u.must_change_password
     FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = $1`,
    [id],
    { prepare: 'cm_session_with_user' },
  );
  const row = rows[0];
  if (!row) return undefined;
  const {
    user_row_id,
    email,
    full_name,
    password_hash,
    role_id,
    is_disabled,
    must_change_password,
    ...session
  } = row;
  return {
    session,
    user: { id: user_row_id, email, full_name, password_hash, role_id, is_disabled, must_change_password },
  };
}

export async function touchSession(db: SqlRunner, id: string): Promise<void> {
  await db.query('UPDATE sessions SET last_active_at = now() WHERE id = $1', [id]);
}

export async function revokeSession(db: SqlRunner, id: string): Promise<void> {
  await db.query('UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [id]);
}

export async function revokeUserSessions(db: SqlRunner, userId: number): Promise<void> {
  await db.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [
    userId,
  ]);
}

export async function findSetting<T>(db: SqlRunner, key: string): Promise<T | undefined> {
  const rows = await db.query<{ value: T }>('SELECT value FROM settings WHERE key = $1', [key]);
  return rows[0]?.value;
}

/** Stores `value` unless the key exists, and answers the stored value (so concurrent starts agree). */
export async function insertSettingOnce<T>(db: SqlRunner, key: string, value: T): Promise<T> {
  await db.query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
    key,
    JSON.stringify(value),
  ]);
  const stored = await findSetting<T>(db, key);
  return stored ?? value;
}

/** Replaces a setting's value, if it is still `from` (two processes starting at once change it once). */
export async function replaceSetting<T>(db: SqlRunner, key: string, from: T, to: T): Promise<void> {
  await db.query('UPDATE settings SET value = $3 WHERE key = $1 AND value = $2', [
    key,
    JSON.stringify(from),
    JSON.stringify(to),
  ]);
}

/** Ends every session of the user but `keepSessionId` (a password change signs the other devices out). */
export async function revokeOtherSessions(
  db: SqlRunner,
  userId: number,
  keepSessionId: string,
): Promise<void> {
  await db.query(
    'UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND id <> $2 AND revoked_at IS NULL',
    [userId, keepSessionId],
  );
}

export async function updatePassword(db: SqlRunner, userId: number, passwordHash: string): Promise<void> {
  await db.query('UPDATE users SET password_hash = $2, must_change_password = false WHERE id = $1', [
    userId,
    passwordHash,
  ]);
}

/** Deletes sessions that can no longer be used: ended, expired, or idle past `idleSeconds`. */
export async function purgeEndedSessions(db: SqlRunner, idleSeconds: number): Promise<number> {
  const rows = await db.query(
    `DELETE FROM sessions
     WHERE revoked_at IS NOT NULL OR expires_at < now() OR last_active_at < now() - make_interval(secs => $1)
     RETURNING 1`,
    [idleSeconds],
  );
  return rows.length;
}
