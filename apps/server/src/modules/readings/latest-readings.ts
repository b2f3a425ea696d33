import type { SqlRunner } from '../../db/client.ts';
import { findLastReadings } from './readings.queries.ts';

/** A meter's latest: its register as last read, and the last instant its import channel has data for. */
export interface LastReading {
  readAt: Date | null;
  valueMicro: number | null;
  dataAt: Date | null;
}

/** A meter with no reading yet. */
export const NO_READING: LastReading = { readAt: null, valueMicro: null, dataAt: null };

/** What the latest reading of a meter is remembered by. */
export interface LatestInput {
  device_id: number;
  readings_version: number;
}

/** Meters whose latest one process remembers; past it the memory starts over. */
const REMEMBERED_METERS = 100_000;

/**
 * The latest reading of meters, remembered with each meter's readings_version, which every write
 * to its readings changes (migration 0005) in whichever process it happens: a meter is asked for
 * again only after its readings changed. A meter lookup then costs one query (the meter row, with
 * its version) instead of two.
 */
export class LatestReadings {
  private readonly known = new Map<number, { version: number; last: LastReading }>();

  constructor(private readonly db: SqlRunner) {}

  /** The latest of each meter, the ones not remembered in one round trip. */
  async of(meters: readonly LatestInput[]): Promise<Map<number, LastReading>> {
    const found = new Map<number, LastReading>();
    const asked: LatestInput[] = [];
    for (const meter of meters) {
      const remembered = this.known.get(meter.device_id);
      if (remembered?.version === meter.readings_version) found.set(meter.device_id, remembered.last);
      else asked.push(meter);
    }
    if (asked.length === 0) return found;
    const rows = await findLastReadings(
      this.db,
      asked.map((meter) => meter.device_id),
    );
    const byId = new Map(rows.map((row) => [row.meter_id, row]));
    if (this.known.size + asked.length > REMEMBERED_METERS) this.known.clear();
    for (const meter of asked) {
      const row = byId.get(meter.device_id);
      const last = row
        ? { readAt: row.read_at, valueMicro: row.value_micro, dataAt: row.data_at }
        : NO_READING;
      this.known.set(meter.device_id, { version: meter.readings_version, last });
      found.set(meter.device_id, last);
    }
    return found;
  }
}
