import { describe, expect, it } from 'vitest';
import { computeReadings } from '../readings/engine/compute.ts';
import { rollingAverage } from '../readings/engine/demand.ts';
import { intervalSegment } from '../readings/engine/test-segments.ts';
import { bucketEdges } from '../readings/zoned-time.ts';
import { monthsEnding, peaksOf, presentMonthlyPeaks } from './monthly-peaks.ts';

// Monthly peaks of a meter or a location (issue 36). Expected figures worked out by hand below.

const MIN = 60_000;
const FAR_FUTURE = Date.UTC(2100, 0, 1);

const JANUARY = Date.UTC(2026, 0, 1);
const JANUARY_MINUTES = 31 * 24 * 60;

/**
 * Records of `minutes` each over all of January 2026 (UTC), each `base` millionths of a kWh except
 * those starting at the instants `special` names; none from the instants `skip` names.
 */
function january(minutes: number, base: number, special: Record<number, number>, skip: number[] = []) {
  const out: [number, number, number][] = [];
  for (let i = 0; i < JANUARY_MINUTES / minutes; i++) {
    const start = JANUARY + i * minutes * MIN;
    if (!skip.includes(start)) out.push([start, start + minutes * MIN, special[start] ?? base]);
  }
  return out;
}

function monthsOf(segments: ReturnType<typeof intervalSegment>[], month: string, timeZone = 'UTC') {
  const { fromMs, toMs } = monthsEnding(month, timeZone, FAR_FUTURE);
  const edges = bucketEdges(fromMs, toMs, 'month', timeZone);
  const indicators = segments.map((segment) => ({
    computed: computeReadings(
      { import: [segment] },
      {
        fromMs,
        toMs,
        timeZone,
        granularity: 'month',
        nowMs: FAR_FUTURE,
        primary: 'import',
        keepIntervals: segments.length > 1,
      },
    ).primary,
    fromMs,
    toMs,
  }));
  return presentMonthlyPeaks(peaksOf(indicators, edges), edges, timeZone);
}

// January 2026 (UTC), every quarter 0.1 kWh (0.4 kW) except on the 15th from 18:00 (kWh → kW is × 4):
//   meter A: 18:00 1.00 kWh (4 kW), 18:15 0.25 (1 kW)         → own peak 4 kW at 18:00
//   meter B: 18:00 0.25 (1 kW),     18:15 0.90 (3.6 kW)       → own peak 3.6 kW at 18:15
// Sum of their peaks: 4 + 3.6 = 7.6 kW, but they never drew that at once. Per interval:
//   18:00: 1.00 + 0.25 = 1.25 kWh → 5 kW;  18:15: 0.25 + 0.90 = 1.15 kWh → 4.6 kW.
// The location's peak is 5 kW at 18:00.
const at = Date.UTC(2026, 0, 15, 18);
const QUARTER = 15 * MIN;
const a = intervalSegment(january(15, 100_000, { [at]: 1_000_000, [at + QUARTER]: 250_000 }), {
  intervalMinutes: 15,
  meterNumber: 'A',
});
const b = intervalSegment(january(15, 100_000, { [at]: 250_000, [at + QUARTER]: 900_000 }), {
  intervalMinutes: 15,
  meterNumber: 'B',
});

describe('monthly peaks', () => {
  it('of a location are the sum per interval of its meters, not the sum of their peaks', () => {
    const answer = monthsOf([a, b], '2026-01');
    expect(answer.months).toHaveLength(12);
    expect(answer.months[11]).toMatchObject({ month: '2026-01', from: '2026-01-01T00:00:00.000Z' });
    expect(answer.months[11]?.peak).toEqual({
      kW: 5,
      from: '2026-01-15T18:00:00.000Z',
      to: '2026-01-15T18:15:00.000Z',
      localFrom: '2026-01-15T18:00:00+00:00',
      isAtLeast: false,
    });
    // February 2025 … December 2025 have no data: no peak.
    expect(answer.months.slice(0, 11).every((month) => month.peak === null)).toBe(true);
    // One meter alone: its own peak.
    expect(monthsOf([b], '2026-01').months[11]?.peak).toMatchObject({
      kW: 3.6,
      from: '2026-01-15T18:15:00.000Z',
    });
  });

  it('sum meters of different intervals in quarter hours, "at least" where one is missing', () => {
    // Meter C reads every 5 minutes, 0.01 kWh each (0.12 kW), except 18:00 0.10, 18:05 0.20,
    // 18:10 0.30 kWh on the 15th (its own peak 0.30 kWh ÷ 1/12 h = 3.6 kW), and nothing from
    // 18:15 to 18:30. Quarter 18:00: 1.25 + 0.60 = 1.85 kWh → 7.4 kW. Quarter 18:15: A and B's
    // 1.15 kWh, C unknown → at least 4.6 kW; so the month's peak is 7.4 kW, "at least" (C's
    // missing quarter might have been higher). Other quarters: 0.1 + 0.1 + 3 × 0.01 = 0.23 kWh.
    const fives = { [at]: 100_000, [at + 5 * MIN]: 200_000, [at + 10 * MIN]: 300_000 };
    const missing = [at + QUARTER, at + QUARTER + 5 * MIN, at + QUARTER + 10 * MIN];
    const c = intervalSegment(january(5, 10_000, fives, missing), { intervalMinutes: 5, meterNumber: 'C' });
    const peak = monthsOf([a, b, c], '2026-01').months[11]?.peak;
    expect(peak).toMatchObject({ kW: 7.4, from: '2026-01-15T18:00:00.000Z', isAtLeast: true });
  });

  it('run over the 12 local months ending with the one asked, DST months included', () => {
    // Brussels: 2025-04 … 2026-03; from 2025-04-01 00:00 CEST (22:00Z the day before) to
    // 2026-04-01 00:00 CEST.
    const { fromMs, toMs } = monthsEnding('2026-03', 'Europe/Brussels', FAR_FUTURE);
    expect(new Date(fromMs).toISOString()).toBe('2025-03-31T22:00:00.000Z');
    expect(new Date(toMs).toISOString()).toBe('2026-03-31T22:00:00.000Z');
  });
});

describe('rolling average of monthly peaks', () => {
  it('floors each month at the floor and averages the months that have a peak', () => {
    // Peaks 1.2, 3.0, none, 4.5 kW with the Flemish floor 2.5 kW: 2.5 + 3.0 + 4.5 = 10.0 over
    // 3 months = 3.333333 kW (not (1.2 + 3.0 + 4.5) ÷ 3 = 2.9 kW without the floor).
    expect(rollingAverage([1_200_000, 3_000_000, null, 4_500_000], 2_500_000)).toEqual({
      average: 3_333_333,
      months: 3,
    });
    // A small consumer: every month under the floor pays for the floor.
    expect(rollingAverage([800_000, 1_900_000], 2_500_000)).toEqual({ average: 2_500_000, months: 2 });
    expect(rollingAverage([null, null], 2_500_000)).toEqual({ average: null, months: 0 });
    // docs/demand.md's year: nine months under 2.5 kW count as 2.5: 9 × 2.5 + 3.4 + 2.6 + 3.2 =
    // 31.7 kW, ÷ 12 = 2.641666… → 2.641667 kW.
    const year = [1.9, 2.1, 3.4, 2.2, 1.6, 1.4, 1.2, 1.3, 1.5, 2.0, 2.6, 3.2].map((kW) =>
      Math.round(kW * 1e6),
    );
    expect(rollingAverage(year, 2_500_000)).toEqual({ average: 2_641_667, months: 12 });
  });

  it('comes out of the answer in kW with its floor', () => {
    // One month with a 5 kW peak: the average of that one month, above the floor.
    expect(monthsOf([a, b], '2026-01').rollingAverage).toEqual({
      kW: 5,
      floorKw: 2.5,
      months: 1,
      isAtLeast: false,
    });
  });
});
