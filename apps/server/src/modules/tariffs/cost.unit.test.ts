import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Granularity } from '@cm/contracts/check.ts';
import type { TariffDay } from '@cm/contracts/tariff-days.ts';
import { tariffBodySchema, type Tariff, type TariffBody } from '@cm/contracts/tariffs.ts';
import { computeReadings, resolveProjectTo, resolveRange } from '../readings/index.ts';
import { intervalSegment } from '../readings/engine/test-segments.ts';
import { billOf, billingDays } from './bill.ts';
import { energyProfile, feedInProfile, priceTimeline, pricedVersions } from './price-timeline.ts';

// Cost (issue 18). Every expected figure is counted by hand from the tariff and the clock of the
// day: quarter hours × kWh × price, written out in the test's comment.

const QUARTER = 15 * 60_000;
const BERLIN = 'Europe/Berlin';

function tariff(body: Partial<TariffBody> & { effectiveFrom: string }, id = 1): Tariff {
  const parsed = tariffBodySchema.parse({
    currency: 'EUR',
    energyPrice: '0.30',
    standingChargePerDay: '0',
    taxPercent: '0',
    ...body,
  });
  return { ...parsed, id, locationId: 1, createdAt: '2026-01-01T00:00:00.000Z' };
}

/** A night window 00:00–07:00 every day at 0.10 (base 0.30). */
const NIGHT = {
  windows: [
    {
      label: 'night',
      price: '0.10',
      days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun', 'holiday'] as TariffDay[],
      from: '00:00',
      to: '07:00',
    },
  ],
};

/** Quarter-hour records of `kWh` each over [fromMs, toMs). */
function quarters(fromMs: number, toMs: number, micro = 1_000_000) {
  const records: [number, number, number][] = [];
  for (let t = fromMs; t < toMs; t += QUARTER) records.push([t, t + QUARTER, micro]);
  return intervalSegment(records, { intervalMinutes: 15 });
}

function priced(
  tariffs: Tariff[],
  range: { From: string; To: string },
  granularity: Granularity,
  data: { fromMs: number; toMs: number; micro?: number; exportMicro?: number },
  nowMs = Date.UTC(2100, 0, 1),
  projectTo?: string,
) {
  const versions = pricedVersions(tariffs);
  const { fromMs, toMs } = resolveRange(range, BERLIN, granularity);
  const projectToMs =
    projectTo === undefined ? undefined : resolveProjectTo(projectTo, { fromMs, toMs }, BERLIN);
  const input = {
    import: [quarters(data.fromMs, data.toMs, data.micro)],
    ...(data.exportMicro === undefined
      ? {}
      : { export: [quarters(data.fromMs, data.toMs, data.exportMicro)] }),
  };
  const computed = computeReadings(input, {
    fromMs,
    toMs,
    timeZone: BERLIN,
    granularity,
    nowMs,
    primary: 'import',
    prices: {
      import: priceTimeline(versions, energyProfile, fromMs, toMs + 40 * 86_400_000, BERLIN),
      export: priceTimeline(versions, feedInProfile, fromMs, toMs + 40 * 86_400_000, BERLIN),
    },
  });
  const bill = billOf({
    versions,
    days: billingDays(versions, fromMs, projectToMs ?? toMs, BERLIN),
    fromMs,
    toMs,
    projectToMs,
    nowMs,
    imported: computed.primary.cost,
    exported: computed.other?.cost,
    dataEndMs: computed.primary.totals.dataEndMs,
  });
  const series = JSON.parse(JSON.stringify(computed.series)) as { cost?: (number | null)[]; t: number[] };
  return { computed, bill, series };
}

const utc = (iso: string) => Date.parse(iso);

describe('time-of-use on the location clock', () => {
  it('prices a normal day: 28 night quarters at 0.10, 68 day quarters at 0.30', () => {
    // 2026-03-28 in Berlin (UTC+1): 96 quarters of 1 kWh; night 00:00–07:00 = 28 quarters.
    // 28 × 0.10 + 68 × 0.30 = 2.80 + 20.40 = 23.20
    const { bill, series } = priced(
      [tariff({ effectiveFrom: '2026-01-01', ...NIGHT })],
      { From: '2026-03-28', To: '2026-03-28' },
      'day',
      {
        fromMs: utc('2026-03-27T23:00:00Z'),
        toMs: utc('2026-03-28T23:00:00Z'),
      },
    );
    expect(bill?.energy).toBe(23.2);
    expect(series.cost).toEqual([23.2]);
  });

  it('prices the day the clocks go forward: the night window lasts six hours', () => {
    // 2026-03-29: 23 hours, 92 quarters; 00:00–07:00 local is 23:00Z–05:00Z, 24 quarters.
    // 24 × 0.10 + 68 × 0.30 = 2.40 + 20.40 = 22.80
    const { bill } = priced(
      [tariff({ effectiveFrom: '2026-01-01', ...NIGHT })],
      { From: '2026-03-29', To: '2026-03-29' },
      'day',
      {
        fromMs: utc('2026-03-28T23:00:00Z'),
        toMs: utc('2026-03-29T22:00:00Z'),
      },
    );
    expect(bill?.energy).toBe(22.8);
  });

  it('prices the day the clocks go back: the night window lasts eight hours', () => {
    // 2026-10-25: 25 hours, 100 quarters; 00:00–07:00 local is 22:00Z–06:00Z, 32 quarters.
    // 32 × 0.10 + 68 × 0.30 = 3.20 + 20.40 = 23.60
    const { bill, series } = priced(
      [tariff({ effectiveFrom: '2026-01-01', ...NIGHT })],
      { From: '2026-10-25', To: '2026-10-25' },
      'hour',
      {
        fromMs: utc('2026-10-24T22:00:00Z'),
        toMs: utc('2026-10-25T23:00:00Z'),
      },
    );
    expect(bill?.energy).toBe(23.6);
    // Hourly: 8 night hours (02:00 twice) of 4 × 0.10 = 0.40, then 17 hours of 4 × 0.30 = 1.20.
    expect(series.cost).toEqual([...Array<number>(8).fill(0.4), ...Array<number>(17).fill(1.2)]);
  });

  it('applies a window to both passes of a repeated hour and to no skipped one', () => {
    // Window 02:00–03:00 at 1.00 on Sundays, base 0. Spring day: 02:00–03:00 does not exist, 0.
    // Autumn day: 02:00–03:00 happens twice, 8 quarters × 1.00 = 8.00.
    const window = {
      windows: [{ label: '', price: '1', days: ['sun'] as TariffDay[], from: '02:00', to: '03:00' }],
      energyPrice: '0',
    };
    const spring = priced(
      [tariff({ effectiveFrom: '2026-01-01', ...window })],
      { From: '2026-03-29', To: '2026-03-29' },
      'day',
      {
        fromMs: utc('2026-03-28T23:00:00Z'),
        toMs: utc('2026-03-29T22:00:00Z'),
      },
    );
    expect(spring.bill?.energy).toBe(0);
    const autumn = priced(
      [tariff({ effectiveFrom: '2026-01-01', ...window })],
      { From: '2026-10-25', To: '2026-10-25' },
      'day',
      {
        fromMs: utc('2026-10-24T22:00:00Z'),
        toMs: utc('2026-10-25T23:00:00Z'),
      },
    );
    expect(autumn.bill?.energy).toBe(8);
  });

  it('uses holiday and weekday windows, seasons and a window over midnight', () => {
    // Weekday peak 17:00–20:00 at 0.50 in winter months only (11–2), weekends 0.20 all day,
    // holidays 0.05 all day, night 22:00–06:00 at 0.15 on weekdays. Base 0.30.
    const tou = {
      energyPrice: '0.30',
      holidays: ['2026-12-25'],
      windows: [
        {
          label: 'peak',
          price: '0.50',
          days: ['mon', 'tue', 'wed', 'thu', 'fri'] as TariffDay[],
          from: '17:00',
          to: '20:00',
          months: [11, 12, 1, 2],
        },
        { label: 'weekend', price: '0.20', days: ['sat', 'sun'] as TariffDay[], from: '00:00', to: '24:00' },
        { label: 'holiday', price: '0.05', days: ['holiday'] as TariffDay[], from: '00:00', to: '00:00' },
        {
          label: 'night',
          price: '0.15',
          days: ['mon', 'tue', 'wed', 'thu', 'fri'] as TariffDay[],
          from: '22:00',
          to: '06:00',
        },
      ],
    };
    const day = (date: string, from: string, to: string) =>
      priced([tariff({ effectiveFrom: '2026-01-01', ...tou })], { From: date, To: date }, 'day', {
        fromMs: utc(from),
        toMs: utc(to),
      }).bill?.energy;
    // Thu 2026-12-24 (UTC+1): night 00–06 (24 q × 0.15 = 3.60) + 22–24 (8 q × 0.15 = 1.20),
    // peak 17–20 (12 q × 0.50 = 6.00), the rest 06–17 and 20–22 (52 q × 0.30 = 15.60): 26.40.
    expect(day('2026-12-24', '2026-12-23T23:00:00Z', '2026-12-24T23:00:00Z')).toBe(26.4);
    // Fri 2026-12-25 is a holiday: 96 q × 0.05 = 4.80.
    expect(day('2026-12-25', '2026-12-24T23:00:00Z', '2026-12-25T23:00:00Z')).toBe(4.8);
    // Sat 2026-12-26: 96 × 0.20 = 19.20.
    expect(day('2026-12-26', '2026-12-25T23:00:00Z', '2026-12-26T23:00:00Z')).toBe(19.2);
    // Thu 2026-07-16 (UTC+2), summer, no peak: 32 × 0.15 + 64 × 0.30 = 4.80 + 19.20 = 24.00.
    expect(day('2026-07-16', '2026-07-15T22:00:00Z', '2026-07-16T22:00:00Z')).toBe(24);
  });
});

describe('tariff versions', () => {
  const versions = [
    tariff(
      { effectiveFrom: '2026-01-01', energyPrice: '0.30', standingChargePerDay: '0.50', taxPercent: '20' },
      1,
    ),
    tariff(
      { effectiveFrom: '2026-03-03', energyPrice: '0.40', standingChargePerDay: '0.60', taxPercent: '10' },
      2,
    ),
  ];

  it("changes price at the new version's local midnight, standing charge and tax per version", () => {
    // 2026-03-01 … 03-04, 4 days of 96 × 1 kWh: two days at 0.30 (57.60) and two at 0.40 (76.80).
    // Standing 2 × 0.50 + 2 × 0.60 = 2.20; tax 20 % of (57.60 + 1.00) + 10 % of (76.80 + 1.20)
    // = 11.72 + 7.80 = 19.52. Total 57.60 + 76.80 + 2.20 + 19.52 = 156.12.
    const { bill } = priced(versions, { From: '2026-03-01', To: '2026-03-04' }, 'day', {
      fromMs: utc('2026-02-28T23:00:00Z'),
      toMs: utc('2026-03-04T23:00:00Z'),
    });
    expect(bill).toMatchObject({
      currency: 'EUR',
      energy: 134.4,
      standingCharge: 2.2,
      tax: 19.52,
      feedIn: 0,
      total: 156.12,
      standingDays: 4,
      unpricedConsumption: 0,
      projection: null,
    });
  });

  it('leaves energy before the first version unpriced', () => {
    // 2025-12-31 has no tariff: its 96 kWh are unpriced; 2026-01-01 costs 96 × 0.30 = 28.80.
    const { bill, series } = priced(versions, { From: '2025-12-31', To: '2026-01-01' }, 'day', {
      fromMs: utc('2025-12-30T23:00:00Z'),
      toMs: utc('2026-01-01T23:00:00Z'),
    });
    expect(bill?.energy).toBe(28.8);
    expect(bill?.unpricedConsumption).toBe(96);
    expect(series.cost).toEqual([null, 28.8]);
  });

  it('credits export at the feed-in price', () => {
    // One day 2026-06-10 (UTC+2), 96 quarters importing 0.5 kWh and exporting 0.25 kWh:
    // energy 48 kWh × 0.30 = 14.40, feed-in 24 kWh × 0.08 = 1.92, total 12.48.
    const withFeedIn = [tariff({ effectiveFrom: '2026-01-01', feedInPrice: '0.08' })];
    const { bill } = priced(withFeedIn, { From: '2026-06-10', To: '2026-06-10' }, 'day', {
      fromMs: utc('2026-06-09T22:00:00Z'),
      toMs: utc('2026-06-10T22:00:00Z'),
      micro: 500_000,
      exportMicro: 250_000,
    });
    expect(bill).toMatchObject({ energy: 14.4, feedIn: 1.92, total: 12.48 });
  });

  it('projects a bill still going from the average day so far', () => {
    // Bill 2026-06-01 … 06-30, now 06-11 00:00 local, data for 10 days of 96 × 1 kWh at 0.30 with
    // 0.50 standing: so far 288.00 + 5.00 = 293.00. Projection: 30 days × 28.80 = 864.00 energy,
    // 30 × 0.50 = 15.00 standing: 879.00.
    const flat = [tariff({ effectiveFrom: '2026-01-01', standingChargePerDay: '0.50' })];
    const now = utc('2026-06-10T22:00:00Z');
    const { bill } = priced(
      flat,
      { From: '2026-06-01', To: '2026-06-30' },
      'day',
      { fromMs: utc('2026-05-31T22:00:00Z'), toMs: now },
      now,
      '2026-06-30',
    );
    expect(bill).toMatchObject({ energy: 288, standingCharge: 5, total: 293, standingDays: 10 });
    expect(bill?.projection).toMatchObject({
      energy: 864,
      standingCharge: 15,
      total: 879,
      averagedDays: 10,
      to: '2026-06-30T22:00:00.000Z',
    });
  });

  it('projects this month so far to the end of the month, not of today (issue 34)', () => {
    // This month so far: the range is 2026-06-01 … 06-11 (today), now 06-11 00:00 local, with 10
    // days of 96 × 1 kWh at 0.30 and 0.50 standing. ProjectTo 06-30: the 20 days to come at the
    // average day (28.80) and each with its 0.50: 30 × 28.80 + 30 × 0.50 = 864 + 15 = 879.00,
    // not the 11 days to the end of today (11 × 28.80 + 11 × 0.50 = 322.30).
    const flat = [tariff({ effectiveFrom: '2026-01-01', standingChargePerDay: '0.50' })];
    const now = utc('2026-06-10T22:00:00Z');
    const month = priced(
      flat,
      { From: '2026-06-01', To: '2026-06-11' },
      'day',
      { fromMs: utc('2026-05-31T22:00:00Z'), toMs: now },
      now,
      '2026-06-30',
    );
    expect(month.bill).toMatchObject({ energy: 288, standingCharge: 5, total: 293, standingDays: 10 });
    expect(month.bill?.projection).toMatchObject({
      energy: 864,
      standingCharge: 15,
      total: 879,
      to: '2026-06-30T22:00:00.000Z',
    });
    // A rolling range (no ProjectTo) is not projected at all.
    const rolling = priced(
      flat,
      { From: '2026-06-01', To: '2026-06-11' },
      'day',
      { fromMs: utc('2026-05-31T22:00:00Z'), toMs: now },
      now,
    );
    expect(rolling.bill?.projection).toBeNull();
    expect(rolling.bill?.total).toBe(293);
  });

  it('refuses a ProjectTo before To', () => {
    const range = resolveRange({ From: '2026-06-01', To: '2026-06-11' }, BERLIN, 'day');
    expect(() => resolveProjectTo('2026-06-10', range, BERLIN)).toThrow('ProjectTo must not be before To.');
  });

  it('adds up over split ranges, exactly', () => {
    // Random prices and energies: the cost of a range equals the sum of the costs of its parts,
    // to the 10^-12 of the currency the engine keeps (and the written millionths to within one).
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999_999 }),
        fc.integer({ min: 1, max: 999_999 }),
        fc.array(fc.integer({ min: 0, max: 5_000_000 }), { minLength: 96 * 3, maxLength: 96 * 3 }),
        fc.integer({ min: 1, max: 2 }),
        (night, day, energies, split) => {
          const versionsOf = [
            tariff({
              effectiveFrom: '2026-01-01',
              energyPrice: (day / 1e6).toFixed(6),
              windows: [
                {
                  label: '',
                  price: (night / 1e6).toFixed(6),
                  days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
                  from: '23:00',
                  to: '06:30',
                },
              ],
            }),
          ];
          const start = utc('2026-10-23T22:00:00Z');
          const records: [number, number, number][] = [];
          let t = start;
          for (const energy of energies) {
            records.push([t, t + QUARTER, energy]);
            t += QUARTER;
          }
          const cost = (from: string, to: string) => {
            const versions = pricedVersions(versionsOf);
            const range = resolveRange({ From: from, To: to }, BERLIN, 'day');
            const computed = computeReadings(
              { import: [intervalSegment(records, { intervalMinutes: 15 })] },
              {
                ...range,
                timeZone: BERLIN,
                granularity: 'day',
                nowMs: Date.UTC(2100, 0, 1),
                primary: 'import',
                prices: {
                  import: priceTimeline(
                    versions,
                    energyProfile,
                    range.fromMs,
                    range.toMs + 86_400_000,
                    BERLIN,
                  ),
                },
              },
            );
            return computed.primary.cost?.byVersion[0] ?? -1n;
          };
          const days = ['2026-10-24', '2026-10-25', '2026-10-26'];
          const whole = cost(days[0] ?? '', days[2] ?? '');
          const parts = cost(days[0] ?? '', days[split - 1] ?? '') + cost(days[split] ?? '', days[2] ?? '');
          expect(parts).toBe(whole);
        },
      ),
      { numRuns: 40 },
    );
  });
});
