import type { SqlRunner } from '../../db/client.ts';

export interface IngestMeterRow {
  device_id: number;
  meter_number: string;
  register_digits: number;
  installed_at: Date;
  removed_at: Date | null;
}

export async function findMetersByNumber(
  db: SqlRunner,
  numbers: readonly string[],
): Promise<IngestMeterRow[]> {
  return db.query<IngestMeterRow>(
    `SELECT device_id, meter_number, register_digits, installed_at, removed_at FROM meters WHERE meter_number = ANY($1::text[])`,
    [numbers],
  );
}

/** For each candidate: the value already stored at that instant, and the last stored reading before it. */
export async function neighbours(
  db: SqlRunner,
  candidates: ReadonlyArray<{ meterId: number; readAtMs: number }>,
): Promise<Array<{ at_value: number | null; prev_value: number | null; prev_ms: number | null }>> {
  return db.query(
    `SELECT (SELECT register_milli FROM readings r WHERE r.meter_id = c.m AND r.read_at = c.t) AS at_value,
            p.register_milli AS prev_value, (extract(epoch FROM p.read_at) * 1000)::float8 AS prev_ms
     FROM (SELECT m, timestamptz 'epoch' + t * interval '1 millisecond' AS t, i
           FROM unnest($1::int[], $2::int8[]) WITH ORDINALITY AS x(m, t, i)) c
     LEFT JOIN LATERAL (SELECT register_milli, read_at FROM readings r WHERE r.meter_id = c.m AND r.read_at < c.t
                        ORDER BY r.read_at DESC LIMIT 1) p ON true
     ORDER BY c.i`,
    [candidates.map((c) => c.meterId), candidates.map((c) => c.readAtMs)],
  );
}

/** Inserts the batch; answers the (meter, instant) pairs actually inserted, as "meterId:ms". Source 0 = device. */
export async function insertDeviceReadings(
  db: SqlRunner,
  rows: ReadonlyArray<{ meterId: number; readAtMs: number; milli: number; quality: number }>,
): Promise<Set<string>> {
  const inserted = await db.queryArrays(
    `INSERT INTO readings (meter_id, read_at, register_milli, source, quality)
     SELECT m, timestamptz 'epoch' + t * interval '1 millisecond', v, 0, q
     FROM unnest($1::int[], $2::int8[], $3::int8[], $4::int2[]) AS x(m, t, v, q)
     ON CONFLICT (meter_id, read_at) DO NOTHING
     RETURNING meter_id, (extract(epoch FROM read_at) * 1000)::int8`,
    [
      rows.map((r) => r.meterId),
      rows.map((r) => r.readAtMs),
      rows.map((r) => r.milli),
      rows.map((r) => r.quality),
    ],
  );
  return new Set(inserted.map((row) => `${String(row[0])}:${String(row[1])}`));
}

/** The meters, their Cubes and AccessPoints were heard from now. */
export async function touchChains(db: SqlRunner, meterIds: readonly number[]): Promise<void> {
  await db.query(
    `UPDATE devices SET last_seen_at = greatest(last_seen_at, now())
     WHERE id IN (
       SELECT d.id FROM devices d WHERE d.id = ANY($1::int[])
       UNION SELECT c.parent_id FROM devices c WHERE c.id = ANY($1::int[]) AND c.parent_id IS NOT NULL
       UNION SELECT a.parent_id FROM devices c JOIN devices a ON a.id = c.parent_id WHERE c.id = ANY($1::int[]) AND a.parent_id IS NOT NULL
     )`,
    [meterIds],
  );
}
