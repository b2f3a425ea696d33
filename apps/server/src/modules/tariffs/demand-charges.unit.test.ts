import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TariffDay } from '@cm/contracts/tariff-days.ts';
import { tariffBodySchema, type Tariff, type TariffBody } from '@cm/contracts/tariffs.ts';
import { civilFromDays as civilOf, startOfLocal } from '@cm/contracts/zoned-time.ts';
import type { KnownIntervals } from '../readings/index.ts';
import { knownIntervalsOf } from '../readings/engine/test-segments.ts';
import { billOf, billingDays } from './bill.ts';
import { demandCharges, demandLookbackFrom, foldEarlierMonths } from './demand-charges.ts';
import { pricedVersions } from './price-timeline.ts';

// Demand and capacity charges (issue 36). Every expected figure is worked out by hand in the
// comment above it: kWh ÷ hours = kW, kW × price × days ÷ days of the period (or of the year).

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const FAR_FUTURE = Date.UTC(2100, 0, 1);
const utc = (iso: string) => Date.parse(iso);

function tariff(body: Partial<TariffBody> & { demand: TariffBody['demand'] }): Tariff {
  const parsed = tariffBodySchema.parse({
    effectiveFrom: '2020-01-01',
    currency: 'EUR',
    energyPrice: '0.30',
    standingChargePerDay: '0',
    taxPercent: '0',
    ...body,
  });
  return { ...parsed, id: 1, locationId: 1, createdAt: '2020-01-01T00:00:00.000Z' };
}

/** Records of `nominalMs` over [fromMs, toMs) of `kWh` each, but `special` (start ISO → kWh) and none at `missing`. */
function records(
  fromMs: number,
  toMs: number,
  nominalMs: number,
  kWh: number,
  special: Record<string, number> = {},
  missing: string[] = [],
): KnownIntervals {
  const known = { start: [] as number[], energy: [] as number[], nominal: [] as number[] };
  const bySpecial = new Map(Object.entries(special).map(([iso, value]) => [utc(iso), value]));
  const gaps = new Set(missing.map(utc));
  for (let t = fromMs; t < toMs; t += nominalMs) {
    if (gaps.has(t)) continue;
    known.start.push(t);
    known.energy.push(Math.round((bySpecial.get(t) ?? kWh) * 1_000_000));
    known.nominal.push(nominalMs);
  }
  return knownIntervalsOf(known);
}

function charges(
  tariffs: Tariff[],
  range: { fromMs: number; toMs: number; endMs?: number; nowMs?: number },
  intervals: KnownIntervals,
  timeZone: string,
) {
  const versions = pricedVersions(tariffs);
  const endMs = range.endMs ?? range.toMs;
  return demandCharges(
    {
      versions,
      days: billingDays(versions, range.fromMs, endMs, timeZone),
      fromMs: range.fromMs,
      toMs: range.toMs,
      endMs,
      nowMs: range.nowMs ?? FAR_FUTURE,
    },
    { intervals, timeZone, billingDay: null },
  );
}

/** 10^-12 of the currency → the currency. */
const money = (pico: number[] | undefined) => (pico ?? []).reduce((a, b) => a + b, 0) / 1e12;

describe('demand slots', () => {
  const demand15 = [tariff({ demand: { intervalMinutes: 15, pricePerKw: '1' } })];
  const from = utc('2026-03-10T00:00:00Z');
  const to = utc('2026-03-11T00:00:00Z');

  it('averages 5-minute records over clock-aligned quarter hours', () => {
    // 18:00, 18:05, 18:10 hold 0.3, 0.2, 0.1 kWh: 0.6 kWh in a quarter hour = 0.6 ÷ 0.25 = 2.4 kW
    // (the 5-minute peak alone would be 0.3 ÷ (5/60) = 3.6 kW); every other quarter 3 × 0.05 =
    // 0.15 kWh, 0.6 kW.
    const result = charges(
      demand15,
      { fromMs: from, toMs: to },
      records(from, to, 5 * MINUTE, 0.05, {
        '2026-03-10T18:00:00Z': 0.3,
        '2026-03-10T18:05:00Z': 0.2,
        '2026-03-10T18:10:00Z': 0.1,
      }),
      'UTC',
    );
    expect(result?.detail?.peak).toEqual({
      kW: 2.4,
      from: '2026-03-10T18:00:00.000Z',
      to: '2026-03-10T18:15:00.000Z',
      localFrom: '2026-03-10T18:00:00+00:00',
      isAtLeast: false,
    });
  });

  it('keeps an hourly record its own slot when the demand interval is shorter', () => {
    // Hourly records of 1 kWh, 18:00 of 2 kWh, and a 15-minute demand interval: 2 kWh ÷ 1 h = 2 kW
    // over the whole hour, known (not "at least").
    const result = charges(
      demand15,
      { fromMs: from, toMs: to },
      records(from, to, HOUR, 1, { '2026-03-10T18:00:00Z': 2 }),
      'UTC',
    );
    expect(result?.detail?.peak).toMatchObject({
      kW: 2,
      from: '2026-03-10T18:00:00.000Z',
      to: '2026-03-10T19:00:00.000Z',
      isAtLeast: false,
    });
  });
});

describe('demand charge', () => {
  const BRUSSELS = 'Europe/Brussels';

  it('charges 15-minute demand from 5-minute data, a whole month at the price per kW', () => {
    // March 2026 in Brussels, 5-minute records of 0.05 kWh (0.6 kW) except 18:00–18:10 on the 10th
    // (local 19:00, +01:00): 0.3 + 0.2 + 0.1 = 0.6 kWh in the quarter hour = 2.4 kW, the peak.
    // 10 EUR per kW of the month's peak: 2.4 × 10 = 24 EUR.
    const fromMs = utc('2026-02-28T23:00:00Z');
    const toMs = utc('2026-03-31T22:00:00Z');
    const result = charges(
      [tariff({ demand: { intervalMinutes: 15, pricePerKw: '10' } })],
      { fromMs, toMs },
      records(fromMs, toMs, 5 * MINUTE, 0.05, {
        '2026-03-10T18:00:00Z': 0.3,
        '2026-03-10T18:05:00Z': 0.2,
        '2026-03-10T18:10:00Z': 0.1,
      }),
      BRUSSELS,
    );
    expect(money(result?.demand)).toBe(24);
    expect(result?.detail).toMatchObject({
      intervalMinutes: 15,
      chargedKw: 2.4,
      peak: { kW: 2.4, localFrom: '2026-03-10T19:00:00+01:00', isAtLeast: false },
      capacityKw: null,
    });
  });

  it('says "at least" when a record is missing inside the peak interval', () => {
    // 18:05 missing: 18:00 and 18:10 hold 0.3 kWh each, 0.6 kWh known in the quarter hour → 2.4 kW,
    // at least (10 of its 15 minutes known). 10 EUR/kW: 24 EUR for the month.
    const fromMs = utc('2026-02-28T23:00:00Z');
    const toMs = utc('2026-03-31T22:00:00Z');
    const result = charges(
      [tariff({ demand: { intervalMinutes: 15, pricePerKw: '10' } })],
      { fromMs, toMs },
      records(fromMs, toMs, 5 * MINUTE, 0.05, { '2026-03-10T18:00:00Z': 0.3, '2026-03-10T18:10:00Z': 0.3 }, [
        '2026-03-10T18:05:00Z',
      ]),
      BRUSSELS,
    );
    expect(money(result?.demand)).toBe(24);
    expect(result?.detail?.peak).toMatchObject({ kW: 2.4, isAtLeast: true });
    expect(result?.detail?.isAtLeast).toBe(true);
  });

  it("takes the peak of the 23-hour spring day and charges that day's share of the month", () => {
    // Sunday 29 March 2026, Brussels: 02:00 CET jumps to 03:00 CEST, the day is 2026-03-28T23:00Z
    // → 2026-03-29T22:00Z, 92 quarter hours. Every quarter 0.25 kWh (1 kW) except 03:00 CEST
    // (01:00Z): 0.8 kWh ÷ 0.25 h = 3.2 kW. The range is that one day of March's 31: at 31 EUR/kW
    // the day pays 3.2 × 31 × 1/31 = 3.20 EUR.
    const fromMs = utc('2026-03-28T23:00:00Z');
    const toMs = utc('2026-03-29T22:00:00Z');
    const result = charges(
      [tariff({ demand: { intervalMinutes: 15, pricePerKw: '31' } })],
      { fromMs, toMs },
      records(fromMs, toMs, 15 * MINUTE, 0.25, { '2026-03-29T01:00:00Z': 0.8 }),
      BRUSSELS,
    );
    expect(money(result?.demand)).toBe(3.2);
    expect(result?.detail?.peak).toMatchObject({ kW: 3.2, localFrom: '2026-03-29T03:00:00+02:00' });
  });

  it('takes the peak only inside the on-peak window', () => {
    // New York, June 2026, hourly records of 1 kWh (1 kW). Window: weekdays 14:00–19:00. Monday
    // 8 June 21:00 EDT (9 June 01:00Z) draws 5 kWh (5 kW) but lies outside it; Tuesday 9 June 17:00
    // EDT (21:00Z) draws 3 kWh: the on-peak peak is 3 kW. 12 USD/kW: 3 × 12 = 36 USD.
    const fromMs = utc('2026-06-01T04:00:00Z');
    const toMs = utc('2026-07-01T04:00:00Z');
    const weekdays: TariffDay[] = ['mon', 'tue', 'wed', 'thu', 'fri'];
    const result = charges(
      [
        tariff({
          currency: 'USD',
          demand: {
            intervalMinutes: 60,
            pricePerKw: '12',
            window: { days: weekdays, from: '14:00', to: '19:00' },
          },
        }),
      ],
      { fromMs, toMs },
      records(fromMs, toMs, HOUR, 1, { '2026-06-09T01:00:00Z': 5, '2026-06-09T21:00:00Z': 3 }),
      'America/New_York',
    );
    expect(money(result?.demand)).toBe(36);
    expect(result?.detail?.peak).toMatchObject({ kW: 3, localFrom: '2026-06-09T17:00:00-04:00' });
  });

  it('raises each month to the ratchet over a year', () => {
    // UTC, hourly records of 0.5 kWh and one peak hour on the 10th of each month, April 2025 to
    // March 2026: 2, 3, 4, 10, 6, 5, 4, 3, 3, 3, 2, 2 kW. Ratchet 80 % of the highest of the 11
    // months before, price 1 EUR/kW:
    //   Apr: no month before → 2; May: 80 % × 2 = 1.6 < 3 → 3; Jun: 80 % × 3 = 2.4 < 4 → 4;
    //   Jul: 80 % × 4 = 3.2 < 10 → 10; Aug … Mar: 80 % × 10 = 8 above 6, 5, 4, 3, 3, 3, 2, 2 → 8.
    // 2 + 3 + 4 + 10 + 8 × 8 = 83 EUR.
    const peaks = [2, 3, 4, 10, 6, 5, 4, 3, 3, 3, 2, 2];
    const special: Record<string, number> = {};
    peaks.forEach((kW, i) => {
      const month = new Date(Date.UTC(2025, 3 + i, 10, 12));
      special[month.toISOString()] = kW;
    });
    const fromMs = utc('2025-04-01T00:00:00Z');
    const toMs = utc('2026-04-01T00:00:00Z');
    const result = charges(
      [tariff({ demand: { intervalMinutes: 60, pricePerKw: '1', ratchetPercent: '80' } })],
      { fromMs, toMs },
      records(fromMs, toMs, HOUR, 0.5, special),
      'UTC',
    );
    expect(money(result?.demand)).toBe(83);
    // March 2026, the last period: peak 2 kW, ratchet 8 kW charged.
    expect(result?.detail).toMatchObject({ chargedKw: 8, ratchetKw: 8, peak: { kW: 2 } });
  });
});

describe('the bill so far', () => {
  it('charges the month’s demand at the peak so far, and says the projection’s peak may still rise', () => {
    // March 2026 in Brussels asked whole, now at the start of the 16th: 15 days of quarter hours of
    // 0.25 kWh (1 kW), one of 0.6 kWh on the 10th at 19:00 (2.4 kW). 10 EUR/kW of the month's peak:
    // 2.4 × 10 = 24 EUR already (the range holds all 31 days), the same in the projection, which
    // adds no demand but says the peak may rise.
    const fromMs = utc('2026-02-28T23:00:00Z');
    const toMs = utc('2026-03-31T22:00:00Z');
    const nowMs = utc('2026-03-15T23:00:00Z');
    const versions = pricedVersions([tariff({ demand: { intervalMinutes: 15, pricePerKw: '10' } })]);
    const bill = billOf({
      versions,
      days: billingDays(versions, fromMs, toMs, 'Europe/Brussels'),
      fromMs,
      toMs,
      projectToMs: toMs,
      nowMs,
      dataEndMs: nowMs,
      demand: {
        intervals: records(fromMs, nowMs, 15 * MINUTE, 0.25, { '2026-03-10T18:00:00Z': 0.6 }),
        timeZone: 'Europe/Brussels',
        billingDay: null,
      },
    });
    expect(bill?.demandCharge).toBe(24);
    expect(bill?.projection).toMatchObject({ demandCharge: 24, peakMayRise: true });
  });
});

describe('capacity charge', () => {
  const BRUSSELS = 'Europe/Brussels';
  // The docs' year (docs/demand.md): monthly peaks November 2025 … October 2026 of 1.9, 2.1, 3.4,
  // 2.2, 1.6, 1.4, 1.2, 1.3, 1.5, 2.0, 2.6, 3.2 kW, each the 12:00 hour (local) of the 10th; other
  // hours 0.5 kWh. Nine under 2.5 count 2.5: (9 × 2.5 + 3.4 + 2.6 + 3.2) ÷ 12 = 31.7 ÷ 12 =
  // 2.641667 kW (to the millionth).
  const peaks = [1.9, 2.1, 3.4, 2.2, 1.6, 1.4, 1.2, 1.3, 1.5, 2.0, 2.6, 3.2];
  const special: Record<string, number> = {};
  peaks.forEach((kW, i) => {
    // 11:00Z is 12:00 in winter (+01:00), 13:00 in summer: still one hour of the 10th.
    special[new Date(Date.UTC(2025, 10 + i, 10, 11)).toISOString()] = kW;
  });
  const dataFrom = utc('2025-10-31T23:00:00Z');
  const dataTo = utc('2026-10-31T23:00:00Z');
  const intervals = records(dataFrom, dataTo, HOUR, 0.5, special);
  const capacityTariff = tariff({ demand: { intervalMinutes: 60, capacityPricePerKwYear: '40' } });

  it('charges October pro rata per day: 31 of 2026’s 365 days', () => {
    // 2.641667 kW × 40 EUR/kW-year × 31 ÷ 365 = 105.66668 × 31 ÷ 365 = 8.974430… EUR.
    const fromMs = utc('2026-09-30T22:00:00Z');
    const result = charges([capacityTariff], { fromMs, toMs: dataTo }, intervals, BRUSSELS);
    expect(money(result?.capacity)).toBeCloseTo(8.97443, 6);
    expect(result?.detail).toMatchObject({ capacityKw: 2.641667, chargedKw: null });
  });

  it('charges half a month so far, and projects the rest at the same average', () => {
    // 1–15 October (15 days, now on the 16th at 00:00 local): 105.66668 × 15 ÷ 365 = 4.342466 EUR;
    // the 16 days to come: 105.66668 × 16 ÷ 365 = 4.631964 EUR.
    const fromMs = utc('2026-09-30T22:00:00Z');
    const nowMs = utc('2026-10-15T22:00:00Z');
    const result = charges([capacityTariff], { fromMs, toMs: dataTo, nowMs }, intervals, BRUSSELS);
    expect(money(result?.capacity)).toBeCloseTo(4.342466, 6);
    expect(money(result?.moreCapacity)).toBeCloseTo(4.631964, 6);
  });

  it('enters the bill with its tax, and the total adds it', () => {
    // October as above with 10 % tax on it: 8.974430 + 0.897443 = 9.871873 EUR, energy priced at 0
    // here (no energy totals given).
    const fromMs = utc('2026-09-30T22:00:00Z');
    const versions = pricedVersions([
      tariff({ taxPercent: '10', demand: { intervalMinutes: 60, capacityPricePerKwYear: '40' } }),
    ]);
    const bill = billOf({
      versions,
      days: billingDays(versions, fromMs, dataTo, BRUSSELS),
      fromMs,
      toMs: dataTo,
      nowMs: FAR_FUTURE,
      dataEndMs: dataTo,
      demand: { intervals, timeZone: BRUSSELS, billingDay: null },
    });
    expect(bill?.capacityCharge).toBe(8.97443);
    expect(bill?.tax).toBeCloseTo(0.897443, 6);
    expect(bill?.total).toBeCloseTo(9.871873, 6);
  });
});

describe('how far back the charges read', () => {
  // 15 March 2026 00:00 in Brussels (+01:00) is 14 March 23:00 UTC.
  const fromMs = utc('2026-03-14T23:00:00Z');
  const versionsOf = (demand: TariffBody['demand']) => pricedVersions([tariff({ demand })]);

  it('reads nothing before the range for a demand charge alone', () => {
    // The charged demand is the peak of the part of each billing period the range covers.
    const versions = versionsOf({ intervalMinutes: 15, pricePerKw: '10' });
    expect(demandLookbackFrom(versions, fromMs, 'Europe/Brussels')).toBe(fromMs);
  });

  it('reads the 12 months before the range’s first for a ratchet or a capacity charge', () => {
    // March 2026 − 12 months: 1 March 2025 00:00 in Brussels = 28 February 2025 23:00 UTC.
    for (const demand of [
      { intervalMinutes: 15, pricePerKw: '10', ratchetPercent: '80' },
      { intervalMinutes: 15, capacityPricePerKwYear: '50', capacityFloorKw: '2.5' },
    ])
      expect(demandLookbackFrom(versionsOf(demand), fromMs, 'Europe/Brussels')).toBe(
        utc('2025-02-28T23:00:00Z'),
      );
  });

  it('reads nothing without demand settings', () => {
    expect(demandLookbackFrom(versionsOf(null), fromMs, 'Europe/Brussels')).toBeNull();
  });
});

describe('the months before the range, folded apart (as the server remembers them)', () => {
  const ZONES = [
    'UTC',
    'Europe/Brussels',
    'America/New_York',
    'Asia/Kolkata',
    'Australia/Adelaide',
    'Asia/Kathmandu',
  ];

  it('charge exactly what folding them together with the range does, for any data and zone', () => {
    fc.assert(
      fc.property(
        fc.record({
          zone: fc.constantFrom(...ZONES),
          nominalMinutes: fc.constantFrom(5, 15, 30, 60),
          demandMinutes: fc.constantFrom(15, 30, 60),
          window: fc.boolean(),
          ratchet: fc.boolean(),
          // Start of the range: days after 1 February 2025, and its length in days.
          fromDay: fc.integer({ min: 0, max: 400 }),
          days: fc.integer({ min: 1, max: 70 }),
          seed: fc.integer({ min: 1, max: 1_000_000 }),
          gapEvery: fc.option(fc.integer({ min: 3, max: 500 }), { nil: null }),
          // Records of 5 kWh (more than any other) around the range's start: its slot is the peak.
          spike: fc.boolean(),
        }),
        ({ zone, nominalMinutes, demandMinutes, window, ratchet, fromDay, days, seed, gapEvery, spike }) => {
          const versions = pricedVersions([
            tariff({
              demand: {
                intervalMinutes: demandMinutes,
                pricePerKw: '10',
                capacityPricePerKwYear: '40',
                ...(ratchet ? { ratchetPercent: '80' } : {}),
                ...(window
                  ? { window: { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '20:00' } }
                  : {}),
              },
            }),
          ]);
          const day = (n: number) => {
            const { year, month, day: date } = civilOf(Date.UTC(2025, 1, 1) / DAY + n);
            return startOfLocal({ year, month, day: date }, zone);
          };
          const fromMs = day(fromDay);
          const toMs = day(fromDay + days);
          const lookbackMs = demandLookbackFrom(versions, fromMs, zone) ?? fromMs;
          // Records on the meter's own clock (not the zone's), energies from a small generator, a
          // gap every few records: the lookback's last slot may reach past the range's start.
          const nominal = nominalMinutes * MINUTE;
          const known = { start: [] as number[], energy: [] as number[], nominal: [] as number[] };
          let x = seed;
          for (let t = Math.ceil(lookbackMs / nominal) * nominal, i = 0; t < toMs; t += nominal, i++) {
            x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
            if (gapEvery !== null && i % gapEvery === gapEvery - 1) continue;
            known.start.push(t);
            known.energy.push(spike && Math.abs(t - fromMs) < 30 * MINUTE ? 5_000_000 : x % 3_000_000);
            known.nominal.push(nominal);
          }
          const all = knownIntervalsOf(known);
          const cut = known.start.findIndex((start) => start >= fromMs);
          const at = cut < 0 ? known.start.length : cut;
          const before = knownIntervalsOf({
            start: known.start.slice(0, at),
            energy: known.energy.slice(0, at),
            nominal: known.nominal.slice(0, at),
          });
          const inRange = knownIntervalsOf({
            start: known.start.slice(at),
            energy: known.energy.slice(at),
            nominal: known.nominal.slice(at),
          });
          const where = {
            versions,
            days: billingDays(versions, fromMs, toMs, zone),
            fromMs,
            toMs,
            endMs: toMs,
            nowMs: toMs - 3 * HOUR,
          };
          const together = demandCharges(where, { intervals: all, timeZone: zone, billingDay: null });
          const apart = demandCharges(where, {
            intervals: inRange,
            earlier: foldEarlierMonths(before, versions, fromMs, zone),
            timeZone: zone,
            billingDay: null,
          });
          expect(apart).toEqual(together);
        },
      ),
      { numRuns: 150 },
    );
  });
});
