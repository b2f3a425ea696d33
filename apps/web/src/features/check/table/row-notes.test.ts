import { describe, expect, it } from 'vitest';
import { buildRows, type ReadingRows } from '../model/reading-rows.ts';
import { consumptionCell, consumptionText, energyText, exportAndNet, rowNotes } from './row-notes.ts';
import { dailyReadings, rawReadings, withExport } from '@/test-support/check-fixtures.ts';

const t = (key: string) => `<${key}>`;

describe('rowNotes', () => {
  it('marks the 23-hour day, and a gap row by whether its energy is known', () => {
    const rows = buildRows(dailyReadings(), 'day', Date.parse('2026-03-30T22:00:00Z'));
    expect(rowNotes(rows, 1, 'day')).toEqual([
      { key: 'check.table.missing', values: { count: 24 }, tone: 'red' },
      { key: 'check.table.hours', values: { count: 23 }, tone: 'grape' },
    ]);
    expect(rowNotes(rows, 2, 'day').map((note) => note.key)).toEqual(['check.table.gap']);

    const raw = buildRows(
      rawReadings('2026-01-01T00:00:00Z', '2026-01-01T01:00:00Z', { skip: (i) => i === 2 }),
      'raw',
      Date.parse('2026-01-01T01:00:00Z'),
    );
    expect(raw.kind).toEqual(['interval', 'gap', 'interval']);
    expect(rowNotes(raw, 1, 'raw')).toEqual([
      { key: 'check.table.gapWithEnergy', values: { count: 1 }, tone: 'red' },
    ]);
  });

  it('marks the second pass of the hour the clocks go back over, and only that (17.9)', () => {
    // Berlin, 25 October 2026: 03:00 summer time (01:00 UTC) becomes 02:00 winter time, so the
    // local times 02:00–02:59 come twice; the second time from 01:00 to 02:00 UTC.
    const raw = buildRows(
      rawReadings('2026-10-24T23:00:00Z', '2026-10-25T03:00:00Z'),
      'raw',
      Date.parse('2026-10-25T03:00:00Z'),
    );
    const marked = raw.start.flatMap((start, i) =>
      rowNotes(raw, i, 'raw').some((note) => note.key === 'check.table.repeatedHour')
        ? [new Date(start).toISOString()]
        : [],
    );
    expect(marked).toEqual([
      '2026-10-25T01:00:00.000Z',
      '2026-10-25T01:15:00.000Z',
      '2026-10-25T01:30:00.000Z',
      '2026-10-25T01:45:00.000Z',
    ]);
  });

  it('calls a clock-change week a week, not a day, and notes events after the gap', () => {
    const rows: ReadingRows = {
      start: [0],
      end: [167 * 3_600_000],
      consumption: [10],
      register: [10],
      missing: [0],
      estimated: [2],
      substituted: [1],
      corrected: [3],
      exported: null,
      net: null,
      cost: null,
      demand: null,
      demandAt: null,
      demandAtLeast: [false],
      hours: [167],
      kind: ['interval'],
      inBucket: [false],
      meterNumber: ['EM-2'],
      events: new Map([[0, [{ type: 'meterExchange', meterNumber: 'EM-2' }]]]),
      partial: new Map(),
      repeated: new Set(),
    };
    expect(rowNotes(rows, 0, 'week').map((note) => note.key)).toEqual([
      'check.table.event.meterExchange',
      'check.table.estimated',
      'check.table.substituted',
      'check.table.corrected',
      'check.table.weekHours',
    ]);
    expect(rowNotes(rows, 0, 'month').map((note) => note.key)).not.toContain('check.table.weekHours');
  });
});

describe('partial buckets', () => {
  it('says the first bucket counts from the range start and the last one is still going', () => {
    // Issue 17.2: a week begun before the range, and today, are parts of their buckets.
    const readings = dailyReadings();
    const going = { ...readings, totals: { ...readings.totals, dataEnd: '2026-03-30T10:00:00.000Z' } };
    const rows = buildRows(
      going,
      'day',
      Date.parse('2026-03-30T22:00:00Z'),
      Date.parse('2026-03-28T00:00:00Z'),
    );
    expect(rowNotes(rows, 0, 'day').map((note) => note.key)).toEqual(['check.table.partial.fromRangeStart']);
    expect(rowNotes(rows, 3, 'day').map((note) => note.key)).toContain('check.table.partial.soFar');
    expect([1, 2].flatMap((i) => rowNotes(rows, i, 'day').map((note) => note.key))).not.toContain(
      'check.table.partial.soFar',
    );
    // Raw rows are never partial.
    const raw = buildRows(
      rawReadings('2026-01-01T00:00:00Z', '2026-01-01T01:00:00Z'),
      'raw',
      Date.parse('2026-01-01T01:00:00Z'),
      Date.parse('2026-01-01T00:30:00Z'),
    );
    expect(raw.partial.size).toBe(0);
  });
});

describe('consumptionCell', () => {
  it('shows three decimals, the bucket holding a gap, or unknown', () => {
    const rows = buildRows(dailyReadings(), 'day', Date.parse('2026-03-30T22:00:00Z'));
    expect(consumptionText(consumptionCell(rows, 0, 'day'), 'de', t)).toBe('20,000');
    expect(consumptionText(consumptionCell(rows, 2, 'day'), 'en', t)).toBe('<check.table.inBucket.day>');
    expect(consumptionText(consumptionCell(rows, 3, 'day'), 'en', t)).toBe('—');
    const unknownGap = { ...rows, inBucket: rows.inBucket.map(() => false) };
    expect(consumptionText(consumptionCell(unknownGap, 2, 'day'), 'en', t)).toBe('<check.table.unknown>');
  });
});

describe('export and net beside meters without an export channel (issue 34)', () => {
  it('shows no export ("—") and the import as net, where the meter has no export channel', () => {
    const end = Date.parse('2026-06-01T10:15:00Z');
    const plain = buildRows(rawReadings('2026-06-01T10:00:00Z', '2026-06-01T10:15:00Z'), 'raw', end);
    const solar = buildRows(
      withExport(rawReadings('2026-06-01T10:00:00Z', '2026-06-01T10:15:00Z'), 0.1),
      'raw',
      end,
    );
    // 0.25 kWh in each quarter hour; the solar meter sends 0.1 out: net 0.15.
    expect(exportAndNet(plain, 0)).toEqual({ exported: 'none', net: 0.25 });
    expect(exportAndNet(solar, 0)).toEqual({ exported: 0.1, net: 0.15 });
    expect(energyText(exportAndNet(plain, 0).exported, 'en', t)).toBe('—');
    expect(energyText(exportAndNet(plain, 0).net, 'en', t)).toBe('0.250');
    expect(energyText(null, 'en', t)).toBe('<check.table.unknown>');
  });
});
