import type { SqlRunner } from '../../db/client.ts';
import type { apiKeys } from '../../db/schema.ts';
import type { RowOf } from '../../db/rows.ts';
import { namesById } from '../../db/sql-helpers.ts';

export type ApiKeyRow = Pick<
  RowOf<typeof apiKeys>,
  'id' | 'name' | 'prefix' | 'key_hash' | 'scopes' | 'revoked_at' | 'last_used_at' | 'created_at'
>;

const apiKeyColumns = 'id, name, prefix, key_hash, scopes, revoked_at, last_used_at, created_at';

/** Every key, live ones first, newest first. */
export async function listApiKeys(db: SqlRunner): Promise<ApiKeyRow[]> {
  return db.query<ApiKeyRow>(
    `SELECT ${apiKeyColumns} FROM api_keys ORDER BY revoked_at IS NOT NULL, created_at DESC, id DESC`,
  );
}

export async function findApiKey(db: SqlRunner, id: number): Promise<ApiKeyRow | undefined> {
  const rows = await db.query<ApiKeyRow>(`SELECT ${apiKeyColumns} FROM api_keys WHERE id = $1`, [id]);
  return rows[0];
}

export async function findApiKeyByHash(db: SqlRunner, keyHash: string): Promise<ApiKeyRow | undefined> {
  const rows = await db.query<ApiKeyRow>(`SELECT ${apiKeyColumns} FROM api_keys WHERE key_hash = $1`, [
    keyHash,
  ]);
  return rows[0];
}

export async function insertApiKey(
  db: SqlRunner,
  key: { name: string; prefix: string; keyHash: string; scopes: string[] },
): Promise<ApiKeyRow> {
  const rows = await db.query<ApiKeyRow>(
    `INSERT INTO api_keys (name, prefix, key_hash, scopes) VALUES ($1, $2, $3, $4)
     RETURNING ${apiKeyColumns}`,
    [key.name, key.prefix, key.keyHash, key.scopes],
  );
  const row = rows[0];
  if (!row) throw new Error('insert into api_keys returned no row');
  return row;
}

export async function touchApiKey(db: SqlRunner, id: number): Promise<void> {
  await db.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [id]);
}

export async function revokeApiKey(db: SqlRunner, id: number): Promise<boolean> {
  const rows = await db.query<{ id: number }>(
    'UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id',
    [id],
  );
  return rows.length > 0;
}

/** What the audit log calls each of these API keys: their names. */
export const findApiKeyNames = (db: SqlRunner, ids: readonly number[]) =>
  namesById(db, `SELECT id, name FROM api_keys WHERE id = ANY($1::int[])`, ids);
