import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intervalSegment, regularSegment, run, runRange } from './test-segments.ts';

// Demand (issue 36): each interval's average power (energy ÷ length) and its peak per bucket and
// over the range, from the meter's own intervals. Expected figures are worked out by hand below.

const MIN = 60_000;
const QUARTER = 15 * MIN;

/** Quarter-hour records from `from`: energy(i) in millionths of a kWh. */
function quarters(from: number, count: number, energy: (i: number) => number) {
  const records: Array<[number, number, number]> = [];
  for (let i = 0; i < count; i++) records.push([from + i * QUARTER, from + (i + 1) * QUARTER, energy(i)]);
  return records;
}

describe('peak demand', () => {
  it('of a 25-hour DST day comes from its 100 real quarter hours, named in local time', () => {
    // Brussels, Sunday 2026-10-25: clocks go back at 03:00 CEST (01:00 UTC) to 02:00 CET, so the
    // local day runs 2026-10-24T22:00Z → 2026-10-25T23:00Z: 25 hours, 100 quarter hours; the next
    // day (96 quarters) follows. Every quarter uses 0.25 kWh (0.25 kWh ÷ 0.25 h = 1 kW) except:
    //  i = 9   00:15Z, local 02:15+02:00 (the first 02:15): 0.7 kWh → 0.7 ÷ 0.25 = 2.8 kW
    //  i = 13  01:15Z, local 02:15+01:00 (the second 02:15): 0.8 kWh → 3.2 kW, the day's peak
    //  i = 99  22:45Z, local 23:45+01:00, the 25-hour day's last quarter: 0.78 kWh → 3.12 kW
    //  i = 100 23:00Z, local 00:00 on the 26th: 0.9 kWh → 3.6 kW, the next day's and range's peak
    // A 24-hour day cut at 22:00Z would have lost i = 96…99 and put i = 100 in the 25th.
    const from = Date.UTC(2026, 9, 24, 22);
    const special: Record<number, number> = { 9: 700_000, 13: 800_000, 99: 780_000, 100: 900_000 };
    const segment = intervalSegment(
      quarters(from, 196, (i) => special[i] ?? 250_000),
      { intervalMinutes: 15 },
    );
    const days = run([segment], { From: '2026-10-25', To: '2026-10-26' }, 'Europe/Brussels', 'day');
    expect(days.series.hours).toEqual([25, 24]);
    expect(days.series.demand).toEqual([3.2, 3.6]);
    expect(days.series.demandAt).toEqual([Date.UTC(2026, 9, 25, 1, 15), Date.UTC(2026, 9, 25, 23)]);
    expect(days.series.demandAtLeast).toBeUndefined();
    expect(days.totals.demand).toEqual({
      kW: 3.6,
      from: '2026-10-25T23:00:00.000Z',
      to: '2026-10-25T23:15:00.000Z',
      localFrom: '2026-10-26T00:00:00+01:00',
      isAtLeast: false,
    });
    const first = run([segment], { From: '2026-10-25', To: '2026-10-25' }, 'Europe/Brussels', 'raw');
    expect(first.totals.demand).toMatchObject({ kW: 3.2, localFrom: '2026-10-25T02:15:00+01:00' });
    // Raw: each of the 100 quarters' own power, 1 kW where 0.25 kWh.
    expect(first.series.demand).toHaveLength(100);
    expect(first.series.demand?.[9]).toBe(2.8);
    expect(first.series.demand?.[99]).toBe(3.12);
    expect(first.series.demand?.[50]).toBe(1);
  });

  it('with a gap inside the peak’s interval is "at least" the gap’s average', () => {
    // UTC, 15-minute register readings 00:00 … 02:00 (Wh): +250 each quarter (1 kW), except
    // 01:15 → 01:30 +500 Wh (2 kW). The 01:00 reading is missing: 00:45 → 01:15 is a gap of
    // 30 min holding 900 Wh, whose spread is unknown; its average is 0.9 kWh ÷ 0.5 h = 1.8 kW.
    // Peak: 2 kW (01:15), at least (the gap), and the 01:00 day bucket says so too.
    const increments = [0, 250, 250, 250, 450, 450, 500, 250, 250];
    const segment = regularSegment({
      startMs: Date.UTC(2026, 0, 5),
      count: 9,
      energyOf: (i) => increments[i] ?? 0,
      skip: (i) => i === 4,
    });
    const toMs = Date.UTC(2026, 0, 5, 2);
    const raw = runRange([segment], Date.UTC(2026, 0, 5), toMs, 'UTC', 'raw');
    expect(raw.totals.demand).toMatchObject({ kW: 2, from: '2026-01-05T01:15:00.000Z', isAtLeast: true });
    // The gap's point has no power of its own (its quarters' spread is unknown).
    expect(raw.series.demand).toEqual([null, 1, 1, 1, null, 2, 1, 1]);

    // Make the gap heavier: 00:45 → 01:15 holds 1.4 kWh, 2.8 kW on average, more than any known
    // quarter: one of its two quarters drew at least 2.8 kW, so the peak is at least 2.8 kW there.
    const heavy = regularSegment({
      startMs: Date.UTC(2026, 0, 5),
      count: 9,
      energyOf: (i) => (i === 4 || i === 5 ? 700 : (increments[i] ?? 0)),
      skip: (i) => i === 4,
    });
    const hours = runRange([heavy], Date.UTC(2026, 0, 5), toMs, 'UTC', 'hour');
    expect(hours.totals.demand).toEqual({
      kW: 2.8,
      from: '2026-01-05T00:45:00.000Z',
      to: '2026-01-05T01:15:00.000Z',
      localFrom: '2026-01-05T00:45:00+00:00',
      isAtLeast: true,
    });
    // Hour 00: quarters 00:00–00:45 at 1 kW; the gap crosses into hour 01, so it is in neither
    // hour's peak and leaves both "at least". Hour 01: 01:15 (2 kW) and 01:30, 01:45 (1 kW).
    expect(hours.series.demand).toEqual([1, 2]);
    expect(hours.series.demandAtLeast).toEqual([1, 1]);
  });

  it('is each interval’s energy ÷ its hours; the range’s peak is the highest (property)', () => {
    // For any records, every raw demand equals its energy ÷ its hours (rounded to the millionth),
    // and the range's peak is the highest of them, never below any day's peak.
    fc.assert(
      fc.property(
        fc.constantFrom(5, 15, 30),
        fc.array(fc.integer({ min: 0, max: 5_000_000 }), { minLength: 1, maxLength: 200 }),
        (minutes, energies) => {
          const length = minutes * MIN;
          const from = Date.UTC(2026, 2, 28, 20);
          const records = energies.map((e, i) => [from + i * length, from + (i + 1) * length, e] as const);
          const segment = intervalSegment(records, { intervalMinutes: minutes });
          const toMs = from + energies.length * length;
          const raw = runRange([segment], from, toMs, 'Europe/Brussels', 'raw');
          const expected = energies.map((e) => Math.round((e * 60) / minutes) / 1e6);
          expect(raw.series.demand).toEqual(expected);
          expect(raw.totals.demand?.kW).toBe(Math.max(...expected));
          const days = runRange([segment], from, toMs, 'Europe/Brussels', 'day');
          const dayPeaks = (days.series.demand ?? []).filter((kW) => kW !== null);
          expect(Math.max(...dayPeaks)).toBe(raw.totals.demand?.kW);
        },
      ),
      { numRuns: 60 },
    );
  });
});
