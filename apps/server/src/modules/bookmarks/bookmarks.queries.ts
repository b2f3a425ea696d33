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

/** The user's nicknames for meters, by meter number. */
export async function listNicknames(db: SqlRunner, userId: number): Promise<Record<string, string>> {
  const rows = await db.query<{ meter_number: string; nickname: string }>(
    'SELECT meter_number, nickname FROM meter_nicknames WHERE user_id = $1',
    [userId],
  );
  return Object.fromEntries(rows.map((row) => [row.meter_number, row.nickname]));
}

/** Sets the user's nickname for a meter; '' removes it. */
export async function setNickname(db: SqlRunner, userId: number, meterNumber: string, nickname: string) {
  if (nickname === '') {
    await db.query('DELETE FROM meter_nicknames WHERE user_id = $1 AND meter_number = $2', [
      userId,
      meterNumber,
    ]);
    return;
  }
  await db.query(
    `INSERT INTO meter_nicknames (user_id, meter_number, nickname) VALUES ($1, $2, $3)
     ON CONFLICT (user_id, meter_number) DO UPDATE SET nickname = EXCLUDED.nickname`,
    [userId, meterNumber, nickname],
  );
}
