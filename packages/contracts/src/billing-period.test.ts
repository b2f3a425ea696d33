import { describe, expect, it } from 'vitest';
import { billingPeriod } from './billing-period.ts';

describe('billing period', () => {
  it('runs from the last billing day to the day before the next, past today', () => {
    // Billing on the 17th: on the 26th of November the bill started on the 17th and ends on 16 Dec.
    expect(billingPeriod('2026-11-26', 17)).toEqual({ from: '2026-11-17', to: '2026-12-16' });
    // Before the 17th the bill began last month; across a year end too.
    expect(billingPeriod('2026-11-05', 17)).toEqual({ from: '2026-10-17', to: '2026-11-16' });
    expect(billingPeriod('2027-01-03', 17)).toEqual({ from: '2026-12-17', to: '2027-01-16' });
    expect(billingPeriod('2026-11-17', 17)).toEqual({ from: '2026-11-17', to: '2026-12-16' });
    // No billing day: calendar months, to the month's end (February of a leap year).
    expect(billingPeriod('2028-02-10', null)).toEqual({ from: '2028-02-01', to: '2028-02-29' });
  });
});
