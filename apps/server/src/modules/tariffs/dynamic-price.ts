// Dynamic prices (issue 36): a tariff version whose import or export energy is priced from a price
// series, one price per interval. The one rule for turning a series value into the price per kWh
// the readings engine multiplies energy by, and the one place the series enters a price timeline.
//
// Rounding rule (docs/dynamic-prices.md): with v the series value in millionths of the currency
// per unit (s = 1 for kWh, 1000 for MWh), m the margin in millionths per kWh and t the tax in
// millionths of a percent, the price per kWh in millionths is
//     round((v + m·s) × (10^8 + t) / (s · 10^8)),
// computed exactly in integers and rounded once, half away from zero (−0.5 → −1, as 0.5 → 1).

import { upperBound } from '@cm/contracts/sorted.ts';
import type { PriceTimeline } from '../readings/index.ts';
import type { SeriesPrices } from '../series/index.ts';
import { timelineBuilder, type PricedVersion, type SeriesSource } from './price-timeline.ts';

const HUNDRED_PERCENT = 100_000_000n; // 100 % in millionths of a percent

/** The price per kWh, in millionths of the currency, of a series value with a margin and a tax on top. */
export function seriesUnitPrice(
  valueMicro: number,
  unit: 'kWh' | 'MWh',
  marginMicro: number,
  taxMicro: number,
): number {
  const scale = unit === 'MWh' ? 1000n : 1n;
  const numerator = (BigInt(valueMicro) + BigInt(marginMicro) * scale) * (HUNDRED_PERCENT + BigInt(taxMicro));
  const denominator = scale * HUNDRED_PERCENT;
  const magnitude = ((numerator < 0n ? -numerator : numerator) * 2n + denominator) / (2n * denominator);
  return Number(numerator < 0n ? -magnitude : magnitude);
}

/**
 * The base timeline with the time of every version priced from a series replaced by that series'
 * intervals: each at its unit price, NaN (unpriced) where the series has no value. Time with no
 * version in force (NaN in the base) stays as it is.
 */
export function overlaySeries(
  base: PriceTimeline,
  versions: readonly PricedVersion[],
  sourceOf: (version: PricedVersion) => SeriesSource | null,
  series: ReadonlyMap<number, SeriesPrices>,
): PriceTimeline {
  const sources = versions.map(sourceOf);
  if (sources.every((source) => source === null)) return base;
  const { emit, build } = timelineBuilder();
  // Unit prices by version and value: a year's 35,040 values hold far fewer distinct ones.
  const units = sources.map(() => new Map<number, number>());
  for (let k = 0; k < base.start.length; k++) {
    const a = base.start[k] ?? 0;
    const b = base.end[k] ?? 0;
    const v = base.version[k] ?? 0;
    const basePrice = base.price[k] ?? Number.NaN;
    const source = sources[v];
    if (!source || Number.isNaN(basePrice)) {
      emit(a, b, basePrice, v);
      continue;
    }
    const values = series.get(source.seriesId);
    if (!values) {
      emit(a, b, Number.NaN, v);
      continue;
    }
    const { starts, intervalMs } = values;
    const n = starts.length;
    const known = units[v] ?? new Map<number, number>();
    let i = Math.max(0, upperBound(starts, a) - 1);
    let cursor = a;
    while (cursor < b) {
      while (i < n && (starts[i] ?? 0) + intervalMs <= cursor) i++;
      const from = starts[i] ?? Infinity;
      if (from <= cursor) {
        const to = Math.min(b, from + intervalMs);
        const value = values.values[i] ?? 0;
        let unit = known.get(value);
        if (unit === undefined) {
          unit = seriesUnitPrice(value, values.unit, source.marginMicro, source.taxMicro);
          known.set(value, unit);
        }
        emit(cursor, to, unit, v);
        cursor = to;
      } else {
        const to = Math.min(b, from);
        emit(cursor, to, Number.NaN, v);
        cursor = to;
      }
    }
  }
  return build(base.versions);
}
