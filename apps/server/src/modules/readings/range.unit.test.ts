import { describe, expect, it } from 'vitest';
import type { Granularity } from '@cm/contracts/check.ts';
import { RangeInputError, resolveRange } from './range.ts';

function errorOf(fn: () => unknown): RangeInputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof RangeInputError) return error;
    throw error;
  }
  throw new Error('expected a RangeInputError');
}

describe('resolveRange', () => {
  it('reads dates as whole local days, To included', () => {
    expect(resolveRange({ From: '2026-03-29', To: '2026-03-29' }, 'Europe/Berlin', 'raw')).toEqual({
      fromMs: Date.UTC(2026, 2, 28, 23),
      toMs: Date.UTC(2026, 2, 29, 22),
    });
    expect(resolveRange({ From: '2026-01-01', To: '2026-01-31' }, 'Asia/Kathmandu', 'day')).toEqual({
      fromMs: Date.UTC(2025, 11, 31, 18, 15),
      toMs: Date.UTC(2026, 0, 31, 18, 15),
    });
  });

  it('starts a day whose midnight does not exist when the clock jumps', () => {
    // Chile moves its clocks from 00:00 to 01:00 on the first Sunday of September.
    expect(resolveRange({ From: '2026-09-06', To: '2026-09-06' }, 'America/Santiago', 'hour')).toEqual({
      fromMs: Date.UTC(2026, 8, 6, 4),
      toMs: Date.UTC(2026, 8, 7, 3),
    });
  });

  it('reads instants with an offset as they are, To excluded', () => {
    expect(
      resolveRange({ From: '2026-03-01T00:00:00+01:00', To: '2026-03-01T06:30Z' }, 'Europe/Berlin', 'raw'),
    ).toEqual({
      fromMs: Date.UTC(2026, 1, 28, 23),
      toMs: Date.UTC(2026, 2, 1, 6, 30),
    });
    expect(
      resolveRange({ From: '2026-03-01T00:00:00.25-05:45', To: '2026-03-02' }, 'UTC', 'raw').fromMs,
    ).toBe(Date.UTC(2026, 2, 1, 5, 45, 0, 250));
  });

  it('measures the raw limit in local days, so a DST change does not cost an hour', () => {
    // 2025-10-01 … 2026-11-04 is 400 local days and 400 days + 1 hour of elapsed time in Berlin.
    expect(() =>
      resolveRange({ From: '2025-10-01', To: '2026-11-04' }, 'Europe/Berlin', 'raw'),
    ).not.toThrow();
    expect(
      errorOf(() => resolveRange({ From: '2025-10-01', To: '2026-11-05' }, 'Europe/Berlin', 'raw')).param,
    ).toBe('granularity');
  });

  const refused: [
    string,
    { From: string; To: string },
    Granularity,
    'From' | 'To' | 'granularity',
    RegExp,
  ][] = [
    [
      'an instant without offset',
      { From: '2026-03-01T00:00', To: '2026-03-02' },
      'raw',
      'From',
      /offset.*date/,
    ],
    [
      'an impossible date',
      { From: '2026-03-01', To: '2026-02-30' },
      'raw',
      'To',
      /not a real calendar date \(2026-02-30\)/,
    ],
    ['a month 13', { From: '2026-13-01', To: '2027-01-02' }, 'day', 'From', /calendar date/],
    ['a year before 1970', { From: '1969-12-31', To: '2026-01-01' }, 'month', 'From', /1970 and 2100/],
    ['a year after 2100', { From: '2026-01-01', To: '2101-01-01' }, 'month', 'To', /1970 and 2100/],
    ['From after To', { From: '2026-03-02', To: '2026-03-01' }, 'day', 'To', /after From/],
    ['From equal to To', { From: '2026-03-01T00:00Z', To: '2026-03-01T00:00Z' }, 'day', 'To', /after From/],
    [
      'a raw range over 400 days',
      { From: '2025-01-01', To: '2026-02-05' },
      'raw',
      'granularity',
      /day, week or month/,
    ],
    [
      'an hour range over 400 days',
      { From: '2025-01-01', To: '2026-02-05' },
      'hour',
      'granularity',
      /400 days/,
    ],
    [
      'a range over 11000 days',
      { From: '1971-01-01', To: '2001-02-15' },
      'month',
      'To',
      /at most 11000 days/,
    ],
    ['an hour 25', { From: '2026-03-01T25:00Z', To: '2026-03-02' }, 'raw', 'From', /time of day/],
    ['a bad offset', { From: '2026-03-01T00:00+1', To: '2026-03-02' }, 'raw', 'From', /offset/],
    ['an offset of 15 hours', { From: '2026-03-01T00:00+15:00', To: '2026-03-02' }, 'raw', 'From', /offset/],
    ['a "+" decoded as space', { From: '2026-03-01T00:00:00 01:00', To: '2026-03-02' }, 'raw', 'From', /%2B/],
    [
      'SQL',
      { From: "2026-03-01'; DROP TABLE readings;--", To: '2026-03-02' },
      'raw',
      'From',
      /^From .*2026-03-01T00:00:00Z/,
    ],
    [
      'a NUL byte',
      { From: '2026-03-01', To: '2026-03-02\u0000' },
      'raw',
      'To',
      /^To is not a date or an instant/,
    ],
    ['a newline', { From: '2026-03-01T00:00Z\nX', To: '2026-03-02' }, 'raw', 'From', /^From is not a date/],
    ['a huge string', { From: '2026-03-01', To: '9'.repeat(100_000) }, 'raw', 'To', /^To is too long/],
    ['an empty string', { From: '', To: '2026-03-02' }, 'raw', 'From', /^From is required/],
    ['a number', { From: '1772323200000', To: '2026-03-02' }, 'raw', 'From', /^From is not a date/],
  ];
  for (const [name, input, granularity, param, message] of refused) {
    it(`refuses ${name}, naming ${param}`, () => {
      const error = errorOf(() => resolveRange(input, 'Europe/Berlin', granularity));
      expect(error.param).toBe(param);
      expect(error.message).toMatch(message);
      expect(error.message.startsWith(param) || param === 'To').toBe(true);
    });
  }

  it('accepts up to 11000 days at day granularity and 400 at raw', () => {
    expect(() => resolveRange({ From: '1990-01-01', To: '2020-01-01' }, 'UTC', 'month')).not.toThrow();
    expect(() => resolveRange({ From: '2025-01-01', To: '2026-02-04' }, 'UTC', 'raw')).not.toThrow();
  });
});
