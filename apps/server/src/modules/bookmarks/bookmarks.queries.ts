import type { SqlRunner } from '../../db/client.ts';

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
