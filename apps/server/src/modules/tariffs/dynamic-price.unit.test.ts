import { describe, expect, it } from 'vitest';
import { tariffBodySchema, type Tariff, type TariffBody } from '@cm/contracts/tariffs.ts';
import { Costing } from '../readings/engine/cost.ts';
import type { SeriesPrices } from '../series/index.ts';
import { overlaySeries, seriesUnitPrice } from './dynamic-price.ts';
import { energyProfile, feedInProfile, priceTimeline, pricedVersions } from './price-timeline.ts';

// Dynamic prices (issue 36). Every expected figure is worked out by hand in the comments:
// (series price per kWh + margin) × (1 + tax), rounded to the millionth half away from zero.

const HALF = 30 * 60_000;
const AMSTERDAM = 'Europe/Amsterdam';

function tariff(body: Partial<TariffBody>): Tariff {
  const parsed = tariffBodySchema.parse({
    effectiveFrom: '2026-03-01',
    currency: 'EUR',
    energyPrice: '0.30',
    standingChargePerDay: '0',
    taxPercent: '0',
    ...body,
  });
  return { ...parsed, id: 1, locationId: 1, createdAt: '2026-01-01T00:00:00.000Z' };
}

describe('a series price with margin and tax', () => {
  it('rounds once, half away from zero', () => {
    // 85.37 EUR/MWh = 0.08537/kWh; + 0.02 = 0.10537; × 1.21 = 0.1274977 → 0.127498.
    expect(seriesUnitPrice(85_370_000, 'MWh', 20_000, 21_000_000)).toBe(127_498);
    // 0.100001 × 1.5 = 0.1500015: exactly half a millionth → up, and down for its negative.
    expect(seriesUnitPrice(100_001, 'kWh', 0, 50_000_000)).toBe(150_002);
    expect(seriesUnitPrice(-100_001, 'kWh', 0, 50_000_000)).toBe(-150_002);
    // 0.0005 EUR/MWh is half a millionth per kWh → 1; 0.0004 → 0.
    expect(seriesUnitPrice(500, 'MWh', 0, 0)).toBe(1);
    expect(seriesUnitPrice(-500, 'MWh', 0, 0)).toBe(-1);
    expect(seriesUnitPrice(400, 'MWh', 0, 0)).toBe(0);
    // −30 EUR/MWh with a margin of 0.02: −0.03 + 0.02 = −0.01 × 1.09 = −0.0109.
    expect(seriesUnitPrice(-30_000_000, 'MWh', 20_000, 9_000_000)).toBe(-10_900);
  });
});

describe('a half-hourly price series over the spring change', () => {
  // 2026-03-29 in Amsterdam: the clocks go from 02:00 to 03:00 (01:00Z). Local 00:00 … 04:00 is
  // 23:00Z (28th) … 02:00Z: six half hours, 00:00 00:30 01:00 01:30 03:00 03:30 on the wall.
  const from = Date.parse('2026-03-28T23:00:00Z');
  const to = Date.parse('2026-03-29T02:00:00Z');
  // EUR/MWh: 100, 80, 60, 40, 120; the sixth (03:30) is missing.
  const series: SeriesPrices = {
    intervalMs: HALF,
    unit: 'MWh',
    currency: 'EUR',
    starts: [0, 1, 2, 3, 4].map((k) => from + k * HALF),
    values: [100, 80, 60, 40, 120].map((eur) => eur * 1_000_000),
  };
  const versions = pricedVersions([
    tariff({ importSeries: { seriesId: 7, margin: '0.02', taxPercent: '21' } }),
  ]);

  it('prices each half hour from the series, the missing one unpriced (not zero, not the base price)', () => {
    const base = priceTimeline(versions, energyProfile, from, to, AMSTERDAM);
    const timeline = overlaySeries(base, versions, (v) => v.importSource, new Map([[7, series]]));
    // Unit prices: (0.100 + 0.02) × 1.21 = 0.1452; 0.10 × 1.21 = 0.121; 0.08 × 1.21 = 0.0968;
    // 0.06 × 1.21 = 0.0726; 0.14 × 1.21 = 0.1694; then none.
    expect(Array.from(timeline.price)).toEqual([145_200, 121_000, 96_800, 72_600, 169_400, Number.NaN]);
    expect(Array.from(timeline.start)).toEqual([0, 1, 2, 3, 4, 5].map((k) => from + k * HALF));
    expect(timeline.end[5]).toBe(to);

    // 0.5 kWh every half hour: 0.0726 + 0.0605 + 0.0484 + 0.0363 + 0.0847 = 0.3025 EUR; 0.5 kWh unpriced.
    const costing = new Costing(timeline);
    const costs = [0, 1, 2, 3, 4, 5].map((k) =>
      costing.add(from + k * HALF, from + (k + 1) * HALF, 500_000, 0),
    );
    expect(costs.slice(0, 5).map((pico) => pico / 1e12)).toEqual([0.0726, 0.0605, 0.0484, 0.0363, 0.0847]);
    expect(costs[5]).toBeNaN();
    const totals = costing.totals();
    expect(totals.byVersion).toEqual([302_500_000_000n]);
    expect(totals.unpricedEnergy).toBe(500_000);
  });

  it('pays export from a series only where the version says so', () => {
    const exporting = pricedVersions([
      tariff({ exportSeries: { seriesId: 7, margin: '-0.01', taxPercent: '0' } }),
    ]);
    const base = priceTimeline(exporting, feedInProfile, from, to, AMSTERDAM);
    const timeline = overlaySeries(base, exporting, (v) => v.exportSource, new Map([[7, series]]));
    // 0.100 − 0.01 = 0.09; 0.07; 0.05; 0.03; 0.11; none.
    expect(Array.from(timeline.price)).toEqual([90_000, 70_000, 50_000, 30_000, 110_000, Number.NaN]);
  });

  it('leaves time before the first version without a price', () => {
    const later = pricedVersions([
      tariff({ effectiveFrom: '2026-03-30', importSeries: { seriesId: 7, margin: '0', taxPercent: '0' } }),
    ]);
    const base = priceTimeline(later, energyProfile, from, to, AMSTERDAM);
    const timeline = overlaySeries(base, later, (v) => v.importSource, new Map([[7, series]]));
    expect(Array.from(timeline.price)).toEqual([Number.NaN]);
  });
});
