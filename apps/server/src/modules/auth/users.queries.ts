import type { Language } from '@cm/contracts/languages.ts';
import type { SqlRunner } from '../../db/client.ts';
import type { users } from '../../db/schema.ts';
import type { RowOf } from '../../db/rows.ts';
import { likePattern, namesById } from '../../db/sql-helpers.ts';

export type AdminUserRow = Pick<
  RowOf<typeof users>,
  | 'id'
  | 'email'
  | 'full_name'
  | 'role_id'
  | 'is_disabled'
  | 'must_change_password'
  | 'last_login_at'
  | 'created_at'
> & { location_ids: number[] };

const userColumns = `u.id, u.email, u.full_name, u.role_id, u.is_disabled, u.must_change_password, u.last_login_at, u.created_at,
  COALESCE((SELECT array_agg(ul.location_id ORDER BY ul.location_id) FROM user_locations ul WHERE ul.user_id = u.id), '{}') AS location_ids`;

export interface UserFilter {
  search: string | undefined;
  role: number | undefined;
  disabled: boolean | undefined;
  limit: number;
  offset: number;
}

export async function listUsers(
  db: SqlRunner,
  filter: UserFilter,
): Promise<{ rows: AdminUserRow[]; total: number }> {
  const where = `($1::text IS NULL OR u.email ILIKE $1 OR u.full_name ILIKE $1)
    AND ($2::int IS NULL OR u.role_id = $2) AND ($3::boolean IS NULL OR u.is_disabled = $3)`;
  const params = [
    filter.search ? likePattern(filter.search) : null,
    filter.role ?? null,
    filter.disabled ?? null,
  ];
  const [rows, counts] = await Promise.all([
    db.query<AdminUserRow>(
      `SELECT ${userColumns} FROM users u WHERE ${where} ORDER BY lower(u.email), u.id LIMIT $4 OFFSET $5`,
      [...params, filter.limit, filter.offset],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM users u WHERE ${where}`, params),
  ]);
  return { rows, total: counts[0]?.total ?? 0 };
}

export async function findAdminUser(db: SqlRunner, id: number): Promise<AdminUserRow | undefined> {
  const rows = await db.query<AdminUserRow>(`SELECT ${userColumns} FROM users u WHERE u.id = $1`, [id]);
  return rows[0];
}

export async function insertUser(
  db: SqlRunner,
  user: {
    email: string;
    fullName: string;
    roleId: number;
    passwordHash: string;
    mustChangePassword: boolean;
  },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO users (email, full_name, password_hash, role_id, must_change_password)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [user.email, user.fullName, user.passwordHash, user.roleId, user.mustChangePassword],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into users returned no id');
  return id;
}

export async function updateUser(
  db: SqlRunner,
  id: number,
  changes: { email?: string | undefined; fullName?: string | undefined; roleId?: number | undefined },
): Promise<void> {
  await db.query(
    `UPDATE users SET email = COALESCE($2, email), full_name = COALESCE($3, full_name), role_id = COALESCE($4, role_id)
     WHERE id = $1`,
    [id, changes.email ?? null, changes.fullName ?? null, changes.roleId ?? null],
  );
}

export async function replaceUserLocations(
  db: SqlRunner,
  userId: number,
  locationIds: readonly number[],
): Promise<void> {
  await db.query('DELETE FROM user_locations WHERE user_id = $1', [userId]);
  if (locationIds.length > 0) {
    await db.query(
      'INSERT INTO user_locations (user_id, location_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
      [userId, [...new Set(locationIds)]],
    );
  }
}

/**
 * Ids of enabled administrators, locked until the transaction ends, so that two concurrent
 * requests cannot each remove "another" admin and leave none.
 */
export async function lockEnabledAdmins(db: SqlRunner): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    'SELECT id FROM users WHERE role_id = 1 AND NOT is_disabled ORDER BY id FOR UPDATE',
  );
  return rows.map((row) => row.id);
}

export async function setUserDisabled(db: SqlRunner, id: number, isDisabled: boolean): Promise<void> {
  await db.query('UPDATE users SET is_disabled = $2 WHERE id = $1', [id, isDisabled]);
}

export async function setPassword(
  db: SqlRunner,
  id: number,
  passwordHash: string,
  mustChangePassword: boolean,
): Promise<void> {
  await db.query('UPDATE users SET password_hash = $2, must_change_password = $3 WHERE id = $1', [
    id,
    passwordHash,
    mustChangePassword,
  ]);
}

/** What the audit log calls each of these users: the full name, else the e-mail address. */
export const findUserNames = (db: SqlRunner, ids: readonly number[]) =>
  namesById(
    db,
    `SELECT id, COALESCE(NULLIF(full_name, ''), email) AS name FROM users WHERE id = ANY($1::int[])`,
    ids,
  );

/** Who hears of a location's alerts: every enabled administrator, and the enabled clients linked to it. */
export function findAlertRecipients(
  db: SqlRunner,
  locationIds: readonly number[],
): Promise<{ user_id: number; email: string; full_name: string; language: Language; location_id: number }[]> {
  return db.query(
    `SELECT u.id AS user_id, u.email, u.full_name, u.language, l.id AS location_id
     FROM unnest($1::int[]) AS l(id)
     JOIN users u ON NOT u.is_disabled
       AND (u.role_id = 1 OR EXISTS (SELECT 1 FROM user_locations ul WHERE ul.user_id = u.id AND ul.location_id = l.id))
     ORDER BY l.id, u.id`,
    [locationIds],
  );
}

export async function updateUserLanguage(db: SqlRunner, id: number, language: Language): Promise<void> {
  await db.query('UPDATE users SET language = $2 WHERE id = $1', [id, language]);
}

export async function findUserLanguage(db: SqlRunner, id: number): Promise<Language> {
  const rows = await db.query<{ language: Language }>('SELECT language FROM users WHERE id = $1', [id]);
  return rows[0]?.language ?? 'en';
}
