// The months before a range that a tariff's ratchet and capacity charge look at (a year: see
// tariffs' demandLookbackFrom), remembered as the engine's intervals: read and computed again on
// every request, they doubled its time (`npm run bench:demand`). What is remembered is keyed by
// everything the intervals come from: the meters with their readings version (changed by every
// write to their readings, in whatever process), the settings the engine reads from them, the
// range and the zone. Only a past lookback is remembered (its end not after now), so "now" does
// not enter it.

import type { KnownIntervals } from '../readings/index.ts';
import type { LocationMeter } from '../directory/index.ts';

/** About 40 meter-years of 15-minute intervals (24 bytes each). */
const REMEMBERED_BYTES = 32 * 1024 * 1024;

/** The key of a lookback [fromMs, toMs) of `held` in `timeZone`: changes with anything it is computed from. */
export function lookbackKey(
  held: readonly LocationMeter[],
  fromMs: number,
  toMs: number,
  timeZone: string,
): string {
  const meters = held.map((meter) =>
    [
      meter.id,
      meter.readingsVersion,
      meter.meterNumber,
      meter.multiplier,
      meter.registerDigits,
      meter.intervalMinutes,
      meter.installedAt.getTime(),
      meter.removedAt?.getTime() ?? '',
    ].join(':'),
  );
  return `${timeZone}|${fromMs}|${toMs}|${meters.join(',')}`;
}

/** Lookback intervals by key, the least recently used dropped beyond REMEMBERED_BYTES. */
export class DemandHistory {
  private readonly remembered = new Map<string, KnownIntervals>();
  private bytes = 0;

  constructor(private readonly maxBytes = REMEMBERED_BYTES) {}

  /** The remembered intervals of `key`, else `compute`'s (then remembered). */
  async intervals(key: string, compute: () => Promise<KnownIntervals>): Promise<KnownIntervals> {
    const known = this.remembered.get(key);
    if (known) {
      this.remembered.delete(key);
      this.remembered.set(key, known);
      return known;
    }
    const computed = await compute();
    const size = bytesOf(computed);
    if (size > this.maxBytes) return computed;
    // Copies of their own length: the engine's columns are views of room for every step.
    this.remembered.set(key, {
      start: computed.start.slice(),
      energy: computed.energy.slice(),
      nominal: computed.nominal.slice(),
    });
    this.bytes += size;
    for (const [oldest, intervals] of this.remembered) {
      if (this.bytes <= this.maxBytes) break;
      this.remembered.delete(oldest);
      this.bytes -= bytesOf(intervals);
    }
    return computed;
  }
}

const bytesOf = (intervals: KnownIntervals) =>
  intervals.start.byteLength + intervals.energy.byteLength + intervals.nominal.byteLength;
