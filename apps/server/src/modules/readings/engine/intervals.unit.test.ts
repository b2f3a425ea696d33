import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketEdges } from '../zoned-time.ts';
import { StepFlag } from './steps.ts';
import { intervalSegment, registers, run, runRange } from './test-segments.ts';

// Interval readings kept as the source said them (issue 15): energies of [start, end), exact to the
// millionth, a missing record's energy unknown, import and export channels, billing periods.

const HALF_HOUR = 30 * 60_000;
const DAY = 24 * 3_600_000;
/** Half-hour records from `from`, `count` of them, energy(i) in millionths, skipping `skip(i)`. */
function halfHours(
  from: number,
  count: number,
  energy: (i: number) => number,
  skip: (i: number) => boolean = () => false,
) {
  const records: Array<[number, number, number]> = [];
  for (let i = 0; i < count; i++)
    if (!skip(i)) records.push([from + i * HALF_HOUR, from + (i + 1) * HALF_HOUR, energy(i)]);
  return records;
}

describe('interval records', () => {
  it('sum exactly, at 0.1 Wh', () => {
    // 48 half hours of 0.2547 kWh (ESB gives four decimals): 12.2256 kWh, not a float's 12.225599….
    const segment = intervalSegment(halfHours(Date.UTC(2024, 4, 1), 48, () => 254_700));
    const day = run([segment], { From: '2024-05-01', To: '2024-05-01' }, 'UTC', 'day');
    expect(day.series.consumption).toEqual([12.2256]);
    expect(day.totals).toMatchObject({
      consumption: 12.2256,
      intervalSum: 12.2256,
      missingIntervals: 0,
      agrees: true,
    });
    const raw = run([segment], { From: '2024-05-01', To: '2024-05-01' }, 'UTC', 'raw');
    expect(raw.series.consumption).toEqual(Array<number>(48).fill(0.2547));
    // Contiguous records: only the first point's span start is sent.
    expect(raw.series.spanStarts).toEqual({ index: [0], from: [Date.UTC(2024, 4, 1)] });
    expect(raw.series.t[0]).toBe(Date.UTC(2024, 4, 1) + HALF_HOUR);
  });

  it('leave a missing record’s energy unknown and the next record in its own day', () => {
    // 2013-04-06 (London, BST): records 20 … 23 missing; the first after the hole stays itself.
    const from = Date.UTC(2013, 3, 5, 23);
    const segment = intervalSegment(
      halfHours(
        from,
        96,
        (i) => 100_000 + i,
        (i) => i >= 20 && i <= 23,
      ),
    );
    const days = run([segment], { From: '2013-04-06', To: '2013-04-07' }, 'Europe/London', 'day');
    let first = 0;
    for (let i = 0; i < 48; i++) if (i < 20 || i > 23) first += 100_000 + i;
    let second = 0;
    for (let i = 48; i < 96; i++) second += 100_000 + i;
    expect(days.series.consumption).toEqual([first / 1e6, second / 1e6]);
    expect(days.series.missing).toEqual([4, 0]);
    expect(days.gaps).toEqual([
      {
        channel: 'import',
        from: new Date(from + 20 * HALF_HOUR).toISOString(),
        to: new Date(from + 24 * HALF_HOUR).toISOString(),
        missingIntervals: 4,
        consumption: null,
        // Inside 6 April, whose row counts its missing records.
        bucket: new Date(from).toISOString(),
      },
    ]);
    expect(days.totals).toMatchObject({ consumption: (first + second) / 1e6, missingIntervals: 4 });
    // Raw: the record after the hole starts its own span, not at the previous point's end.
    const raw = run([segment], { From: '2013-04-06', To: '2013-04-07' }, 'Europe/London', 'raw');
    expect(raw.series.spanStarts).toEqual({ index: [0, 20], from: [from, from + 24 * HALF_HOUR] });
    expect(raw.series.t[19]).toBe(from + 20 * HALF_HOUR);
  });

  it('count missing records in the day each one starts in', () => {
    // Missing: 23:00 and 23:30 on the 22nd, 00:00 on the 23rd (a hole across midnight).
    const from = Date.UTC(2024, 4, 22);
    const segment = intervalSegment(
      halfHours(
        from,
        96,
        () => 1_000,
        (i) => i >= 46 && i <= 48,
      ),
    );
    const days = run([segment], { From: '2024-05-22', To: '2024-05-23' }, 'UTC', 'day');
    expect(days.series.missing).toEqual([2, 1]);
    expect(days.series.consumption).toEqual([0.046, 0.047]);
  });

  it('are judged by their own cadence, not by the interval the meter was set up with', () => {
    // A meter left at the 15-minute default that receives ESB's half-hour records: each record is
    // one interval (not a "period"), the peak is a half hour, a missing record is one missing.
    const from = Date.UTC(2024, 5, 14);
    const segment = intervalSegment(
      halfHours(
        from,
        48,
        (i) => (i === 37 ? 900_000 : 100_000),
        (i) => i === 10,
      ),
      { intervalMinutes: 15 },
    );
    const hours = run([segment], { From: '2024-06-14', To: '2024-06-14' }, 'UTC', 'hour');
    expect(hours.periods).toEqual([]);
    expect(hours.totals.peak).toEqual({
      consumption: 0.9,
      at: new Date(from + 38 * HALF_HOUR).toISOString(),
    });
    expect(hours.totals.missingIntervals).toBe(1);
    expect(hours.series.consumption[5]).toBe(0.1);
    const day = run([segment], { From: '2024-06-14', To: '2024-06-14' }, 'UTC', 'day');
    // 46 records of 0.1 kWh and one of 0.9 kWh.
    expect(day.series.consumption).toEqual([5.5]);
    expect(day.series.missing).toEqual([1]);
  });

  it('show billing periods across bucket edges as periods, and inside a bucket in it', () => {
    // Monthly bills from the 17th: in month view each spans two months, so it is in no month.
    const bills: Array<[number, number, number]> = [
      [Date.UTC(2025, 0, 17), Date.UTC(2025, 1, 17), 412_345_600],
      [Date.UTC(2025, 1, 17), Date.UTC(2025, 2, 17), 398_000_000],
    ];
    const segment = intervalSegment(bills, { intervalMinutes: 30 * 24 * 60 });
    const months = run([segment], { From: '2025-01-01', To: '2025-03-31' }, 'UTC', 'month');
    expect(months.series.consumption).toEqual([null, null, null]);
    expect(months.periods).toEqual([
      {
        channel: 'import',
        from: '2025-01-17T00:00:00.000Z',
        to: '2025-02-17T00:00:00.000Z',
        consumption: 412.3456,
        quality: 'actual',
      },
      {
        channel: 'import',
        from: '2025-02-17T00:00:00.000Z',
        to: '2025-03-17T00:00:00.000Z',
        consumption: 398,
        quality: 'actual',
      },
    ]);
    expect(months.totals.consumption).toBe(810.3456);
    // 1 to 17 January: nothing known before the first bill.
    expect(months.totals.missingIntervals).toBe(1);
    // Before the first bill, 1 to 17 January, nothing is known: one period (of about 30 days) missing.
    const year = run([segment], { From: '2025-01-01', To: '2025-12-31' }, 'UTC', 'month', {
      nowMs: Date.UTC(2025, 2, 17),
    });
    expect(year.series.missing).toEqual([1, ...Array<number>(11).fill(0)]);
    expect(year.gaps).toMatchObject([{ from: '2025-01-01T00:00:00.000Z', to: '2025-01-17T00:00:00.000Z' }]);
    const calendar = intervalSegment(
      [
        [Date.UTC(2025, 0, 1), Date.UTC(2025, 1, 1), 300_000_000],
        [Date.UTC(2025, 1, 1), Date.UTC(2025, 2, 1), 280_000_000],
      ],
      { intervalMinutes: 30 * 24 * 60 },
    );
    const aligned = run([calendar], { From: '2025-01-01', To: '2025-02-28' }, 'UTC', 'month');
    expect(aligned.series.consumption).toEqual([300, 280]);
    expect(aligned.periods).toEqual([]);
  });

  it('carry their quality: estimated and substituted counts, the estimated share, corrections', () => {
    const records = halfHours(Date.UTC(2024, 4, 1), 4, () => 500_000).map(
      ([s, e, v], i) => [s, e, v, i === 1 ? 1 : i === 2 ? 2 : 0] as const,
    );
    const segment = intervalSegment(records);
    const revised = { ...segment, intervals: { ...segment.intervals, revised: [0, 0, 0, 1] } };
    const raw = runRange([revised], Date.UTC(2024, 4, 1), Date.UTC(2024, 4, 1, 2), 'UTC', 'raw');
    expect(raw.series.estimated).toEqual([0, 1, 0, 0]);
    expect(raw.series.substituted).toEqual([0, 0, 1, 0]);
    expect(raw.series.corrected).toEqual([0, 0, 0, 1]);
    expect(raw.totals.estimatedConsumption).toBe(1);
    expect(raw.events.map((e) => e.type)).toEqual(['estimated', 'substituted', 'corrected']);
    expect(StepFlag.corrected).toBe(4);
  });

  it('are checked against a register beside them: the disagreement in energy', () => {
    const segment = intervalSegment(halfHours(Date.UTC(2024, 4, 1), 4, () => 250_000));
    const t = [0, 4].map((i) => Date.UTC(2024, 4, 1) + i * HALF_HOUR);
    const agreeing = { ...segment, registers: registers(t, [10_000, 11_000]) };
    const day = runRange([agreeing], Date.UTC(2024, 4, 1), Date.UTC(2024, 4, 1, 2), 'UTC', 'hour');
    expect(day.totals).toMatchObject({
      consumption: 1,
      registerDifference: 1,
      agrees: true,
      disagreement: 0,
    });
    expect(day.series.value).toEqual([null, 11]);
    const off = { ...segment, registers: registers(t, [10_000, 11_300]) };
    const result = runRange([off], Date.UTC(2024, 4, 1), Date.UTC(2024, 4, 1, 2), 'UTC', 'hour');
    expect(result.totals).toMatchObject({
      consumption: 1,
      registerDifference: 1.3,
      agrees: false,
      disagreement: 0.3,
    });
  });
});

describe('channels', () => {
  it('answer import and export on the same points, and net between them', () => {
    const from = Date.UTC(2024, 5, 1);
    const imported = intervalSegment(halfHours(from, 48, (i) => (i < 12 ? 400_000 : 100_000)));
    const exported = intervalSegment(halfHours(from, 48, (i) => (i >= 20 && i < 32 ? 600_000 : 0)));
    const day = run(
      { import: [imported], export: [exported] },
      { From: '2024-06-01', To: '2024-06-01' },
      'UTC',
      'day',
    );
    expect(day.channel).toBe('import');
    expect(day.channels).toEqual(['import', 'export']);
    expect(day.series.consumption).toEqual([8.4]);
    expect(day.series.other?.consumption).toEqual([7.2]);
    expect(day.series.net).toEqual([1.2]);
    expect(day.totals).toMatchObject({
      consumption: 8.4,
      other: { consumption: 7.2 },
      net: { consumption: 1.2 },
    });
    const exportFirst = run(
      { import: [imported], export: [exported] },
      { From: '2024-06-01', To: '2024-06-01' },
      'UTC',
      'day',
      {
        primary: 'export',
      },
    );
    expect(exportFirst.series.consumption).toEqual([7.2]);
    expect(exportFirst.series.net).toEqual([1.2]);
    const raw = run(
      { import: [imported], export: [exported] },
      { From: '2024-06-01', To: '2024-06-01' },
      'UTC',
      'raw',
    );
    expect(raw.series.t).toHaveLength(48);
    expect(raw.series.net?.[20]).toBe(-0.5);
  });

  it('align raw points of channels read at different instants', () => {
    const from = Date.UTC(2024, 5, 1);
    const imported = intervalSegment(halfHours(from, 2, () => 1_000_000));
    const exported = intervalSegment(
      [
        [from, from + 15 * 60_000, 1_000],
        [from + 15 * 60_000, from + HALF_HOUR, 2_000],
      ],
      { intervalMinutes: 15 },
    );
    const raw = runRange(
      { import: [imported], export: [exported] },
      from,
      from + 2 * HALF_HOUR,
      'UTC',
      'raw',
    );
    expect(raw.series.t).toEqual([from + 15 * 60_000, from + HALF_HOUR, from + 2 * HALF_HOUR]);
    expect(raw.series.consumption).toEqual([null, 1, 1]);
    expect(raw.series.other?.consumption).toEqual([0.001, 0.002, null]);
  });
});

describe('interval properties', () => {
  it('per local day: the sum of the known records that start in it, and the records missing in it', () => {
    fc.assert(
      fc.property(
        fc.record({
          zone: fc.constantFrom(
            'Europe/London',
            'Europe/Dublin',
            'America/New_York',
            'Australia/Lord_Howe',
            'Asia/Kolkata',
            'UTC',
          ),
          day: fc.integer({ min: 0, max: 700 }),
          minutes: fc.constantFrom(15, 30, 60),
          records: fc.array(
            fc.record({
              isMissing: fc.oneof(
                { weight: 6, arbitrary: fc.constant(false) },
                { weight: 1, arbitrary: fc.constant(true) },
              ),
              micro: fc.integer({ min: 0, max: 5_000_000 }),
            }),
            { minLength: 1, maxLength: 500 },
          ),
        }),
        ({ zone, day, minutes, records }) => {
          const step = minutes * 60_000;
          // Records aligned to the zone's local day start (local midnight, via the day edges).
          const edges0 = bucketEdges(
            Date.UTC(2023, 2, 1) + day * DAY,
            Date.UTC(2023, 2, 1) + day * DAY + 1,
            'day',
            zone,
          );
          const from = edges0[0] ?? 0;
          const kept: Array<[number, number, number]> = [];
          records.forEach((r, i) => {
            if (!r.isMissing) kept.push([from + i * step, from + (i + 1) * step, r.micro]);
          });
          const to = from + records.length * step;
          const result = runRange(
            [intervalSegment(kept, { intervalMinutes: minutes })],
            from,
            to,
            zone,
            'day',
          );
          const edges = bucketEdges(from, to, 'day', zone);
          const bucketOf = (ms: number) => edges.findLastIndex((e) => e <= ms);
          const sums = result.series.t.map(() => 0);
          const known = result.series.t.map(() => 0);
          const missing = result.series.t.map(() => 0);
          records.forEach((r, i) => {
            const k = bucketOf(from + i * step);
            if (r.isMissing) missing[k] = (missing[k] ?? 0) + 1;
            else {
              sums[k] = (sums[k] ?? 0) + r.micro;
              known[k] = 1;
            }
          });
          expect(result.series.consumption.map((v) => (v === null ? null : Math.round(v * 1e6)))).toEqual(
            sums.map((s, k) => (known[k] ? s : null)),
          );
          expect(result.series.missing).toEqual(missing);
          expect(Math.round((result.totals.consumption ?? 0) * 1e6)).toBe(sums.reduce((a, b) => a + b, 0));
        },
      ),
      { numRuns: 300 },
    );
  });
});
