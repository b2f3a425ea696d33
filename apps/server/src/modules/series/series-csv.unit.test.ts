import { describe, expect, it } from 'vitest';
import { parseSeriesCsv, parseSeriesValue } from './series-csv.ts';
import { CARBON_RULE, PRICE_RULE } from './series.service.ts';

// Series files (issue 36): what a day-ahead price file or a grid operator's intensities look like,
// and the line-numbered reasons a bad one is refused. Instants are worked out from the zone's clock
// by hand: Amsterdam is UTC+1 in winter, UTC+2 from 2026-03-29 02:00 (01:00Z) to 2026-10-25 03:00
// (01:00Z).

const HALF_HOURS = { timeZone: 'Europe/Amsterdam', intervalMinutes: 30 };
const at = (iso: string) => Date.parse(iso);

describe('series values', () => {
  it('reads a decimal point, a decimal comma where allowed, signs, and refuses more decimals', () => {
    expect(parseSeriesValue('85.37', PRICE_RULE, false)).toBe(85_370_000);
    expect(parseSeriesValue('85,37', PRICE_RULE, true)).toBe(85_370_000);
    expect(parseSeriesValue('-0.000001', PRICE_RULE, false)).toBe(-1);
    expect(parseSeriesValue('85,37', PRICE_RULE, false)).toMatch(/not a number/);
    expect(parseSeriesValue('1.0000001', PRICE_RULE, false)).toMatch(/more than 6 decimals/);
    expect(parseSeriesValue('312.5', CARBON_RULE, false)).toBe(312_500);
    expect(parseSeriesValue('-1', CARBON_RULE, false)).toMatch(/out of range/);
  });
});

describe('a series file', () => {
  it('reads local times over the spring change and ISO instants with offsets', () => {
    const text = [
      'start;price',
      '2026-03-29 01:00;60,5',
      '2026-03-29 01:30;40',
      '2026-03-29 03:00;120',
      '2026-03-29T01:30:00Z;-5,25',
    ].join('\n');
    const parsed = parseSeriesCsv(text, HALF_HOURS, PRICE_RULE);
    expect(parsed.errors).toEqual([]);
    expect(parsed.points).toEqual([
      { startMs: at('2026-03-29T00:00:00Z'), value: 60_500_000 },
      { startMs: at('2026-03-29T00:30:00Z'), value: 40_000_000 },
      { startMs: at('2026-03-29T01:00:00Z'), value: 120_000_000 },
      { startMs: at('2026-03-29T01:30:00Z'), value: -5_250_000 },
    ]);
  });

  it('tells the two passes of the fall-back hour apart by their order in the file', () => {
    const text = [
      '2026-10-25 02:00,50',
      '2026-10-25 02:30,51',
      '2026-10-25 02:00,52',
      '2026-10-25 02:30,53',
    ].join('\n');
    const parsed = parseSeriesCsv(text, HALF_HOURS, PRICE_RULE);
    // 02:00 CEST = 00:00Z, 02:30 CEST = 00:30Z, then 02:00 CET = 01:00Z, 02:30 CET = 01:30Z.
    expect(parsed.points.map((point) => new Date(point.startMs).toISOString())).toEqual([
      '2026-10-25T00:00:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-25T01:00:00.000Z',
      '2026-10-25T01:30:00.000Z',
    ]);
  });

  it('names every bad line and keeps nothing', () => {
    const text = [
      'start,price',
      '2026-03-29 00:30,85.37', // 23:30Z on the 28th
      '2026-03-29 02:00,90', // skipped by the clocks
      '2026-03-29 03:15,90', // not a half hour
      '2026-03-29T00:00:00+01:00,91', // 23:00Z on the 28th: fine
      '2026-03-28T23:00:00Z,92', // the same interval again
      'yesterday,1',
      '2026-03-29 04:00,85,37', // a decimal comma with , as the delimiter
      '2026-03-29 05:00,abc',
    ].join('\n');
    const parsed = parseSeriesCsv(text, HALF_HOURS, PRICE_RULE);
    expect(parsed.points).toEqual([]);
    expect(parsed.errors).toEqual([
      'Line 3: 2026-03-29 02:00 does not exist in Europe/Amsterdam (the clocks skipped it).',
      'Line 4: 2026-03-29 03:15 does not start a 30-minute interval of this series.',
      'Line 6: the interval starting 2026-03-28T23:00:00.000Z is given twice (first on line 5).',
      'Line 7: "yesterday" is not a time such as 2026-03-29T01:00:00+01:00 or 2026-03-29 01:00.',
      'Line 8: expected 2 cells (start,price), found 3. A decimal comma needs ; as the delimiter.',
      'Line 9: the price "abc" is not a number such as 85.37.',
    ]);
  });

  it('refuses an empty file', () => {
    expect(parseSeriesCsv('start,intensity\n', HALF_HOURS, CARBON_RULE).errors).toEqual([
      'The file has no lines of start and value.',
    ]);
  });
});
