import { describe, expect, it } from 'vitest';
import {
  autoGranularity,
  effectiveGranularity,
  previousPeriod,
  projectionEnd,
  rangeDays,
  resolvePreset,
  samePeriodLastYear,
  validateRange,
} from './date-range.ts';

describe('presets', () => {
  const today = '2026-03-10';
  it.each([
    ['today', '2026-03-10', '2026-03-10'],
    ['yesterday', '2026-03-09', '2026-03-09'],
    ['last7', '2026-03-04', '2026-03-10'],
    ['thisMonth', '2026-03-01', '2026-03-10'],
    ['lastMonth', '2026-02-01', '2026-02-28'],
    ['thisYear', '2026-01-01', '2026-03-10'],
    ['last12Months', '2025-04-01', '2026-03-10'],
  ] as const)('%s → %s … %s', (preset, from, to) => {
    expect(resolvePreset(preset, today)).toEqual({ from, to });
  });

  it('yesterday on the 1st of January is in the previous year', () => {
    expect(resolvePreset('yesterday', '2026-01-01')).toEqual({ from: '2025-12-31', to: '2025-12-31' });
    expect(resolvePreset('lastMonth', '2026-01-20')).toEqual({ from: '2025-12-01', to: '2025-12-31' });
  });
});

describe('this bill so far', () => {
  it('is the billing period holding today', () => {
    expect(resolvePreset('thisBill', '2026-11-26', 28)).toEqual({ from: '2026-10-28', to: '2026-11-27' });
  });
});

describe('projectionEnd (issue 34)', () => {
  // Today 2026-11-27, the review's morning: November has 30 days, the billing day is 17.
  const today = '2026-11-27';
  const end = (preset: Parameters<typeof resolvePreset>[0]) =>
    projectionEnd(preset, resolvePreset(preset, today, 17), today);

  it('projects a calendar period so far to its end', () => {
    expect(end('thisMonth')).toBe('2026-11-30');
    expect(end('thisYear')).toBe('2026-12-31');
    // This bill: Nov 17 – Dec 16, its own end.
    expect(end('thisBill')).toBe('2026-12-16');
    // February of a leap year, and the month's last day itself.
    expect(projectionEnd('thisMonth', { from: '2028-02-01', to: '2028-02-10' }, '2028-02-10')).toBe(
      '2028-02-29',
    );
    expect(projectionEnd('thisMonth', { from: '2026-11-01', to: '2026-11-30' }, '2026-11-30')).toBe(
      '2026-11-30',
    );
  });

  it('projects no rolling or finished range', () => {
    expect(end('last7')).toBeNull();
    expect(end('last12Months')).toBeNull();
    expect(end('today')).toBeNull();
    expect(end('yesterday')).toBeNull();
    expect(end('lastMonth')).toBeNull();
    // Custom dates: ending today (rolling) or in the past, no; running past today, to their end.
    expect(projectionEnd(null, { from: '2026-11-01', to: today }, today)).toBeNull();
    expect(projectionEnd(null, { from: '2026-09-01', to: '2026-09-03' }, today)).toBeNull();
    expect(projectionEnd(null, { from: '2026-11-20', to: '2026-12-05' }, today)).toBe('2026-12-05');
    // A range wholly in the future has nothing so far to project from.
    expect(projectionEnd(null, { from: '2026-12-01', to: '2026-12-05' }, today)).toBeNull();
  });
});

describe('comparison periods', () => {
  it('a week → the week before', () => {
    expect(previousPeriod({ from: '2026-03-04', to: '2026-03-10' })).toEqual({
      from: '2026-02-25',
      to: '2026-03-03',
    });
  });
  it('a whole month → the whole month before (lengths differ)', () => {
    expect(previousPeriod({ from: '2026-03-01', to: '2026-03-31' })).toEqual({
      from: '2026-02-01',
      to: '2026-02-28',
    });
  });
  it('this month so far → the same days of last month', () => {
    expect(previousPeriod({ from: '2026-03-01', to: '2026-03-10' }, true)).toEqual({
      from: '2026-02-01',
      to: '2026-02-10',
    });
  });
  it('this year so far → the same part of last year', () => {
    expect(previousPeriod({ from: '2026-01-01', to: '2026-03-10' }, true)).toEqual({
      from: '2025-01-01',
      to: '2025-03-10',
    });
  });
  it('a finished custom range from the 1st → the days just before it (issue 34)', () => {
    // Sep 1–3 (Tue–Thu): the 3 days before are Aug 29–31, not Aug 1–3 (Sat–Mon).
    expect(previousPeriod({ from: '2026-09-01', to: '2026-09-03' })).toEqual({
      from: '2026-08-29',
      to: '2026-08-31',
    });
  });
  it('a billing period → the bill before it, to the day (issue 34)', () => {
    // Billing day 17: Nov 17 – Dec 16, going or not, against Oct 17 – Nov 16 (not Oct 18 – Nov 16).
    for (const isGoing of [true, false])
      expect(previousPeriod({ from: '2026-11-17', to: '2026-12-16' }, isGoing)).toEqual({
        from: '2026-10-17',
        to: '2026-11-16',
      });
    // A quarter from the 1st, and a whole year: whole months back.
    expect(previousPeriod({ from: '2026-01-01', to: '2026-03-31' })).toEqual({
      from: '2025-10-01',
      to: '2025-12-31',
    });
  });
  it('a single day → the day before', () => {
    expect(previousPeriod({ from: '2026-03-29', to: '2026-03-29' })).toEqual({
      from: '2026-03-28',
      to: '2026-03-28',
    });
  });
  it('same period last year keeps month ends and leap days sensible', () => {
    expect(samePeriodLastYear({ from: '2024-02-01', to: '2024-02-29' })).toEqual({
      from: '2023-02-01',
      to: '2023-02-28',
    });
    expect(samePeriodLastYear({ from: '2025-02-01', to: '2025-02-28' })).toEqual({
      from: '2024-02-01',
      to: '2024-02-29',
    });
    expect(samePeriodLastYear({ from: '2026-03-04', to: '2026-03-10' })).toEqual({
      from: '2025-03-04',
      to: '2025-03-10',
    });
  });
});

describe('granularity', () => {
  it('auto: readings for a few days, hours for two weeks, days up to the raw limit, then weeks and months', () => {
    expect(autoGranularity({ from: '2026-03-29', to: '2026-03-29' })).toBe('raw');
    expect(autoGranularity({ from: '2026-03-04', to: '2026-03-10' })).toBe('hour');
    expect(autoGranularity({ from: '2026-03-01', to: '2026-03-31' })).toBe('day');
    expect(autoGranularity({ from: '2025-01-01', to: '2025-12-31' })).toBe('day');
    expect(autoGranularity({ from: '2023-01-01', to: '2025-12-31' })).toBe('week');
    expect(autoGranularity({ from: '2015-01-01', to: '2025-12-31' })).toBe('month');
    expect(effectiveGranularity('raw', { from: '2025-01-01', to: '2025-12-31' })).toBe('raw');
  });
  it('counts days inclusively', () => {
    expect(rangeDays({ from: '2026-03-01', to: '2026-03-01' })).toBe(1);
  });
});

describe('validateRange', () => {
  it('names the field at fault', () => {
    expect(validateRange({ from: '2026-03-10', to: '2026-03-01' })).toEqual({ field: 'to', reason: 'order' });
    expect(validateRange({ from: 'x', to: '2026-03-01' })).toEqual({ field: 'from', reason: 'invalid' });
    expect(validateRange({ from: '2026-03-01', to: '2026-02-30' })).toEqual({
      field: 'to',
      reason: 'invalid',
    });
    expect(validateRange({ from: '2026-03-01', to: '2026-03-01' })).toBeNull();
  });
});
