import type { SqlRunner } from '../../db/client.ts';

export interface ExportMeterRow {
  device_id: number;
  meter_number: string;
  multiplier: number;
  interval_minutes: number;
  public_name: string;
  time_zone: string;
}

export async function findExportMeter(
  db: SqlRunner,
  meterNumber: string,
): Promise<ExportMeterRow | undefined> {
  const rows = await db.query<ExportMeterRow>(
    `SELECT m.device_id, m.meter_number, m.multiplier, m.interval_minutes, l.public_name, l.time_zone
     FROM meters m JOIN locations l ON l.id = m.location_id WHERE m.meter_number = $1`,
    [meterNumber],
  );
  return rows[0];
}

/** One page of a meter's readings after `afterMs` (exclusive) up to `toMs` (inclusive): keyset paging on the primary key. */
export async function readingsPage(
  db: SqlRunner,
  meterId: number,
  afterMs: number,
  toMs: number,
  limit: number,
): Promise<Array<[ms: number, milli: number, quality: number]>> {
  const rows = await db.queryArrays(
    `SELECT (extract(epoch FROM read_at) * 1000)::float8, register_milli, quality FROM readings
     WHERE meter_id = $1 AND read_at > timestamptz 'epoch' + $2::int8 * interval '1 millisecond'
       AND read_at <= timestamptz 'epoch' + $3::int8 * interval '1 millisecond'
     ORDER BY read_at LIMIT $4`,
    [meterId, afterMs, toMs, limit],
  );
  return rows.map((row) => [Number(row[0]), Number(row[1]), Number(row[2])]);
}
