import type { SqlRunner } from '../../db/client.ts';
import type { LastReadingAndWindow } from './latest-readings.ts';
import { findCoverage, findFirstGapSince } from './readings.queries.ts';

/** Meters whose completeness one process remembers; past it the memory starts over. */
const REMEMBERED_METERS = 100_000;
/**
 * The window before the last data over which completeness is checked (cheap on years of data);
 * LatestReadings can read what it holds in the same round trip as the latest reading.
 */
export const COMPLETENESS_WINDOW_MS = 30 * 24 * 3_600_000;

/** What completeness needs to know of a meter. */
export interface CompletenessInput {
  /** The meter's device id. */
  id: number;
  installedAt: Date;
  intervalMinutes: number;
  readingsVersion: number;
}

/**
 * "Data complete up to …" of a meter: its last data when the window before it is covered as the
 * interval allows (register readings, or time covered by interval records), otherwise the start of
 * the first gap in that window. Checking a month of data is the costliest part of a meter lookup,
 * so each answer is remembered with the meter's readings_version, which every write to its
 * readings changes (migration 0005): a lookup checks again only after its readings changed, in
 * whichever process they were written.
 */
export class Completeness {
  private readonly known = new Map<number, { version: number; completeUpTo: Date | null }>();

  constructor(private readonly db: SqlRunner) {}

  /**
   * `latest`: the meter's latest (LatestReadings), whose `dataAt` is the last instant its import
   * channel has data for, with what the window before it holds when looked up alongside.
   */
  async of(meter: CompletenessInput, latest: LastReadingAndWindow): Promise<Date | null> {
    const remembered = this.known.get(meter.id);
    if (remembered?.version === meter.readingsVersion) return remembered.completeUpTo;
    const completeUpTo = await this.compute(meter, latest);
    if (this.known.size >= REMEMBERED_METERS) this.known.clear();
    this.known.set(meter.id, { version: meter.readingsVersion, completeUpTo });
    return completeUpTo;
  }

  private async compute(meter: CompletenessInput, latest: LastReadingAndWindow): Promise<Date | null> {
    const last = latest.dataAt;
    if (!last) return null;
    const intervalMs = meter.intervalMinutes * 60_000;
    const since = new Date(Math.max(meter.installedAt.getTime(), last.getTime() - COMPLETENESS_WINDOW_MS));
    const window = latest.window ?? (await findCoverage(this.db, meter.id, since, last, intervalMs));
    if (!window.first_at) return null;
    // In intervals: between consecutive register readings, or the time records cover.
    const expected = (last.getTime() - window.first_at.getTime()) / intervalMs;
    if (window.covered >= expected - 1e-9) return last;
    return (await findFirstGapSince(this.db, meter.id, intervalMs, window.first_at, last)) ?? last;
  }
}
