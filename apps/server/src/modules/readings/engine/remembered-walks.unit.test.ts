import { afterEach, describe, expect, it, vi } from 'vitest';
import { computeReadings, type ComputeOptions } from './compute.ts';
import { Costing, type PriceTimeline } from './cost.ts';
import { RememberedWalks } from './remembered-walks.ts';
import { intervalSegment } from './test-segments.ts';

// Priced walks remembered by the key of their steps and their timeline: the answer is the same as
// walking again, a walk happens only when the key, the timeline or the number of steps is new, and
// a range that "now" still shapes is never remembered.

const HALF = 30 * 60_000;
const FROM = Date.UTC(2026, 0, 5);
const TO = FROM + 8 * HALF;

function halfHourly(values: readonly number[]): PriceTimeline {
  return {
    start: Float64Array.from(values, (_, k) => FROM + k * HALF),
    end: Float64Array.from(values, (_, k) => FROM + (k + 1) * HALF),
    price: Float64Array.from(values),
    version: new Int32Array(values.length),
    versions: 1,
  };
}

const prices = halfHourly([250_000, 300_000, 120_000, 90_000, 400_000, 310_000, 150_000, 200_000]);
const carbon = halfHourly([300_000, 200_000, 100_000, 100_000, 400_000, 250_000, 150_000, 350_000]);
const segments = () => ({
  import: [
    intervalSegment(
      [1, 2, 1, 0.5, 1, 1, 3, 1].map(
        (kwh, k) => [FROM + k * HALF, FROM + (k + 1) * HALF, kwh * 1e6] as const,
      ),
    ),
  ],
});

const options = (extra: Partial<ComputeOptions>): ComputeOptions => ({
  fromMs: FROM,
  toMs: TO,
  timeZone: 'UTC',
  granularity: 'hour',
  nowMs: TO + 7 * 24 * 3_600_000,
  primary: 'import',
  prices: { import: prices },
  carbon,
  ...extra,
});

afterEach(() => vi.restoreAllMocks());

describe('remembered priced walks', () => {
  it('answers a remembered walk exactly as a new one, walking only once per key and timeline', () => {
    const walks = vi.spyOn(Costing.prototype, 'priceSteps');
    const fresh = computeReadings(segments(), options({}));
    const freshRaw = computeReadings(segments(), options({ granularity: 'raw' }));
    expect(walks).toHaveBeenCalledTimes(4); // prices and carbon, twice
    const first = computeReadings(segments(), options({ readingsKey: 'meter 1 v7' }));
    const again = computeReadings(segments(), options({ readingsKey: 'meter 1 v7', granularity: 'raw' }));
    const third = computeReadings(segments(), options({ readingsKey: 'meter 1 v7' }));
    // The first keyed answer walks; the raw one (same steps) and the third find the walks.
    expect(walks).toHaveBeenCalledTimes(6);
    for (const answer of [first, third]) {
      expect(answer.series).toEqual(fresh.series);
      expect(answer.primary.cost).toEqual(fresh.primary.cost);
      expect(answer.primary.carbon).toEqual(fresh.primary.carbon);
    }
    expect(again.series).toEqual(freshRaw.series);
    expect(again.primary.cost).toEqual(fresh.primary.cost);
    // A second raw answer of the same walks shares the first one's cost and emissions columns.
    const rawAgain = computeReadings(segments(), options({ readingsKey: 'meter 1 v7', granularity: 'raw' }));
    expect(rawAgain.series).toEqual(freshRaw.series);
    expect(rawAgain.series.cost?.millionths).toBe(again.series.cost?.millionths);
    expect(rawAgain.series.emissions?.millionths).toBe(again.series.emissions?.millionths);
    // A new key (a write bumped the readings version) or a new timeline walks again.
    computeReadings(segments(), options({ readingsKey: 'meter 1 v8' }));
    computeReadings(
      segments(),
      options({ readingsKey: 'meter 1 v8', carbon: halfHourly([...carbon.price]) }),
    );
    expect(walks).toHaveBeenCalledTimes(9);
  });

  it('walks every time while now still decides which of the range’s last intervals are missing', () => {
    const walks = vi.spyOn(Costing.prototype, 'priceSteps');
    // The range's last half hour ended 10 minutes ago: not yet due (LATE_GRACE_INTERVALS).
    const recent = options({ readingsKey: 'meter 2 v1', nowMs: TO + 10 * 60_000 });
    computeReadings(segments(), recent);
    computeReadings(segments(), recent);
    expect(walks).toHaveBeenCalledTimes(4);
  });

  it('keeps per-step columns up to its size, the least recently used going first', () => {
    const walks = new RememberedWalks(3 * 8 * 100);
    const out = new Float64Array(100);
    let walked = 0;
    const walk = (key: string) =>
      walks.priced(key, prices, 100, out, () => {
        walked++;
        out.fill(walked);
        return { walked };
      });
    expect(walk('a')).toEqual({ walked: 1 });
    walk('b');
    walk('c');
    expect(walk('a')).toEqual({ walked: 1 }); // remembered: a is now the most recently used
    expect(out[99]).toBe(1);
    walk('d'); // over the size: b goes
    expect(walks.size).toBe(3 * 8 * 100);
    expect(walk('c')).toEqual({ walked: 3 });
    expect(walk('b')).toEqual({ walked: 5 });
    // A raw answer's column of a walk counts towards the size too: the least recently used goes.
    walks.keepPoints('b', prices, 100, new Float64Array(100));
    expect(walks.points('b', prices, 100)).toHaveLength(100);
    expect(walks.size).toBe(3 * 8 * 100);
    expect(walk('d')).toEqual({ walked: 6 }); // d, the least recently used, went
    // A walk of another length under the same key is walked, not answered.
    expect(walks.priced('c', prices, 50, out, () => ({ walked: 'new' }))).toEqual({ walked: 'new' });
  });
});
