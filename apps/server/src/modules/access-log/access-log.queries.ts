import type { SqlRunner } from '../../db/client.ts';
import type { meterAccessLog } from '../../db/schema.ts';
import type { RowOf } from '../../db/rows.ts';

/** An entry as it is written. */
export interface NewAccessRow {
  meter_id: number;
  at: string;
  channel: string;
  reader_name: string;
  reader_user_id: number | null;
  reader_api_key_id: number | null;
  data: string[];
  range_from: string | null;
  range_to: string | null;
  what: string;
}

/** Writes entries in one statement (one JSON parameter, however many). */
export async function insertAccessRows(db: SqlRunner, rows: readonly NewAccessRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO meter_access_log
       (meter_id, at, channel, reader_name, reader_user_id, reader_api_key_id, data, range_from, range_to, what)
     SELECT meter_id, at, channel, reader_name, reader_user_id, reader_api_key_id, data, range_from, range_to, what
     FROM json_to_recordset($1::json) AS r(meter_id int, at timestamptz, channel text, reader_name text,
       reader_user_id int, reader_api_key_id int, data text[], range_from timestamptz,
       range_to timestamptz, what text)`,
    [JSON.stringify(rows)],
  );
}

export type AccessRow = Pick<
  RowOf<typeof meterAccessLog>,
  'id' | 'at' | 'channel' | 'reader_name' | 'data' | 'range_from' | 'range_to' | 'what'
>;

const columns = 'id, at, channel, reader_name, data, range_from, range_to, what';

/** A meter's entries, newest first, a page of them, with the total. */
export async function listAccessRows(
  db: SqlRunner,
  meterId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: AccessRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db.query<AccessRow>(
      `SELECT ${columns} FROM meter_access_log WHERE meter_id = $1
       ORDER BY at DESC, id DESC LIMIT $2 OFFSET $3`,
      [meterId, page.limit, page.offset],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM meter_access_log WHERE meter_id = $1`, [
      meterId,
    ]),
  ]);
  return { rows, total: count[0]?.total ?? 0 };
}

/** A meter's entries oldest first, after entry `afterId` (pages for the CSV). */
export function accessRowsAfter(
  db: SqlRunner,
  meterId: number,
  afterId: number,
  limit: number,
): Promise<AccessRow[]> {
  return db.query<AccessRow>(
    `SELECT ${columns} FROM meter_access_log WHERE meter_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
    [meterId, afterId, limit],
  );
}

/** Deletes entries older than `before`, a batch at a time; answers how many. */
export async function purgeAccessRows(db: SqlRunner, before: Date, batch: number): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM meter_access_log WHERE id IN (
         SELECT id FROM meter_access_log WHERE at < $1 ORDER BY at LIMIT $2)
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [before, batch],
  );
  return rows[0]?.n ?? 0;
}
