// The months before a range that a tariff's ratchet and capacity charge look at (a year: see
// tariffs' demandLookbackFrom), remembered folded (tariffs' foldEarlierMonths): read, computed and
// folded again on every request, they doubled its time (`npm run bench:demand`). They are keyed
// by everything they come from: the meters with their readings version (changed by every write
// to their readings, in whatever process), the settings the engine reads from them, the range,
// the zone and the tariff's demand settings. Only a past lookback is remembered (its end not
// after now), so "now" does not enter it.

import type { LocationMeter } from '../directory/index.ts';
import type { EarlierMonths } from '../tariffs/index.ts';

/** Folded lookbacks kept: a few hundred bytes each (13 months), and the intervals of a cut slot. */
const REMEMBERED = 4096;

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

/** Folded lookbacks by key, the least recently used dropped beyond `size`. */
export class DemandHistory {
  private readonly remembered = new Map<string, EarlierMonths>();

  constructor(private readonly size = REMEMBERED) {}

  /** The remembered months of `key`, else `compute`'s (then remembered). */
  async months(key: string, compute: () => Promise<EarlierMonths>): Promise<EarlierMonths> {
    const known = this.remembered.get(key);
    if (known) {
      this.remembered.delete(key);
      this.remembered.set(key, known);
      return known;
    }
    const computed = await compute();
    this.remembered.set(key, computed);
    for (const oldest of this.remembered.keys()) {
      if (this.remembered.size <= this.size) break;
      this.remembered.delete(oldest);
    }
    return computed;
  }
}
