import type { SqlRunner } from '../../db/client.ts';
import { locationVisible, type Scope } from '../scope.ts';

export interface ItemRow {
  kind: 'location' | 'meter';
  key: string;
  title: string;
  subtitle: string;
}

/** Locations then meters the caller may see, by name, at most `limit` of them. */
export async function listVisibleItems(db: SqlRunner, scope: Scope, limit: number): Promise<ItemRow[]> {
  return db.query<ItemRow>(
    `(SELECT 'location' AS kind, l.public_name AS key, l.public_name AS title, l.address AS subtitle, 0 AS k
      FROM locations l WHERE l.archived_at IS NULL AND ${locationVisible('l.id', 1, 2)})
     UNION ALL
     (SELECT 'meter', m.meter_number, m.meter_number, l.public_name, 1
      FROM meters m JOIN locations l ON l.id = m.location_id
      WHERE m.removed_at IS NULL AND l.archived_at IS NULL AND ${locationVisible('m.location_id', 1, 2)})
     ORDER BY k, title LIMIT $3`,
    [scope.isAdmin, scope.userId, limit],
  );
}

/** The caller's meters and locations matching `q`: exact, then prefix, then substring; shortest first. */
export async function searchVisibleItems(
  db: SqlRunner,
  scope: Scope,
  q: string,
  limit: number,
): Promise<ItemRow[]> {
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db.query<ItemRow>(
    `SELECT kind, key, title, subtitle FROM (
       SELECT 'location' AS kind, l.public_name AS key, l.public_name AS title, l.address AS subtitle
       FROM locations l
       WHERE l.archived_at IS NULL AND l.public_name ILIKE $3 AND ${locationVisible('l.id', 1, 2)}
       UNION ALL
       SELECT 'meter', m.meter_number, m.meter_number, l.public_name
       FROM meters m JOIN locations l ON l.id = m.location_id
       WHERE l.archived_at IS NULL AND m.meter_number ILIKE $3 AND ${locationVisible('m.location_id', 1, 2)}
     ) items
     ORDER BY CASE WHEN lower(title) = lower($4) THEN 0 WHEN lower(title) LIKE lower($5) THEN 1 ELSE 2 END,
              length(title), title
     LIMIT $6`,
    [scope.isAdmin, scope.userId, pattern, q, `${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, limit],
  );
}

/** Is this location or meter visible to the caller? */
export async function isItemVisible(
  db: SqlRunner,
  scope: Scope,
  kind: 'location' | 'meter',
  key: string,
): Promise<boolean> {
  const sql =
    kind === 'location'
      ? `SELECT 1 FROM locations l WHERE l.public_name = $3 AND l.archived_at IS NULL AND ${locationVisible('l.id', 1, 2)}`
      : `SELECT 1 FROM meters m WHERE m.meter_number = $3 AND ${locationVisible('m.location_id', 1, 2)}`;
  return (await db.query(sql, [scope.isAdmin, scope.userId, key])).length > 0;
}

export async function listBookmarkIds(db: SqlRunner, userId: number): Promise<string[]> {
  const rows = await db.query<{ item_id: string }>(
    'SELECT item_id FROM bookmarks WHERE user_id = $1 ORDER BY created_at, item_id',
    [userId],
  );
  return rows.map((row) => row.item_id);
}

/** Stars or un-stars an item; answers whether it is starred afterwards. */
export async function toggleBookmark(db: SqlRunner, userId: number, itemId: string): Promise<boolean> {
  const removed = await db.query(
    'DELETE FROM bookmarks WHERE user_id = $1 AND item_id = $2 RETURNING item_id',
    [userId, itemId],
  );
  if (removed.length > 0) return false;
  await db.query('INSERT INTO bookmarks (user_id, item_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    userId,
    itemId,
  ]);
  return true;
}
