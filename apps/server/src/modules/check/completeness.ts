import type { SqlRunner } from '../../db/client.ts';
import { findCompletenessWindow, findFirstGapSince, type MeterDetailsRow } from './check.queries.ts';

/** Meters whose completeness one process remembers; past it the memory starts over. */
const REMEMBERED_METERS = 100_000;

/**
 * "Data complete up to …" of a meter: its last reading when the window before it holds as many
 * readings as the interval allows, otherwise the start of the first gap in that window. Counting
 * a month of readings is the costliest part of a meter lookup, so each answer is remembered with
 * the meter's readings_version, which every write to its readings changes (migration 0004): a
 * lookup recounts only after its readings changed, in whichever process they were written.
 */
export class Completeness {
  private readonly known = new Map<number, { version: number; completeUpTo: Date | null }>();

  constructor(private readonly db: SqlRunner) {}

  async of(meter: MeterDetailsRow): Promise<Date | null> {
    const remembered = this.known.get(meter.device_id);
    if (remembered?.version === meter.readings_version) return remembered.completeUpTo;
    const completeUpTo = await this.compute(meter);
    if (this.known.size >= REMEMBERED_METERS) this.known.clear();
    this.known.set(meter.device_id, { version: meter.readings_version, completeUpTo });
    return completeUpTo;
  }

  private async compute(meter: MeterDetailsRow): Promise<Date | null> {
    if (!meter.last_read_at) return null;
    const window = await findCompletenessWindow(
      this.db,
      meter.device_id,
      meter.installed_at,
      meter.last_read_at,
    );
    if (!window.first_at) return null;
    const intervalMs = meter.interval_minutes * 60_000;
    const expected = Math.round((meter.last_read_at.getTime() - window.first_at.getTime()) / intervalMs) + 1;
    if (window.n >= expected) return meter.last_read_at;
    return (
      (await findFirstGapSince(
        this.db,
        meter.device_id,
        meter.interval_minutes,
        window.first_at,
        meter.last_read_at,
      )) ?? meter.last_read_at
    );
  }
}
