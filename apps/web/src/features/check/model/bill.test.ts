import type { Bill } from '@cm/contracts/check.ts';
import { describe, expect, it } from 'vitest';
import { billCurrency, combinedBill } from './bill.ts';

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
        },
});

describe('a location bill', () => {
  it('adds each meter’s charges; projects only when every meter does', () => {
    const both = combinedBill([{ bill: bill(1.1, 2.2) }, { bill: bill(2.2, 4.4) }, { bill: null }]);
    // 1.1 + 2.2 = 3.3 (not 3.3000000000000003), standing 0.5 + 0.5, tax 0.1 + 0.1, total 1.7 + 2.8.
    expect(both).toMatchObject({ energy: 3.3, standingCharge: 1, tax: 0.2, total: 4.5, standingDays: 1 });
    expect(both?.projection).toMatchObject({ energy: 6.6, standingCharge: 2, total: 9 });
    expect(combinedBill([{ bill: bill(1, 2) }, { bill: bill(1, null) }])?.projection).toBeNull();
    expect(combinedBill([{ bill: null }])).toBeNull();
    expect(billCurrency({ meters: [{ bill: null }, { bill: bill(1, null) }] })).toBe('EUR');
  });
});
