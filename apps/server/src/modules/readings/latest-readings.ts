import type { SqlRunner } from '../../db/client.ts';
import { findLastReadings, findLastReadingsFromMonths } from './readings.queries.ts';

/** A meter's latest: its register as last read, and the last instant its import channel has data for. */
export interface LastReading {
  readAt: Date | null;
  valueMicro: number | null;
  dataAt: Date | null;
}

/** A meter with no reading yet. */
export const NO_READING: LastReading = { readAt: null, valueMicro: null, dataAt: null };

/** What the latest reading of a meter is remembered by, and where it is looked for first (migration 0021). */
export interface LatestInput {
  device_id: number;
  readings_version: number;
  last_register_month: Date | null;
  last_interval_month: Date | null;
}

/**
 * No reading lies more than a day ahead of when it was written (imports and ingest refuse it): the
 * latest is the newest at or before now + AHEAD_MS, so a reading too far ahead never shows as one.
 */
const AHEAD_MS = 24 * 3_600_000;

type LastRow = Awaited<ReturnType<typeof findLastReadings>>[number];

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
    const byId = await this.lookUp(asked);
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

  /** Looks in each meter's newest written months; meters never written to have no reading. */
  private async lookUp(meters: LatestInput[]) {
    const written = meters.filter((meter) => meter.last_register_month ?? meter.last_interval_month);
    if (written.length === 0) return new Map<number, LastRow>();
    const untilMs = Date.now() + AHEAD_MS;
    const near = await findLastReadingsFromMonths(
      this.db,
      written.map((meter) => ({
        meterId: meter.device_id,
        registerMonth: meter.last_register_month,
        intervalMonth: meter.last_interval_month,
      })),
      untilMs,
    );
    const missed = near.filter((row) => !row.found).map((row) => row.meter_id);
    const rows: LastRow[] = [
      ...near.filter((row) => row.found),
      ...(missed.length > 0 ? await findLastReadings(this.db, missed, untilMs) : []),
    ];
    return new Map(rows.map((row) => [row.meter_id, row]));
  }
}
