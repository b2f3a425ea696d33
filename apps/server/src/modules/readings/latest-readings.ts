import type { SqlRunner } from '../../db/client.ts';
import { findLastReadings, findLastReadingsFromMonths, type Coverage } from './readings.queries.ts';
import { utcMonthStart } from './utc-month.ts';

/** A meter's latest: its register as last read, and the last instant its import channel has data for. */
export interface LastReading {
  readAt: Date | null;
  valueMicro: number | null;
  dataAt: Date | null;
}

/** A latest reading looked up with what the window before its data holds (Completeness). */
export interface LastReadingAndWindow extends LastReading {
  /** Absent when remembered, or found by the full search: Completeness then reads the window itself. */
  window?: Coverage;
}

/** A meter with no reading yet. */
export const NO_READING: LastReading = { readAt: null, valueMicro: null, dataAt: null };

/** What the latest reading of a meter is remembered by, and where it is looked for first (migration 0021). */
export interface LatestInput {
  /** The meter's device id. */
  id: number;
  readingsVersion: number;
  lastRegisterMonth: Date | null;
  lastIntervalMonth: Date | null;
}

/** What the window before a meter's last data starts from (Completeness). */
export interface WindowInput {
  installedAt: Date;
  intervalMinutes: number;
}

/**
 * No reading lies more than a day ahead of when it was written (imports and ingest refuse it): the
 * latest is the newest at or before now + AHEAD_MS, so a reading too far ahead never shows as one.
 */
const AHEAD_MS = 24 * 3_600_000;

type LastRow = Awaited<ReturnType<typeof findLastReadings>>[number] & { window?: Coverage };

const hasWindowInput = (meter: LatestInput & Partial<WindowInput>): meter is LatestInput & WindowInput =>
  meter.installedAt !== undefined && meter.intervalMinutes !== undefined;

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

  /**
   * The latest of each meter, the ones not remembered in one round trip; with `windowMs`, also
   * what the window of that length before each one's last data holds, in that same trip.
   */
  async of(meters: readonly LatestInput[]): Promise<Map<number, LastReading>>;
  async of(
    meters: readonly (LatestInput & WindowInput)[],
    windowMs: number,
  ): Promise<Map<number, LastReadingAndWindow>>;
  async of(
    meters: readonly (LatestInput & Partial<WindowInput>)[],
    windowMs?: number,
  ): Promise<Map<number, LastReadingAndWindow>> {
    const found = new Map<number, LastReadingAndWindow>();
    const asked: LatestInput[] = [];
    for (const meter of meters) {
      const remembered = this.known.get(meter.id);
      if (remembered?.version === meter.readingsVersion) found.set(meter.id, remembered.last);
      else asked.push(meter);
    }
    if (asked.length === 0) return found;
    const byId = await this.lookUp(asked, windowMs);
    if (this.known.size + asked.length > REMEMBERED_METERS) this.known.clear();
    for (const meter of asked) {
      const row = byId.get(meter.id);
      const last = row
        ? { readAt: row.read_at, valueMicro: row.value_micro, dataAt: row.data_at }
        : NO_READING;
      this.known.set(meter.id, { version: meter.readingsVersion, last });
      found.set(meter.id, row?.window ? { ...last, window: row.window } : last);
    }
    return found;
  }

  /**
   * Looks in each meter's newest written months; meters never written to have no reading. A month
   * after the bound's holds nothing to show (a meter written ahead of time): the latest is then
   * looked for in the bound's own month first.
   */
  private async lookUp(meters: (LatestInput & Partial<WindowInput>)[], windowMs: number | undefined) {
    const written = meters.filter((meter) => meter.lastRegisterMonth ?? meter.lastIntervalMonth);
    if (written.length === 0) return new Map<number, LastRow>();
    const untilMs = Date.now() + AHEAD_MS;
    const untilMonth = new Date(utcMonthStart(untilMs));
    const notAfterBound = (month: Date | null) => (month && month > untilMonth ? untilMonth : month);
    const monthsOf = (meter: LatestInput) => ({
      meterId: meter.id,
      registerMonth: notAfterBound(meter.lastRegisterMonth),
      intervalMonth: notAfterBound(meter.lastIntervalMonth),
    });
    const near: (LastRow & { found: boolean })[] =
      windowMs !== undefined && written.every(hasWindowInput)
        ? await findLastReadingsFromMonths(
            this.db,
            written.map((meter) => ({
              ...monthsOf(meter),
              installedAt: meter.installedAt,
              intervalMs: meter.intervalMinutes * 60_000,
            })),
            untilMs,
            { windowMs },
          )
        : await findLastReadingsFromMonths(this.db, written.map(monthsOf), untilMs);
    const missed = near.filter((row) => !row.found).map((row) => row.meter_id);
    const rows: LastRow[] = [
      ...near.filter((row) => row.found),
      ...(missed.length > 0 ? await findLastReadings(this.db, missed, untilMs) : []),
    ];
    return new Map(rows.map((row) => [row.meter_id, row]));
  }
}
