import { describe, expect, it } from 'vitest';
import { comparisonChange, comparisonPlans } from './comparison.ts';

// Issue 17.1: a period still going is compared with the same stretch of the earlier one, never
// with the whole of it; finished periods of different lengths per day; never the same range twice.

const BERLIN = 'Europe/Berlin';
/** 2026-11-25 03:00 in Berlin (UTC+01:00). */
const THREE_AM = Date.parse('2026-11-25T02:00:00Z');

describe('comparison plans', () => {
  it('compare today so far with yesterday up to the same local time', () => {
    const today = { from: '2026-11-25', to: '2026-11-25' };
    // The last reading of today came at 02:45.
    const dataEndMs = Date.parse('2026-11-25T01:45:00Z');
    const [previous, lastYear] = comparisonPlans(today, BERLIN, THREE_AM, { dataEndMs });
    expect(previous).toMatchObject({
      kind: 'previous',
      range: { from: '2026-11-24', to: '2026-11-24' },
      basis: 'soFar',
      query: { From: '2026-11-24', To: '2026-11-24T01:45:00.000Z' },
      untilMs: Date.parse('2026-11-24T01:45:00Z'),
    });
    expect(lastYear).toMatchObject({
      kind: 'lastYear',
      query: { From: '2025-11-25', To: '2025-11-25T01:45:00.000Z' },
    });
  });

  it('wait for the range’s own answer, and ask nothing while the range has no data yet', () => {
    const today = { from: '2026-11-25', to: '2026-11-25' };
    const waiting = comparisonPlans(today, BERLIN, THREE_AM, undefined);
    expect(waiting.map((plan) => [plan.query, plan.awaitsRange])).toEqual([
      [null, true],
      [null, true],
    ]);
    const empty = comparisonPlans(today, BERLIN, THREE_AM, { dataEndMs: null });
    expect(empty.map((plan) => [plan.query, plan.awaitsRange])).toEqual([
      [null, false],
      [null, false],
    ]);
  });

  it('keep the local time across a DST change: 01:30 on the day summer time began is 23 h earlier', () => {
    // 2026-03-30 01:30 CEST (UTC+02:00); on the 29th, 01:30 was still CET (UTC+01:00).
    const dataEndMs = Date.parse('2026-03-29T23:30:00Z');
    const [previous, lastYear] = comparisonPlans(
      { from: '2026-03-30', to: '2026-03-30' },
      BERLIN,
      dataEndMs,
      {
        dataEndMs,
      },
    );
    expect(previous?.query?.To).toBe('2026-03-29T00:30:00.000Z');
    // 2025-03-30 was that year's change day: 01:30 was CET.
    expect(lastYear?.query?.To).toBe('2025-03-30T00:30:00.000Z');
  });

  it('compare the last 7 days so far with the 7 days before, cut on the seventh', () => {
    const last7 = { from: '2026-11-19', to: '2026-11-25' };
    const [previous] = comparisonPlans(last7, BERLIN, THREE_AM, { dataEndMs: THREE_AM });
    expect(previous?.range).toEqual({ from: '2026-11-12', to: '2026-11-18' });
    expect(previous?.query).toEqual({ From: '2026-11-12', To: '2026-11-18T02:00:00.000Z' });
  });

  it('compare this month so far with the same days of last month', () => {
    const [previous] = comparisonPlans({ from: '2026-11-01', to: '2026-11-25' }, BERLIN, THREE_AM, {
      dataEndMs: THREE_AM,
    });
    // 25 October 2026 is the day summer time ends: 03:00 comes after the change, CET (UTC+01:00).
    expect(previous?.query).toEqual({ From: '2026-10-01', To: '2026-10-25T02:00:00.000Z' });
  });

  it('offer one comparison for this year and the last 12 months, where previous is last year', () => {
    const data = { dataEndMs: THREE_AM };
    const thisYear = comparisonPlans({ from: '2026-01-01', to: '2026-11-25' }, BERLIN, THREE_AM, data);
    expect(thisYear.map((plan) => plan.kind)).toEqual(['lastYear']);
    const last12 = comparisonPlans({ from: '2025-12-01', to: '2026-11-25' }, BERLIN, THREE_AM, data);
    expect(last12.map((plan) => plan.kind)).toEqual(['lastYear']);
  });

  it('compare finished periods whole, or per day when their lengths differ', () => {
    const march = comparisonPlans({ from: '2026-03-01', to: '2026-03-31' }, BERLIN, THREE_AM, undefined);
    expect(march[0]).toMatchObject({
      kind: 'previous',
      range: { from: '2026-02-01', to: '2026-02-28' },
      basis: 'perDay',
      days: 28,
      rangeDays: 31,
      query: { From: '2026-02-01', To: '2026-02-28' },
    });
    expect(march[1]).toMatchObject({ kind: 'lastYear', basis: 'whole', days: 31 });
    const week = comparisonPlans({ from: '2026-11-10', to: '2026-11-16' }, BERLIN, THREE_AM, undefined);
    expect(week.map((plan) => plan.basis)).toEqual(['whole', 'whole']);
  });
});

describe('comparison change', () => {
  it('is total against total, or per day against per day', () => {
    expect(comparisonChange({ basis: 'whole', days: 7, rangeDays: 7 }, 110, 100)).toBeCloseTo(0.1);
    expect(comparisonChange({ basis: 'soFar', days: 1, rangeDays: 1 }, 90, 100)).toBeCloseTo(-0.1);
    // March 310 kWh (10 a day) against February 280 kWh (10 a day): no change, not +10.7 %.
    expect(comparisonChange({ basis: 'perDay', days: 28, rangeDays: 31 }, 310, 280)).toBeCloseTo(0);
    expect(comparisonChange({ basis: 'whole', days: 7, rangeDays: 7 }, 90, 0)).toBeNull();
    expect(comparisonChange({ basis: 'whole', days: 7, rangeDays: 7 }, null, 100)).toBeNull();
  });
});
