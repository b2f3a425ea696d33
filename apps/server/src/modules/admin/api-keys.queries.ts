import type { SqlRunner } from '../../db/client.ts';
import type { ApiKeyRow } from '../api-keys/api-keys.queries.ts';

export async function listApiKeys(db: SqlRunner): Promise<ApiKeyRow[]> {
  return db.query<ApiKeyRow>(
    `SELECT id, name, prefix, scopes, revoked_at, last_used_at, created_at FROM api_keys
     ORDER BY revoked_at IS NOT NULL, created_at DESC, id DESC`,
  );
}

export async function findApiKey(db: SqlRunner, id: number): Promise<ApiKeyRow | undefined> {
  const rows = await db.query<ApiKeyRow>(
    'SELECT id, name, prefix, scopes, revoked_at, last_used_at, created_at FROM api_keys WHERE id = $1',
    [id],
  );
  return rows[0];
}
