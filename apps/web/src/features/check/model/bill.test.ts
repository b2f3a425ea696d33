import type { Bill } from '@cm/contracts/check.ts';
import { describe, expect, it } from 'vitest';
import { billCardFigures, billCurrency, locationBill, partsAsShown } from './bill.ts';

const bill = (energy: number, projection: number | null): Bill => ({
  currency: 'EUR',
  energy,
  standingCharge: 0.5,
  demandCharge: 0,
  capacityCharge: 0,
  tax: 0.1,
  feedIn: 0,
  total: energy + 0.6,
  estimated: 0,
  unpricedConsumption: 0,
  standingDays: 1,
  projection:
    projection === null
      ? null
      : {
          energy: projection,
          standingCharge: 1,
          demandCharge: 0,
          capacityCharge: 0,
          tax: 0.2,
          feedIn: 0,
          total: projection + 1.2,
          averagedDays: 1,
          to: '2026-11-30T23:00:00.000Z',
          peakMayRise: false,
        },
  demand: null,
});

describe('a location bill', () => {
  it('adds each meter’s charges; projects only when every meter does', () => {
    const sub = { meter: { mainSupply: false }, totals: { consumption: 1 } };
    const both = locationBill([
      { ...sub, bill: bill(1.1, 2.2) },
      { ...sub, bill: bill(2.2, 4.4) },
      { ...sub, bill: null },
    ]);
    // 1.1 + 2.2 = 3.3 (not 3.3000000000000003), standing 0.5 + 0.5, tax 0.1 + 0.1, total 1.7 + 2.8.
    expect(both).toMatchObject({ basis: 'allMeters', count: 3 });
    expect(both?.bill).toMatchObject({
      energy: 3.3,
      standingCharge: 1,
      tax: 0.2,
      total: 4.5,
      standingDays: 1,
    });
    expect(both?.bill.projection).toMatchObject({ energy: 6.6, standingCharge: 2, total: 9 });
    expect(
      locationBill([
        { ...sub, bill: bill(1, 2) },
        { ...sub, bill: bill(1, null) },
      ])?.bill.projection,
    ).toBeNull();
    expect(locationBill([{ ...sub, bill: null }])).toBeNull();
  });

  it('is the main supply’s bill where the other meters are behind it', () => {
    const main = { meter: { mainSupply: true }, totals: { consumption: 1 }, bill: bill(10, null) };
    const sub = { meter: { mainSupply: false }, totals: { consumption: 1 }, bill: bill(4, null) };
    expect(locationBill([main, sub, sub])).toMatchObject({
      basis: 'mainSupply',
      count: 1,
      bill: { energy: 10 },
    });
    expect(billCurrency({ meters: [{ bill: null }, { bill: bill(1, null) }] })).toBe('EUR');
  });

  it('bills the meters the energy total counts: those with data, said to be partial (issue 34)', () => {
    // Elm Street, today: two meters report, two sent nothing. Energy 1.1 + 2.2 = 3.3 and total
    // (energy + 0.6 each) 1.7 + 2.8 = 4.5, from 2 of 4 meters; the silent ones' standing charges are
    // not added, as their energy is not.
    const reporting = (energy: number) => ({
      meter: { mainSupply: false },
      totals: { consumption: energy * 10 },
      bill: bill(energy, null),
    });
    const silent = { meter: { mainSupply: false }, totals: { consumption: null }, bill: bill(0, null) };
    const partial = locationBill([reporting(1.1), silent, reporting(2.2), silent]);
    expect(partial).toMatchObject({ basis: 'allMeters', count: 4, partial: { known: 2 } });
    expect(partial?.bill).toMatchObject({ energy: 3.3, total: 4.5 });
    expect(locationBill([reporting(1.1), reporting(2.2)])?.partial).toBeNull();
    expect(locationBill([silent, silent])).toBeNull();
  });
});

describe('the bill card (issue 34, the bill first)', () => {
  const meter = (energy: number, projection: number | null) => [
    { meter: { mainSupply: false }, totals: { consumption: 1 }, bill: bill(energy, projection) },
  ];

  it('says this bill so far, its projection, the last bill and the change, with the bar in shares', () => {
    // So far 40 + 0.6 = 40.6; projected 78.8 + 1.2 = 80; last bill 63.4 + 0.6 = 64.
    // Change 80 / 64 − 1 = 0.25. The bar's scale is the largest, 80: so far 40.6 / 80 = 0.5075,
    // the rest (80 − 40.6) / 80 = 0.4925, the last bill's mark 64 / 80 = 0.8.
    const figures = billCardFigures(meter(40, 78.8), meter(63.4, null));
    expect(figures).toEqual({
      currency: 'EUR',
      soFar: 40.6,
      projected: { total: 80, to: '2026-11-30T23:00:00.000Z' },
      last: 64,
      change: 0.25,
      bar: { soFar: 0.5075, rest: 0.4925, last: 0.8 },
      partial: false,
    });
  });

  it('compares what is so far when nothing is projected, and scales to a larger last bill', () => {
    // So far 19.4 + 0.6 = 20, no projection; last 39.4 + 0.6 = 40: change 20 / 40 − 1 = −0.5; scale 40.
    expect(billCardFigures(meter(19.4, null), meter(39.4, null))).toMatchObject({
      projected: null,
      change: -0.5,
      bar: { soFar: 0.5, rest: 0, last: 1 },
    });
    // No last bill (no tariff then): no change, no mark. No tariff now: no card.
    expect(billCardFigures(meter(19.4, null), [{ ...meter(0, null)[0]!, bill: null }])).toMatchObject({
      last: null,
      change: null,
      bar: { last: null },
    });
    expect(billCardFigures([{ ...meter(0, null)[0]!, bill: null }], null)).toBeNull();
  });
});

describe('partsAsShown', () => {
  it('shows parts that add up to the total shown (issue 34 low: 2.13 + 0.33 + 0.57 under 3.02)', () => {
    // EM-10001 on Nov 26: energy €2.1270, standing €0.3295, tax €0.5650, total €3.0215 (by hand).
    const shown = partsAsShown([2.127, 0.3295, 0.565], 3.0215, 2);
    // Rounded down: 2.12 + 0.32 + 0.56 = 3.00; two cents to go, to the largest remainders: the
    // standing charge (0.95 of a cent) and the energy (0.70).
    expect(shown).toEqual([2.13, 0.33, 0.56]);
    expect(Math.round(shown.reduce((a, b) => a + b, 0) * 100)).toBe(302);
  });

  it('keeps exact parts, counts a credit as negative, and knows currencies without cents', () => {
    expect(partsAsShown([10, 2.5, 2.875], 15.375, 2)).toEqual([10, 2.5, 2.88]);
    // Energy 5.004, tax 1.151, feed-in credit −1.003: total 5.152 → 5.15.
    expect(partsAsShown([5.004, 1.151, -1.003], 5.152, 2)).toEqual([5, 1.15, -1]);
    expect(partsAsShown([100.4, 50.4], 150.8, 0)).toEqual([101, 50]);
  });
});
