import type { Bill } from '@cm/contracts/check.ts';
import { describe, expect, it } from 'vitest';
import { billCurrency, locationBill } from './bill.ts';

const bill = (energy: number, projection: number | null): Bill => ({
  currency: 'EUR',
  energy,
  standingCharge: 0.5,
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
          tax: 0.2,
          feedIn: 0,
          total: projection + 1.2,
          averagedDays: 1,
          to: '2026-11-30T23:00:00.000Z',
        },
});

describe('a location bill', () => {
  it('adds each meter’s charges; projects only when every meter does', () => {
    const sub = { meter: { mainSupply: false } };
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
    const main = { meter: { mainSupply: true }, bill: bill(10, null) };
    const sub = { meter: { mainSupply: false }, bill: bill(4, null) };
    expect(locationBill([main, sub, sub])).toMatchObject({
      basis: 'mainSupply',
      count: 1,
      bill: { energy: 10 },
    });
    expect(billCurrency({ meters: [{ bill: null }, { bill: bill(1, null) }] })).toBe('EUR');
  });
});
