import type { SqlRunner } from './client.ts';

/** The name of the unique constraint a PostgreSQL error violated (SQLSTATE 23505), if that is what it is. */
export function uniqueViolation(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = 'code' in error ? error.code : undefined;
  if (code !== '23505') return undefined;
  const constraint = 'constraint' in error && typeof error.constraint === 'string' ? error.constraint : '';
  const detail = 'detail' in error && typeof error.detail === 'string' ? error.detail : '';
  const message = 'message' in error && typeof error.message === 'string' ? error.message : '';
  return constraint || detail || message || 'unique';
}

/** Escapes LIKE wildcards so that a search for "50%" means those characters. */
export const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `{ id, name }` rows for `ids` from a query taking them as `$1` (an int[]); no query for none. */
export async function namesById(
  db: SqlRunner,
  sql: string,
  ids: readonly number[],
): Promise<Array<{ id: number; name: string }>> {
  if (ids.length === 0) return [];
  return db.query<{ id: number; name: string }>(sql, [[...ids]]);
}
