import { describe, expect, it } from 'vitest';
import type { KnownIntervals } from '../readings/index.ts';
import { knownIntervalsOf } from '../readings/engine/test-segments.ts';
import { baseloadOf, daysBefore, nightSplitOf, nightsBefore } from './baseload.ts';

const HOUR = 3_600_000;
const QUARTER = HOUR / 4;
const BERLIN = 'Europe/Berlin';
const at = (iso: string) => Date.parse(iso);

/** Hourly intervals from `first` (UTC), one per value in kWh (null: no interval). */
function hourly(first: string, kwh: readonly (number | null)[]): KnownIntervals {
  const out = { start: [] as number[], energy: [] as number[], nominal: [] as number[] };
  kwh.forEach((value, i) => {
    if (value === null) return;
    out.start.push(at(first) + i * HOUR);
    out.energy.push(Math.round(value * 1_000_000));
    out.nominal.push(HOUR);
  });
  return knownIntervalsOf(out);
}

function merged(...parts: KnownIntervals[]): KnownIntervals {
  const rows = parts.flatMap((part) =>
    [...part.start].map((start, i) => ({
      start,
      energy: part.energy[i] ?? 0,
      nominal: part.nominal[i] ?? 0,
    })),
  );
  rows.sort((a, b) => a.start - b.start);
  return knownIntervalsOf({
    start: rows.map((row) => row.start),
    energy: rows.map((row) => row.energy),
    nominal: rows.map((row) => row.nominal),
  });
}

describe('nights (00:00–06:00 local) before the range end', () => {
  it('takes the nights that have ended, the DST night 5 hours long', () => {
    // 30 March 2026 12:00 in Berlin (10:00 UTC): the nights of the 29th (clocks go 02:00 → 03:00:
    // 00:00 CET = 28th 23:00 UTC to 06:00 CEST = 04:00 UTC, 5 h) and of the 30th (22:00 → 04:00 UTC, 6 h).
    expect(nightsBefore(at('2026-03-30T10:00:00Z'), BERLIN, 2)).toEqual([
      { start: at('2026-03-28T23:00:00Z'), end: at('2026-03-29T04:00:00Z') },
      { start: at('2026-03-29T22:00:00Z'), end: at('2026-03-30T04:00:00Z') },
    ]);
    // At 05:00 on the 30th its night has not ended: the 28th and the 29th; skipping 1, the 27th and 28th.
    expect(nightsBefore(at('2026-03-30T03:00:00Z'), BERLIN, 2).map((n) => n.start)).toEqual([
      at('2026-03-27T23:00:00Z'),
      at('2026-03-28T23:00:00Z'),
    ]);
    expect(nightsBefore(at('2026-03-30T03:00:00Z'), BERLIN, 2, 1).map((n) => n.start)).toEqual([
      at('2026-03-26T23:00:00Z'),
      at('2026-03-27T23:00:00Z'),
    ]);
  });
});

describe('baseload: the median of each night’s lowest whole hour', () => {
  it('measures whole hours only, the DST night’s five among them', () => {
    const nights = nightsBefore(at('2026-03-30T10:00:00Z'), BERLIN, 3);
    const intervals = merged(
      // 28th (27th 23:00 → 28th 05:00 UTC): lowest hour 0.25 kW.
      hourly('2026-03-27T23:00:00Z', [0.4, 0.3, 0.25, 0.3, 0.35, 0.5]),
      // 29th, the DST night: five real hours (local 00, 01, 03, 04, 05): lowest 0.2 kW.
      hourly('2026-03-28T23:00:00Z', [0.4, 0.3, 0.2, 0.5, 0.6]),
      // 30th: the second hour has three quarters of 0.01 kWh (0.03 kWh, but 45 minutes: not a
      // whole hour, not counted); lowest whole hour 0.3 kW.
      hourly('2026-03-29T22:00:00Z', [0.35, null, 0.3, 0.32, 0.4, 0.45]),
      knownIntervalsOf({
        start: [0, 1, 2].map((q) => at('2026-03-29T23:00:00Z') + q * QUARTER),
        energy: [10_000, 10_000, 10_000],
        nominal: [QUARTER, QUARTER, QUARTER],
      }),
    );
    // Lows 0.25, 0.2, 0.3: the median is 0.25 kW.
    expect(baseloadOf(intervals, nights)).toEqual({ kw: 0.25, nights: 3 });
    // The last two nights: 0.2 and 0.3, the mean of the middle two, 0.25; a night without data is not counted.
    expect(baseloadOf(intervals, nights.slice(1))).toEqual({ kw: 0.25, nights: 2 });
    expect(baseloadOf(hourly('2026-03-27T23:00:00Z', [0.4, 0.3]), nights)).toEqual({ kw: 0.3, nights: 1 });
    expect(baseloadOf(knownIntervalsOf({ start: [], energy: [], nominal: [] }), nights)).toEqual({
      kw: null,
      nights: 0,
    });
  });
});

describe('night share: energy starting 00:00–06:00 local over all', () => {
  it('counts the DST days’ nights of 5 and 7 hours', () => {
    // 29 March 2026 in Berlin is 23 hours (28th 23:00 → 29th 22:00 UTC), 1 kWh each: local hours
    // 00, 01, 03, 04, 05 are night, 5 of 23 kWh = 0.21739… → 0.2174.
    const spring = hourly(
      '2026-03-28T23:00:00Z',
      Array.from({ length: 23 }, () => 1),
    );
    expect(nightSplitOf(spring, at('2026-03-28T23:00:00Z'), at('2026-03-29T22:00:00Z'), BERLIN)).toEqual({
      nightEnergy: 5,
      energy: 23,
      share: 0.2174,
    });
    // 25 October 2026 is 25 hours (24th 22:00 → 25th 23:00 UTC): 00, 01, 02, 02 again, 03, 04, 05
    // are night, 7 of 25 kWh = 0.28. Intervals outside the range are not counted.
    const autumn = hourly(
      '2026-10-24T21:00:00Z',
      Array.from({ length: 27 }, () => 1),
    );
    expect(nightSplitOf(autumn, at('2026-10-24T22:00:00Z'), at('2026-10-25T23:00:00Z'), BERLIN)).toEqual({
      nightEnergy: 7,
      energy: 25,
      share: 0.28,
    });
    expect(nightSplitOf(autumn, at('2027-01-01T00:00:00Z'), at('2027-01-02T00:00:00Z'), BERLIN)).toEqual({
      nightEnergy: 0,
      energy: 0,
      share: null,
    });
  });
});

describe('the previous period of a night share', () => {
  it('is the same number of local days just before, across a DST change', () => {
    // 23–29 March 2026 in Berlin (7 days; 23rd 00:00 CET = 22nd 23:00 UTC, the end 30th 00:00 CEST
    // = 29th 22:00 UTC): 16–22 March, from 15th 23:00 UTC.
    expect(daysBefore(at('2026-03-22T23:00:00Z'), at('2026-03-29T22:00:00Z'), BERLIN)).toEqual({
      fromMs: at('2026-03-15T23:00:00Z'),
      toMs: at('2026-03-22T23:00:00Z'),
    });
    // 30 March – 5 April (CEST): 23–29 March, whose first midnight is still CET.
    expect(daysBefore(at('2026-03-29T22:00:00Z'), at('2026-04-05T22:00:00Z'), BERLIN)).toEqual({
      fromMs: at('2026-03-22T23:00:00Z'),
      toMs: at('2026-03-29T22:00:00Z'),
    });
  });
});
