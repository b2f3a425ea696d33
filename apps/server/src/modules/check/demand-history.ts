// The months before a range that a tariff's ratchet and capacity charge look at (a year: see
// tariffs' demandLookbackFrom), remembered folded (tariffs' foldEarlierMonths): read, computed and
// folded again on every request, they doubled its time (`npm run bench:demand`). They are keyed
// by everything they come from: the readings (held-readings-key.ts) and the tariff's demand
// settings. Only a past lookback is remembered (its end not after now), so "now" does not enter it.

import type { EarlierMonths } from '../tariffs/index.ts';

/** Folded lookbacks kept: a few hundred bytes each (13 months), and the intervals of a cut slot. */
const REMEMBERED = 4096;

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
