import type { SqlRunner } from '../../db/client.ts';

export interface IngestMeterRow {
  device_id: number;
  meter_number: string;
  register_digits: number;
  installed_at: Date;
  removed_at: Date | null;
  channels: number[];
}

export async function findMetersByNumber(
  db: SqlRunner,
  numbers: readonly string[],
): Promise<IngestMeterRow[]> {
  return db.query<IngestMeterRow>(
    `SELECT device_id, meter_number, register_digits, installed_at, removed_at, channels
     FROM meters WHERE meter_number = ANY($1::text[])`,
    [numbers],
  );
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

/** A meter gets the export channel once readings of it arrive. */
export async function addChannels(db: SqlRunner, pairs: ReadonlyArray<{ meterId: number; channel: number }>) {
  if (pairs.length === 0) return;
  await db.query(
    `UPDATE meters m SET channels = m.channels || p.channel
     FROM unnest($1::int[], $2::int2[]) AS p(meter_id, channel)
     WHERE m.device_id = p.meter_id AND NOT p.channel = ANY(m.channels)`,
    [pairs.map((p) => p.meterId), pairs.map((p) => p.channel)],
  );
}
