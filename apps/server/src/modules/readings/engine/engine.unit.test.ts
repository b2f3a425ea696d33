import { describe, expect, it } from 'vitest';
import type { MeterSegment } from './channel.ts';
import { intervalSegment, NO_INTERVALS, registers, regularSegment, run } from './test-segments.ts';

const MIN = 60_000;
const HOUR = 3_600_000;

// Register of a regular 15-minute segment at instant ms.
function registerAt(segment: MeterSegment, ms: number): number {
  const index = Array.from(segment.registers.t).indexOf(ms);
  expect(index, `a reading at ${new Date(ms).toISOString()}`).toBeGreaterThanOrEqual(0);
  return (segment.registers.micro[index] ?? NaN) / 1000;
}

describe('DST days', () => {
  const cases = [
    {
      name: 'Europe/Berlin spring-forward',
      timeZone: 'Europe/Berlin',
      From: '2026-03-28',
      To: '2026-03-30',
      midnights: [
        Date.UTC(2026, 2, 27, 23),
        Date.UTC(2026, 2, 28, 23),
        Date.UTC(2026, 2, 29, 22),
        Date.UTC(2026, 2, 30, 22),
      ],
      hours: [24, 23, 24],
      kWh: [9.6, 9.2, 9.6],
    },
    {
      name: 'Europe/Berlin fall-back',
      timeZone: 'Europe/Berlin',
      From: '2026-10-24',
      To: '2026-10-26',
      midnights: [
        Date.UTC(2026, 9, 23, 22),
        Date.UTC(2026, 9, 24, 22),
        Date.UTC(2026, 9, 25, 23),
        Date.UTC(2026, 9, 26, 23),
      ],
      hours: [24, 25, 24],
      kWh: [9.6, 10, 9.6],
    },
    {
      name: 'America/New_York spring-forward',
      timeZone: 'America/New_York',
      From: '2026-03-07',
      To: '2026-03-09',
      midnights: [
        Date.UTC(2026, 2, 7, 5),
        Date.UTC(2026, 2, 8, 5),
        Date.UTC(2026, 2, 9, 4),
        Date.UTC(2026, 2, 10, 4),
      ],
      hours: [24, 23, 24],
      kWh: [9.6, 9.2, 9.6],
    },
    {
      name: 'America/New_York fall-back',
      timeZone: 'America/New_York',
      From: '2026-10-31',
      To: '2026-11-02',
      midnights: [
        Date.UTC(2026, 9, 31, 4),
        Date.UTC(2026, 10, 1, 4),
        Date.UTC(2026, 10, 2, 5),
        Date.UTC(2026, 10, 3, 5),
      ],
      hours: [24, 25, 24],
      kWh: [9.6, 10, 9.6],
    },
  ];

  for (const c of cases) {
    const start = c.midnights[0] ?? 0;
    const end = c.midnights[3] ?? 0;
    const count = (end - start) / (15 * MIN) + 1;

    it(`${c.name}: days of ${c.hours.join('/')} hours use 100 Wh per quarter hour`, () => {
      const segment = regularSegment({ startMs: start, count });
      const result = run([segment], c, c.timeZone, 'day');
      expect(result.series.t).toEqual(c.midnights.slice(0, 3));
      expect(result.series.hours).toEqual(c.hours);
      expect(result.series.consumption).toEqual(c.kWh);
      expect(result.totals.consumption).toBe(c.kWh.reduce((a, b) => a + b * 1000, 0) / 1000);
      expect(result.totals.agrees).toBe(true);
      expect(result.totals.missingIntervals).toBe(0);
    });

    it(`${c.name}: a day is register(next local midnight) − register(local midnight)`, () => {
      const segment = regularSegment({
        startMs: start,
        count,
        multiplier: 3,
        energyOf: (i) => (i * 37) % 500,
      });
      const result = run([segment], c, c.timeZone, 'day');
      const expected = [0, 1, 2].map(
        (d) =>
          ((registerAt(segment, c.midnights[d + 1] ?? 0) - registerAt(segment, c.midnights[d] ?? 0)) * 3) /
          1000,
      );
      expect(result.series.consumption).toEqual(expected);
      // Each day's register is the one at its end, so register + next day's consumption = next register.
      expect(result.series.value).toEqual(
        [0, 1, 2].map((d) => registerAt(segment, c.midnights[d + 1] ?? 0) / 1000),
      );
    });
  }

  it('shows the repeated fall-back hour as two hour buckets', () => {
    const start = Date.UTC(2026, 10, 1, 4);
    const segment = regularSegment({ startMs: start, count: 25 * 4 + 1 });
    const result = run([segment], { From: '2026-11-01', To: '2026-11-01' }, 'America/New_York', 'hour');
    expect(result.series.t).toHaveLength(25);
    expect(result.series.t[1]).toBe(Date.UTC(2026, 10, 1, 5)); // 01:00 EDT
    expect(result.series.t[2]).toBe(Date.UTC(2026, 10, 1, 6)); // 01:00 EST
    expect(new Set(result.series.consumption)).toEqual(new Set([0.4]));
  });
});

describe('register rollover', () => {
  it('counts a wrap of a 6-digit register as consumption and reports it', () => {
    const segment = regularSegment({
      startMs: Date.UTC(2026, 5, 1),
      count: 5,
      startMilli: 999_999_500,
      energyOf: () => 200,
      multiplier: 10,
    });
    const result = run([segment], { From: '2026-06-01', To: '2026-06-01' }, 'UTC', 'raw');
    expect(result.series.value).toEqual([999_999.5, 999_999.7, 999_999.9, 0.1, 0.3]);
    expect(result.series.consumption).toEqual([null, 2, 2, 2, 2]);
    expect(result.totals).toMatchObject({
      consumption: 8,
      registerStart: 999_999.5,
      registerEnd: 0.3,
      registerDifference: 8,
      intervalSum: 8,
      gapConsumption: 0,
      agrees: true,
    });
    expect(result.events).toEqual([
      {
        type: 'rollover',
        channel: 'import',
        at: '2026-06-01T00:45:00.000Z',
        meterNumber: 'M-1',
        detail: expect.stringContaining('rolled over'),
      },
    ]);
  });
  it('tells a rollover (fall of more than half the register) from a decrease', () => {
    const t = [0, 1, 2, 3].map((i) => Date.UTC(2026, 5, 1) + i * 15 * MIN);
    // A 3-digit register wraps at 1000: 900 → 100 is a wrap (+200), 500 → 100 is a decrease.
    const segment: MeterSegment = {
      meterNumber: 'M-3',
      multiplier: 2,
      registerDigits: 3,
      intervalMs: 15 * MIN,
      registers: registers(t, [900_000, 100_000, 500_000, 100_000]),
      intervals: NO_INTERVALS,
    };
    const result = run([segment], { From: '2026-06-01', To: '2026-06-01' }, 'UTC', 'raw', { nowMs: t[3] });
    expect(result.series.consumption).toEqual([null, 400, 800, null]);
    expect(result.events.map((e) => e.type)).toEqual(['rollover', 'registerDecrease']);
  });
});

describe('meter exchange', () => {
  const oldMeter = regularSegment({
    meterNumber: 'OLD-1',
    startMs: Date.UTC(2026, 5, 1),
    count: 49,
    startMilli: 5_000_000,
    energyOf: () => 250,
  });

  it('keeps consumption continuous across an exchange at the same instant', () => {
    const newMeter = regularSegment({
      meterNumber: 'NEW-2',
      startMs: Date.UTC(2026, 5, 1, 12),
      count: 49,
      energyOf: () => 250,
    });
    const raw = run([oldMeter, newMeter], { From: '2026-06-01', To: '2026-06-01' }, 'UTC', 'raw');
    expect(raw.series.t).toHaveLength(97);
    const at = raw.series.t.indexOf(Date.UTC(2026, 5, 1, 12));
    // The shared point ends the old meter's last interval and keeps its register; the new meter
    // starts from 0 there (in the event), which the next point's consumption counts from.
    expect(raw.series.value[at]).toBe(5012);
    expect(raw.series.value[at + 1]).toBe(0.25);
    expect(raw.series.consumption[at]).toBe(0.25);
    expect(raw.series.consumption[at + 1]).toBe(0.25);
    // Only the old meter's first reading starts no span; every other starts at the point before.
    expect(raw.series.spanStarts).toEqual({ index: [0], from: [null] });
    expect(raw.totals).toMatchObject({
      consumption: 24,
      registerStart: 5000,
      registerEnd: 12,
      intervalSum: 24,
      agrees: true,
      readings: 98,
    });
    expect(raw.gaps).toEqual([]);
    expect(raw.events).toHaveLength(1);
    expect(raw.events[0]).toMatchObject({
      type: 'meterExchange',
      at: '2026-06-01T12:00:00.000Z',
      meterNumber: 'NEW-2',
    });
    expect(raw.events[0]?.detail).toMatch(/OLD-1.*5012.*NEW-2.*\b0\b/);

    const day = run([oldMeter, newMeter], { From: '2026-06-01', To: '2026-06-01' }, 'UTC', 'day');
    expect(day.series.consumption).toEqual([24]);
    expect(day.series.value).toEqual([12]);
  });

  it('reports the time between the old meter and a later new meter as a gap of unknown energy', () => {
    const newMeter = regularSegment({
      meterNumber: 'NEW-2',
      startMs: Date.UTC(2026, 5, 1, 13),
      count: 45,
      energyOf: () => 250,
    });
    const result = run([oldMeter, newMeter], { From: '2026-06-01', To: '2026-06-01' }, 'UTC', 'raw');
    expect(result.gaps).toEqual([
      {
        channel: 'import',
        from: '2026-06-01T12:00:00.000Z',
        to: '2026-06-01T13:00:00.000Z',
        missingIntervals: 4,
        consumption: null,
        bucket: null,
      },
    ]);
    const at = result.series.t.indexOf(Date.UTC(2026, 5, 1, 13));
    expect(result.series.consumption[at]).toBeNull();
    expect(result.series.missing[at]).toBe(4);
    // The new meter's first reading starts no span of its own.
    expect(result.series.spanStarts).toEqual({ index: [0, at], from: [null, null] });
    expect(result.totals).toMatchObject({
      consumption: 23,
      intervalSum: 23,
      gapConsumption: 0,
      agrees: true,
      missingIntervals: 4,
    });
  });
});

describe('gaps', () => {
  // Readings at 02:15, 02:30 and 02:45 are missing; the register still tells the energy across.
  const segment = regularSegment({
    startMs: Date.UTC(2026, 5, 1),
    count: 97,
    skip: (i) => i >= 9 && i <= 11,
  });

  it('reports a gap with its energy and never shows it as an interval', () => {
    const raw = run([segment], { From: '2026-06-01', To: '2026-06-01' }, 'UTC', 'raw');
    expect(raw.gaps).toEqual([
      {
        channel: 'import',
        from: '2026-06-01T02:00:00.000Z',
        to: '2026-06-01T03:00:00.000Z',
        missingIntervals: 3,
        consumption: 0.4,
        bucket: null,
      },
    ]);
    const at = raw.series.t.indexOf(Date.UTC(2026, 5, 1, 3));
    expect(raw.series.consumption[at]).toBeNull();
    expect(raw.series.missing[at]).toBe(3);
    expect(raw.series.missing.reduce((a, b) => a + b, 0)).toBe(3);
    expect(raw.totals).toMatchObject({
      consumption: 9.6,
      intervalSum: 9.2,
      gapConsumption: 0.4,
      agrees: true,
      missingIntervals: 3,
      readings: 94,
    });
  });

  it('takes one missing reading as a gap and jitter below 1.5 intervals as none', () => {
    const t = [0, 15, 45, 66, 81].map((m) => Date.UTC(2026, 5, 1) + m * MIN);
    const jittery: MeterSegment = {
      meterNumber: 'M-1',
      multiplier: 1,
      registerDigits: 6,
      intervalMs: 15 * MIN,
      registers: registers(t, [0, 100, 300, 440, 540]),
      intervals: NO_INTERVALS,
    };
    const result = run([jittery], { From: '2026-06-01', To: '2026-06-01' }, 'UTC', 'raw', { nowMs: t[4] });
    expect(result.series.consumption).toEqual([null, 0.1, null, 0.14, 0.1]);
    expect(result.series.missing).toEqual([0, 0, 1, 0, 0]);
    expect(result.gaps).toEqual([
      {
        channel: 'import',
        from: '2026-06-01T00:15:00.000Z',
        to: '2026-06-01T00:45:00.000Z',
        missingIntervals: 1,
        consumption: 0.2,
        bucket: null,
      },
    ]);
  });

  it('counts a gap’s energy in the bucket it lies inside', () => {
    const hour = run([segment], { From: '2026-06-01', To: '2026-06-01' }, 'UTC', 'hour');
    expect(hour.series.consumption.slice(1, 5)).toEqual([0.4, 0.4, 0.4, 0.4]);
    expect(hour.series.missing.slice(1, 5)).toEqual([0, 3, 0, 0]);
    expect(hour.gaps.map((gap) => gap.bucket)).toEqual(['2026-06-01T02:00:00.000Z']);
    expect(hour.series.consumption.reduce<number>((a, b) => a + (b ?? 0) * 1000, 0)).toBe(9600);
  });

  it('puts a gap across bucket edges in no bucket, so it never draws a spike', () => {
    // 02:45 … 04:15 without readings: how its 0.6 kWh splits between 02, 03 and 04 h is unknown.
    const across = regularSegment({
      startMs: Date.UTC(2026, 5, 1),
      count: 97,
      skip: (i) => i >= 12 && i <= 16,
    });
    const hour = run([across], { From: '2026-06-01', To: '2026-06-01' }, 'UTC', 'hour');
    expect(hour.gaps).toEqual([
      {
        channel: 'import',
        from: '2026-06-01T02:45:00.000Z',
        to: '2026-06-01T04:15:00.000Z',
        missingIntervals: 5,
        consumption: 0.6,
        // Across the edges of 03:00 and 04:00: no hour holds it.
        bucket: null,
      },
    ]);
    expect(hour.series.consumption.slice(1, 6)).toEqual([0.4, 0.3, null, 0.3, 0.4]);
    // The missing readings 03:00 … 04:00 close the intervals starting 02:45 … 03:45: one in the
    // 02 h, four in the 03 h (the 04:15 reading closes 04:00–04:15, which is not missing).
    expect(hour.series.missing.slice(1, 6)).toEqual([0, 1, 4, 0, 0]);
    expect(hour.totals).toMatchObject({ consumption: 9.6, gapConsumption: 0.6, agrees: true });
    expect(hour.series.consumption.reduce<number>((a, b) => a + (b ?? 0) * 1000, 0)).toBe(9600 - 600);
    // The day holds the whole gap: both its ends are inside it.
    const day = run([across], { From: '2026-06-01', To: '2026-06-01' }, 'UTC', 'day');
    expect(day.series.consumption).toEqual([9.6]);
    expect(day.gaps.map((gap) => gap.bucket)).toEqual(['2026-06-01T00:00:00.000Z']);
  });

  it('flags the hour and the day a gap cuts, with the intervals missing in each (issue 34.15)', () => {
    // The demo's HVAC meter, Berlin 2026-09-09 (00:00 local = 2026-09-08T22:00Z): the readings
    // 09:00 … 14:45 local are missing (indices 36 … 59). The 08:45 reading is the last before the
    // gap, so the interval 08:45–09:00 is unknown: the 08 h has 1 missing and 3 known intervals
    // (0.3 kWh), the 09 … 13 h have 4 missing each, the 14 h has 3 (14:00, 14:15, 14:30), 24 in all.
    const seg = regularSegment({
      startMs: Date.UTC(2026, 8, 8, 22),
      count: 97,
      skip: (i) => i >= 36 && i <= 59,
    });
    const range = { From: '2026-09-09', To: '2026-09-09' };
    const hour = run([seg], range, 'Europe/Berlin', 'hour');
    expect(hour.series.missing.slice(7, 16)).toEqual([0, 1, 4, 4, 4, 4, 4, 3, 0]);
    expect(hour.series.consumption[8]).toBe(0.3);
    // The day holds the whole gap: its 24 missing intervals are said on its row.
    const day = run([seg], range, 'Europe/Berlin', 'day');
    expect(day.series.missing).toEqual([24]);
  });

  it('reports data that starts late or stops early, but not the future', () => {
    const partial = regularSegment({ startMs: Date.UTC(2026, 5, 1, 1), count: 77 }); // 01:00 … 20:00
    const range = { From: '2026-06-01', To: '2026-06-01' };
    const result = run([partial], range, 'UTC', 'hour');
    expect(result.gaps).toEqual([
      {
        channel: 'import',
        from: '2026-06-01T00:00:00.000Z',
        to: '2026-06-01T01:00:00.000Z',
        missingIntervals: 4,
        consumption: null,
        // Inside the hour 00:00–01:00, which counts its missing intervals (its energy is unknown).
        bucket: '2026-06-01T00:00:00.000Z',
      },
      {
        channel: 'import',
        from: '2026-06-01T20:00:00.000Z',
        to: '2026-06-02T00:00:00.000Z',
        missingIntervals: 16,
        consumption: null,
        bucket: null,
      },
    ]);
    expect(result.totals.missingIntervals).toBe(20);
    expect(result.series.missing).toEqual([4, ...Array<number>(19).fill(0), 4, 4, 4, 4]);
    expect(result.series.consumption[0]).toBeNull();
    expect(result.series.consumption[20]).toBeNull();

    // At 22:00 the reading that closes 21:45–22:00 is due this very minute: late at worst, not
    // missing; the seven before it are missing.
    const now = run([partial], range, 'UTC', 'hour', { nowMs: Date.UTC(2026, 5, 1, 22) });
    expect(now.totals.missingIntervals).toBe(11);
    expect(now.gaps[1]).toMatchObject({ to: '2026-06-01T21:45:00.000Z', missingIntervals: 7 });
  });

  it('tells late from missing: the reading of the last interval before now is not missing yet', () => {
    // Issue 17.3: a 15-minute meter read last at 20:00. At 20:10 the 20:15 reading is not due; at
    // 20:20 it is five minutes late, not missing; at 20:31 it is overdue by a whole interval.
    const partial = regularSegment({ startMs: Date.UTC(2026, 5, 1), count: 81 }); // 00:00 … 20:00
    const range = { From: '2026-06-01', To: '2026-06-01' };
    const at = (hour: number, minute: number) =>
      run([partial], range, 'UTC', 'hour', { nowMs: Date.UTC(2026, 5, 1, hour, minute) });
    expect(at(20, 10).totals.missingIntervals).toBe(0);
    expect(at(20, 20).totals.missingIntervals).toBe(0);
    expect(at(20, 20).gaps).toEqual([]);
    expect(at(20, 31).totals.missingIntervals).toBe(1);
    expect(at(20, 31).gaps).toMatchObject([
      { from: '2026-06-01T20:00:00.000Z', to: '2026-06-01T20:15:00.000Z', missingIntervals: 1 },
    ]);
  });

  it('counts a register gap at a local midnight in the days its missing intervals lie in, as interval records count it', () => {
    // Europe/Berlin, 15-minute registers from 2026-03-27 22:00Z; 2026-03-29 is the 23-hour day
    // (local midnights 2026-03-27T23:00Z, 03-28T23:00Z, 03-29T22:00Z, 03-30T22:00Z). A register at
    // t closes the interval [t − 15 min, t), so a missing reading at t is a missing interval there.
    const startMs = Date.UTC(2026, 2, 27, 22);
    const at = (iso: string) => (Date.parse(iso) - startMs) / (15 * MIN);
    // Gap A: readings 23:00Z … 23:45Z on Mar 28 missing, so intervals 22:45Z … 23:45Z: the first is
    // 23:45–24:00 local on Mar 28, the other three on Mar 29. Gap B: readings 21:15Z … 22:00Z on
    // Mar 29 missing: intervals 21:00Z … 22:00Z, the last four of Mar 29 (22:00Z is Mar 30 00:00).
    const gapA = [at('2026-03-28T23:00:00Z'), at('2026-03-28T23:45:00Z')];
    const gapB = [at('2026-03-29T21:15:00Z'), at('2026-03-29T22:00:00Z')];
    const inGap = (i: number) => (i >= gapA[0]! && i <= gapA[1]!) || (i >= gapB[0]! && i <= gapB[1]!);
    const registerMeter = regularSegment({ startMs, count: 4 * 24 * 4, skip: inGap });
    // The same data as interval records: each reading after its predecessor closes its interval.
    const t = Array.from(registerMeter.registers.t).slice(1);
    const intervalMeter = intervalSegment(
      t.map((end) => [end - 15 * MIN, end, 100_000] as const),
      { intervalMinutes: 15 },
    );
    const range = { From: '2026-03-28', To: '2026-03-30' };
    // By hand: Mar 28 one (gap A's first), Mar 29 three + four = 7, Mar 30 none.
    expect(run([intervalMeter], range, 'Europe/Berlin', 'day').series.missing).toEqual([1, 7, 0]);
    expect(run([registerMeter], range, 'Europe/Berlin', 'day').series.missing).toEqual([1, 7, 0]);
    expect(run([registerMeter], range, 'Europe/Berlin', 'hour').totals.missingIntervals).toBe(8);
  });

  it('answers a range without readings with unknown totals', () => {
    const empty = regularSegment({ startMs: Date.UTC(2026, 5, 1), count: 0 });
    const result = run([empty], { From: '2026-06-01', To: '2026-06-01' }, 'UTC', 'day');
    expect(result.series).toMatchObject({ consumption: [null], value: [null], missing: [96] });
    expect(result.totals).toMatchObject({
      consumption: null,
      registerStart: null,
      registerDifference: null,
      averagePerDay: null,
      peak: null,
      readings: 0,
      missingIntervals: 96,
    });
  });
});

describe('estimated readings and decreases', () => {
  it('counts estimated readings and reports each run once', () => {
    const segment = regularSegment({
      startMs: Date.UTC(2026, 5, 1),
      count: 97,
      estimated: (i) => i === 3 || i === 4 || i === 10,
    });
    const day = run([segment], { From: '2026-06-01', To: '2026-06-01' }, 'UTC', 'day');
    expect(day.series.estimated).toEqual([3]);
    expect(day.events.map((e) => [e.type, e.at])).toEqual([
      ['estimated', '2026-06-01T00:45:00.000Z'],
      ['estimated', '2026-06-01T02:30:00.000Z'],
    ]);
    const raw = run([segment], { From: '2026-06-01', To: '2026-06-01' }, 'UTC', 'raw');
    expect(raw.series.estimated.slice(0, 6)).toEqual([0, 0, 0, 1, 1, 0]);
  });

  it('makes an interval with a falling register unknown and says the totals disagree', () => {
    const t = [0, 1, 2, 3, 4].map((i) => Date.UTC(2026, 5, 1) + i * 15 * MIN);
    const segment: MeterSegment = {
      meterNumber: 'M-1',
      multiplier: 1,
      registerDigits: 6,
      intervalMs: 15 * MIN,
      registers: registers(t, [1_000_000, 1_000_100, 999_600, 999_700, 999_800]),
      intervals: NO_INTERVALS,
    };
    const result = run([segment], { From: '2026-06-01', To: '2026-06-01' }, 'UTC', 'raw', { nowMs: t[4] });
    expect(result.series.consumption).toEqual([null, 0.1, null, 0.1, 0.1]);
    expect(result.totals).toMatchObject({
      registerDifference: -0.2,
      intervalSum: 0.3,
      gapConsumption: 0,
      agrees: false,
    });
    expect(result.events).toMatchObject([{ type: 'registerDecrease', at: '2026-06-01T00:30:00.000Z' }]);
  });
});

describe('totals', () => {
  it('finds the peak interval and the average per local day', () => {
    const segment = regularSegment({
      startMs: Date.UTC(2026, 2, 27, 23),
      count: 285,
      energyOf: (i) => (i === 50 ? 900 : 100),
    });
    const result = run([segment], { From: '2026-03-28', To: '2026-03-30' }, 'Europe/Berlin', 'day');
    expect(result.totals.peak).toEqual({
      consumption: 0.9,
      at: new Date(Date.UTC(2026, 2, 27, 23) + 50 * 15 * MIN).toISOString(),
    });
    expect(result.totals.consumption).toBe(29.2);
    // Three local days, one of them 23 hours long.
    expect(result.totals.averagePerDay).toBe(9.733333); // 29.2 / 3, to the millionth
  });

  it('averages over the part of the range that has data, once a whole day has data', () => {
    // 0.1 kWh a quarter hour until noon on June 2: 14.4 kWh over a day and a half.
    const segment = regularSegment({ startMs: Date.UTC(2026, 5, 1), count: 145 });
    const result = run([segment], { From: '2026-06-01', To: '2026-06-03' }, 'UTC', 'day');
    expect(result.totals.averagePerDay).toBe(9.6);
    // Until noon on June 1: half a day is not scaled to a whole one.
    const morning = regularSegment({ startMs: Date.UTC(2026, 5, 1), count: 49 });
    expect(
      run([morning], { From: '2026-06-01', To: '2026-06-02' }, 'UTC', 'day').totals.averagePerDay,
    ).toBeNull();
  });
});

describe('maxPoints', () => {
  it('downsamples raw points, keeping the extremes and the order', () => {
    const segment = regularSegment({
      startMs: Date.UTC(2026, 5, 1),
      count: 961,
      energyOf: (i) => (i === 500 ? 5000 : i === 700 ? 0 : 100 + (i % 13)),
    });
    const result = run([segment], { From: '2026-06-01', To: '2026-06-10' }, 'UTC', 'raw', { maxPoints: 40 });
    expect(result.downsampled).toBe(true);
    expect(result.series.t.length).toBeLessThanOrEqual(40);
    expect(result.series.consumption).toContain(5);
    expect(result.series.consumption).toContain(0);
    expect(result.series.t.every((t, i) => i === 0 || t > (result.series.t[i - 1] ?? Infinity))).toBe(true);

    const full = run([segment], { From: '2026-06-01', To: '2026-06-10' }, 'UTC', 'raw', { maxPoints: 1000 });
    expect(full.downsampled).toBe(false);
    expect(full.series.t).toHaveLength(961);
  });

  it('ignores maxPoints for buckets', () => {
    const segment = regularSegment({ startMs: Date.UTC(2026, 5, 1), count: 961 });
    const result = run([segment], { From: '2026-06-01', To: '2026-06-30' }, 'UTC', 'hour', { maxPoints: 10 });
    expect(result.downsampled).toBe(false);
    expect(result.series.t).toHaveLength(30 * 24);
    expect(result.series.hours?.every((h) => h === 1)).toBe(true);
    expect(result.series.t[1]).toBe(Date.UTC(2026, 5, 1) + HOUR);
  });
});
