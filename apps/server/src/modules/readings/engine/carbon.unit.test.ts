import { describe, expect, it } from 'vitest';
import { selectSmallest } from './carbon.ts';
import { computeReadings } from './compute.ts';
import type { PriceTimeline } from './cost.ts';
import { intervalSegment } from './test-segments.ts';

// Carbon (issue 36), worked by hand. Eight half hours from 00:00Z on 2026-01-05 (UTC zone, so hour
// buckets are plain): intensities 300, 200, unknown, 100, 400, 250, 150, 350 g/kWh, energies 1, 2,
// 1, 0.5, 1, 1, 3, 1 kWh.
//   Emitted: 1·300 + 2·200 + 0.5·100 + 1·400 + 1·250 + 3·150 + 1·350 = 2200 g = 2.2 kg.
//   Known energy 9.5 kWh; the third half hour's 1 kWh has no intensity (unknown, not zero).
//   Average: 2200 / 9.5 = 231.578947… g/kWh.
//   Cleanest quarter: 7 intervals with an intensity, ⌈7/4⌉ = 2: 100 (0.5 kWh) and 150 (3 kWh):
//   3.5 of 9.5 kWh.

const HALF = 30 * 60_000;
const FROM = Date.UTC(2026, 0, 5);
const TO = FROM + 8 * HALF;
const INTENSITY = [300, 200, Number.NaN, 100, 400, 250, 150, 350];
const ENERGY = [1, 2, 1, 0.5, 1, 1, 3, 1];

function carbon(): PriceTimeline {
  const known = INTENSITY.map((g, k) => ({ g, k })).filter(({ g }) => !Number.isNaN(g));
  return {
    start: Float64Array.from(known, ({ k }) => FROM + k * HALF),
    end: Float64Array.from(known, ({ k }) => FROM + (k + 1) * HALF),
    price: Float64Array.from(known, ({ g }) => g * 1000), // mg/kWh
    version: new Int32Array(known.length),
    versions: 1,
  };
}

const segment = () =>
  intervalSegment(ENERGY.map((kwh, k) => [FROM + k * HALF, FROM + (k + 1) * HALF, kwh * 1_000_000] as const));

describe('carbon of a channel', () => {
  it('weighs each interval by its intensity, leaves a missing one unknown, and finds the cleanest quarter', () => {
    const computed = computeReadings(
      { import: [segment()], export: [segment()] },
      {
        fromMs: FROM,
        toMs: TO,
        timeZone: 'UTC',
        granularity: 'hour',
        nowMs: TO,
        primary: 'import',
        carbon: carbon(),
      },
    );
    const totals = computed.primary.carbon;
    expect(totals?.emitted).toBe(2_200_000_000_000n); // 2200 g in nanograms
    expect(totals?.knownEnergy).toBe(9_500_000);
    expect(totals?.unknownEnergy).toBe(1_000_000);
    // The third half hour alone has energy without an intensity.
    expect(totals?.unknownSteps).toBe(1);
    expect(totals?.intervals).toBe(7);
    expect(totals?.cleanestEnergy).toBe(3_500_000);
    expect(totals?.rangedEnergy).toBe(9_500_000);
    // Hours: 300 + 400 = 700 g; the second hour has the unknown half hour: unknown; 400 + 250 = 650 g;
    // 450 + 350 = 800 g (kg in the answer).
    expect(JSON.parse(JSON.stringify(computed.series.emissions))).toEqual([0.7, null, 0.65, 0.8]);
    // Export avoided, the same energies and intensities.
    expect(computed.other?.carbon?.emitted).toBe(2_200_000_000_000n);
  });

  it('gives raw points their own emissions', () => {
    const computed = computeReadings(
      { import: [segment()] },
      {
        fromMs: FROM,
        toMs: TO,
        timeZone: 'UTC',
        granularity: 'raw',
        nowMs: TO,
        primary: 'import',
        carbon: carbon(),
      },
    );
    expect(JSON.parse(JSON.stringify(computed.series.emissions))).toEqual([
      0.3,
      0.4,
      null,
      0.05,
      0.4,
      0.25,
      0.45,
      0.35,
    ]);
  });
});

describe('selecting the smallest keys', () => {
  it('moves exactly the k smallest to the front, whatever the order', () => {
    for (const k of [0, 1, 2, 5, 9, 10]) {
      const keys = Float64Array.from([7, 3, 9, 1, 8, 2, 6, 0, 5, 4]);
      selectSmallest(keys, k);
      // The k smallest of 0…9 are 0…k−1.
      expect(Array.from(keys.subarray(0, k)).sort((a, b) => a - b)).toEqual(
        Array.from({ length: k }, (_, i) => i),
      );
    }
  });
});
