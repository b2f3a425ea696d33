import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOfLocal } from '@cm/contracts/zoned-time.ts';
import { createTestApp, type TestApp, signInNewAdmin } from '../../test/test-app.ts';
import { expectRoundTrip, type ChannelData } from './round-trip.ts';

// Issue 32, "Round trip": what CM exports (CSV and ESPI), imported again into the same meter,
// reports every reading unchanged; imported into a new meter, gives the same daily totals per
// channel. Register meters, interval meters, both kinds, two channels, gaps, estimated and
// substituted values, DST days; and as a property: for random channels, kinds, gaps, qualities,
// zones and days (DST days among them), export → import = unchanged.

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signInNewAdmin(t);
});
afterAll(() => t.close());

const HOUR = 3_600_000;
const QUARTER = 15 * 60_000;

/** Every `stepMs` from `fromMs` to `toMs` inclusive, less the instants `skip` says are missing. */
const instants = (fromMs: number, toMs: number, stepMs: number, skip: (i: number) => boolean) =>
  Array.from({ length: Math.floor((toMs - fromMs) / stepMs) + 1 }, (_, i) => i)
    .filter((i) => !skip(i))
    .map((i) => ({ i, at: fromMs + i * stepMs }));

/** Registers rising `stepWh` per step (Wh), quality by step number. */
function registers(
  fromMs: number,
  toMs: number,
  stepMs: number,
  stepWh: (i: number) => number,
  skip: (i: number) => boolean,
  quality: (i: number) => number,
): ChannelData['registers'] {
  let wh = 12_345_000;
  const all = Array.from({ length: Math.floor((toMs - fromMs) / stepMs) + 1 }, (_, i) => {
    if (i > 0) wh += stepWh(i);
    return [fromMs + i * stepMs, wh, quality(i)] as const;
  });
  return all.filter((_, i) => !skip(i));
}

/** Interval records [start, start + stepMs) from `fromMs` up to `toMs` (end exclusive), energy in mWh. */
function intervals(
  fromMs: number,
  toMs: number,
  stepMs: number,
  mWh: (i: number) => number,
  skip: (i: number) => boolean,
  quality: (i: number) => number,
): ChannelData['intervals'] {
  return instants(fromMs, toMs - stepMs, stepMs, skip).map(
    ({ i, at }) => [at, at + stepMs, mWh(i), quality(i)] as const,
  );
}

/** The days hold energy on both channels: the new meter's days are not compared with empty ones… */
const withEnergy = (days: { import: unknown; export: unknown; qualities: unknown[] }) => {
  expect(
    [days.import, days.export].map(
      (kWh) => Array.isArray(kWh) && kWh.some((v) => typeof v === 'number' && v > 0),
    ),
  ).toEqual([true, true]);
  // …and estimated or substituted values, so that a quality lost on the way would show.
  expect(days.qualities.flat().some((n) => typeof n === 'number' && n > 0)).toBe(true);
};

const everyNth = (n: number, q: number) => (i: number) => (i % n === 0 ? q : 0);
const qualities = (i: number) => (i % 7 === 3 ? 1 : i % 11 === 5 ? 2 : 0);

describe('export, then import again', () => {
  it('a register meter with two channels, gaps and estimated values, over the autumn DST day (Berlin)', async () => {
    // Local 24 Oct 2026 00:00 CEST = 23 Oct 22:00 UTC; 27 Oct 00:00 CET = 26 Oct 23:00 UTC
    // (25 Oct has 25 hours): 73 hours, 74 hourly registers.
    const from = Date.parse('2026-10-23T22:00:00Z');
    const to = Date.parse('2026-10-26T23:00:00Z');
    const days = await expectRoundTrip(t, admin, {
      site: 'RT-REG',
      timeZone: 'Europe/Berlin',
      intervalMinutes: 60,
      multiplier: 2,
      From: '2026-10-24',
      To: '2026-10-26',
      channels: [
        {
          channel: 1,
          // Three hours missing in the night of the change (01:00–03:00 local, both 02:00s among them).
          registers: registers(
            from,
            to,
            HOUR,
            (i) => 400 + (i % 5) * 37,
            (i) => i >= 27 && i <= 29,
            qualities,
          ),
          intervals: [],
        },
        {
          channel: 2,
          registers: registers(
            from,
            to,
            HOUR,
            (i) => (i % 24 > 8 && i % 24 < 17 ? 900 : 0),
            (i) => i === 40,
            everyNth(9, 2),
          ),
          intervals: [],
        },
      ],
    });
    withEnergy(days);
  });

  it('an interval meter with two channels, missing quarter hours and estimated values, over the spring DST day (New York)', async () => {
    // Local 7 Mar 2026 00:00 EST = 05:00 UTC; 10 Mar 00:00 EDT = 04:00 UTC (8 Mar has 23 hours):
    // 71 hours, 284 quarter hours.
    const from = Date.parse('2026-03-07T05:00:00Z');
    const to = Date.parse('2026-03-10T04:00:00Z');
    const days = await expectRoundTrip(t, admin, {
      site: 'RT-INT',
      timeZone: 'America/New_York',
      intervalMinutes: 15,
      multiplier: 1,
      From: '2026-03-07',
      To: '2026-03-09',
      channels: [
        {
          channel: 1,
          registers: [],
          intervals: intervals(
            from,
            to,
            QUARTER,
            (i) => 50_000 + (i % 13) * 1_234,
            (i) => i >= 100 && i < 108,
            qualities,
          ),
        },
        {
          channel: 2,
          registers: [],
          intervals: intervals(
            from,
            to,
            QUARTER,
            (i) => (i % 96 > 40 && i % 96 < 60 ? 75_500 : 0),
            (i) => i === 7,
            everyNth(5, 1),
          ),
        },
      ],
    });
    withEnergy(days);
  });

  it('a meter with registers and intervals, the export channel at its own cadence (Kolkata, UTC+05:30)', async () => {
    // Local 1 Jun 2026 00:00 IST = 31 May 18:30 UTC; 3 Jun 00:00 = 2 Jun 18:30 UTC.
    const from = Date.parse('2026-05-31T18:30:00Z');
    const to = Date.parse('2026-06-02T18:30:00Z');
    const days = await expectRoundTrip(t, admin, {
      site: 'RT-BOTH',
      timeZone: 'Asia/Kolkata',
      intervalMinutes: 15,
      multiplier: 1,
      From: '2026-06-01',
      To: '2026-06-02',
      channels: [
        {
          channel: 1,
          // A register every 6 hours beside 15-minute records.
          registers: registers(
            from,
            to,
            6 * HOUR,
            () => 2_500,
            () => false,
            everyNth(3, 1),
          ),
          intervals: intervals(
            from,
            to,
            QUARTER,
            (i) => 26_042 + (i % 3),
            (i) => i === 50,
            qualities,
          ),
        },
        {
          channel: 2,
          // Half-hour records on a meter set to 15 minutes.
          registers: [],
          intervals: intervals(
            from,
            to,
            2 * QUARTER,
            (i) => 180_250 * (i % 2),
            () => false,
            everyNth(4, 2),
          ),
        },
      ],
    });
    withEnergy(days);
  });
});

// Zones with northern and southern DST, a half-hour offset and none; days that are DST days in
// some of them (2026: Mar 8 and Nov 1 in New York; Mar 29 and Oct 25 in Europe; Apr 5 and Oct 4
// in Sydney) and one that is in none.
const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'Australia/Sydney',
  'Asia/Kolkata',
  'Europe/London',
  'UTC',
];
const DAYS = [
  '2026-03-08',
  '2026-03-29',
  '2026-04-05',
  '2026-06-15',
  '2026-10-04',
  '2026-10-25',
  '2026-11-01',
];

const channelArbitrary = fc.record({
  kind: fc.constantFrom('register', 'interval', 'both'),
  /** Whole Wh per interval (registers rise by it; records hold it). */
  energies: fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 24 }),
  qualities: fc.array(fc.constantFrom(0, 0, 0, 1, 2), { minLength: 1, maxLength: 24 }),
  /** Every n-th value is left out (a gap), 0: none. */
  gapEvery: fc.constantFrom(0, 0, 3, 7, 10),
});

const caseArbitrary = fc.record({
  timeZone: fc.constantFrom(...ZONES),
  day: fc.constantFrom(...DAYS),
  days: fc.integer({ min: 1, max: 2 }),
  intervalMinutes: fc.constantFrom(15, 30, 60),
  multiplier: fc.constantFrom(1, 3),
  import: channelArbitrary,
  export: fc.option(channelArbitrary, { nil: undefined }),
});

type Channel = typeof channelArbitrary extends fc.Arbitrary<infer C> ? C : never;

/** A channel's readings over [fromMs, toMs] at the meter's interval, as the arbitrary says. */
function channelData(channel: 1 | 2, c: Channel, fromMs: number, toMs: number, stepMs: number): ChannelData {
  const count = Math.round((toMs - fromMs) / stepMs);
  const at = (i: number) => fromMs + i * stepMs;
  const energy = (i: number) => c.energies[i % c.energies.length] ?? 0;
  const quality = (i: number) => c.qualities[i % c.qualities.length] ?? 0;
  const kept = (i: number) => c.gapEvery === 0 || i % c.gapEvery !== c.gapEvery - 1;
  const registers: Array<readonly [number, number, number]> = [];
  const intervals: Array<readonly [number, number, number, number]> = [];
  let wh = 1_000_000;
  for (let i = 0; i <= count; i++) {
    if (i > 0) wh += energy(i);
    if (c.kind !== 'interval' && kept(i)) registers.push([at(i), wh, quality(i)]);
    if (c.kind !== 'register' && i < count && kept(i))
      intervals.push([at(i), at(i + 1), energy(i) * 1000, quality(i)]);
  }
  return { channel, registers, intervals };
}

let runs = 0;

describe('export → import, for random meters', () => {
  it(
    'is unchanged into the same meter and gives the same days in a new one',
    { timeout: 120_000 },
    async () => {
      await fc.assert(
        fc.asyncProperty(caseArbitrary, async (c) => {
          runs++;
          const [year, month, day] = c.day.split('-').map(Number) as [number, number, number];
          const fromMs = startOfLocal({ year, month, day }, c.timeZone);
          const last = new Date(Date.UTC(year, month - 1, day + c.days - 1));
          const after = new Date(Date.UTC(year, month - 1, day + c.days));
          const toMs = startOfLocal(
            { year: after.getUTCFullYear(), month: after.getUTCMonth() + 1, day: after.getUTCDate() },
            c.timeZone,
          );
          const stepMs = c.intervalMinutes * 60_000;
          const channels = [channelData(1, c.import, fromMs, toMs, stepMs)];
          if (c.export) channels.push(channelData(2, c.export, fromMs, toMs, stepMs));
          await expectRoundTrip(t, admin, {
            site: `RT-P${runs}`,
            timeZone: c.timeZone,
            intervalMinutes: c.intervalMinutes,
            multiplier: c.multiplier,
            From: c.day,
            To: last.toISOString().slice(0, 10),
            channels,
          });
        }),
        { numRuns: 5 },
      );
    },
  );
});
