import { describe, expect, it } from 'vitest';
import { CSV_LINE_END } from '@cm/contracts/csv.ts';
import { buildCsv, csvFilename, defaultCsvFormat, type CsvInput } from './csv.ts';
import { buildRows } from '../model/reading-rows.ts';
import { dailyReadings, rawReadings, withExport } from '@/test-support/check-fixtures.ts';

const headers: CsvInput['headers'] = {
  meterInd: 'Meter position',
  meter: 'Meter',
  start: 'Start',
  end: 'End',
  type: 'Type',
  consumption: 'Consumption (kWh)',
  imported: 'Import (kWh)',
  exported: 'Export (kWh)',
  net: 'Net (kWh)',
  cost: 'Cost (EUR)',
  demand: 'Peak demand (kW)',
  demandAt: 'Peak start',
  demandAtLeast: 'Peak at least',
  register: 'Register',
  missing: 'Missing readings',
  estimated: 'Estimated readings',
  substituted: 'Substituted values',
  corrected: 'Corrected values',
  hours: 'Hours',
};
const kinds = {
  interval: 'interval',
  gap: 'gap',
  period: 'billing period',
  demandCharge: 'demand charge',
  capacityCharge: 'capacity charge',
} as const;

function csvOf(
  fromIso: string,
  toIso: string,
  format = defaultCsvFormat('en'),
  skip?: (i: number) => boolean,
): string[] {
  const readings = rawReadings(fromIso, toIso, { step: 0.25, start: 1000, ...(skip ? { skip } : {}) });
  const rows = buildRows(readings, 'raw', Date.parse(toIso));
  const text = buildCsv({
    blocks: [{ meterInd: 3, rows }],
    granularity: 'raw',
    timeZone: 'Europe/Berlin',
    headers,
    kinds,
    format,
  });
  expect(text.startsWith('\uFEFF')).toBe(true);
  expect(text.endsWith(CSV_LINE_END)).toBe(true);
  return text.slice(1, -CSV_LINE_END.length).split(CSV_LINE_END);
}

describe('CSV of a spring DST day (Berlin, 2026-03-29: 23 hours)', () => {
  // Local midnight to midnight: 23:00Z on the 28th to 22:00Z on the 29th, 93 readings, 92 intervals.
  const lines = csvOf('2026-03-28T23:00:00Z', '2026-03-29T22:00:00Z');

  it('has a header and 92 interval rows', () => {
    expect(lines[0]).toBe(
      'Meter,Start,End,Type,Consumption (kWh),Register,Missing readings,Estimated readings,Substituted values,Corrected values',
    );
    expect(lines).toHaveLength(1 + 92);
  });

  it('every line, with the offset in force: +01:00 up to 02:00, then +02:00 from 03:00', () => {
    const expected: string[] = [];
    let ms = Date.parse('2026-03-28T23:00:00Z');
    let register = 1000;
    const iso = (t: number) => {
      const offset = t >= Date.parse('2026-03-29T01:00:00Z') ? 2 : 1;
      const local = new Date(t + offset * 3_600_000).toISOString().slice(0, 19);
      return `${local}+0${offset}:00`;
    };
    for (let i = 0; i < 92; i++) {
      register = Math.round((register + 0.25) * 1000) / 1000;
      expected.push(`EM-10009,${iso(ms)},${iso(ms + 900_000)},interval,0.25,${register},0,0,0,0`);
      ms += 900_000;
    }
    expect(lines.slice(1)).toEqual(expected);
    expect(lines[1]).toBe(
      'EM-10009,2026-03-29T00:00:00+01:00,2026-03-29T00:15:00+01:00,interval,0.25,1000.25,0,0,0,0',
    );
    expect(lines[8]).toBe(
      'EM-10009,2026-03-29T01:45:00+01:00,2026-03-29T03:00:00+02:00,interval,0.25,1002,0,0,0,0',
    );
    expect(lines[9]).toBe(
      'EM-10009,2026-03-29T03:00:00+02:00,2026-03-29T03:15:00+02:00,interval,0.25,1002.25,0,0,0,0',
    );
    expect(lines[92]).toBe(
      'EM-10009,2026-03-29T23:45:00+02:00,2026-03-30T00:00:00+02:00,interval,0.25,1023,0,0,0,0',
    );
  });
});

describe('CSV of an autumn DST day (Berlin, 2026-10-25: 25 hours)', () => {
  const lines = csvOf('2026-10-24T22:00:00Z', '2026-10-25T23:00:00Z', { separator: ';', decimal: ',' });

  it('has 100 rows and the repeated hour twice, told apart by its offset', () => {
    expect(lines).toHaveLength(1 + 100);
    const starts = lines.slice(1).map((line) => line.split(';')[1]);
    expect(starts.filter((s) => s?.startsWith('2026-10-25T02:00:00'))).toEqual([
      '2026-10-25T02:00:00+02:00',
      '2026-10-25T02:00:00+01:00',
    ]);
    expect(new Set(starts).size).toBe(100);
  });

  it('uses ; and a decimal comma', () => {
    expect(lines[0]).toBe(
      'Meter;Start;End;Type;Consumption (kWh);Register;Missing readings;Estimated readings;Substituted values;Corrected values',
    );
    expect(lines[1]).toBe(
      'EM-10009;2026-10-25T00:00:00+02:00;2026-10-25T00:15:00+02:00;interval;0,25;1000,25;0;0;0;0',
    );
    expect(lines[100]).toBe(
      'EM-10009;2026-10-25T23:45:00+01:00;2026-10-26T00:00:00+01:00;interval;0,25;1025;0;0;0;0',
    );
  });
});

describe('CSV with a gap', () => {
  it('writes the gap as one row with the energy the registers show, and the column adds up to the total', () => {
    // Readings 9 … 14 missing: the interval from reading 8 to reading 15 is one gap of 6 missing readings.
    const lines = csvOf(
      '2026-09-03T22:00:00Z',
      '2026-09-04T22:00:00Z',
      defaultCsvFormat('en'),
      (i) => i >= 9 && i <= 14,
    );
    const gap = lines.filter((line) => line.includes(',gap,'));
    expect(gap).toEqual([
      'EM-10009,2026-09-04T02:00:00+02:00,2026-09-04T03:45:00+02:00,gap,1.75,1003.75,6,0,0,0',
    ]);
    expect(lines).toHaveLength(1 + 96 - 6);
    const sum =
      lines.slice(1).reduce((total, line) => total + Math.round(Number(line.split(',')[4]) * 1000), 0) / 1000;
    expect(sum).toBe(24);
  });
});

/** The lines (no BOM, no last line end) of raw blocks in UTC, in English. */
function utcCsvLines(blocks: CsvInput['blocks']): string[] {
  const text = buildCsv({
    blocks,
    granularity: 'raw',
    timeZone: 'UTC',
    headers,
    kinds,
    format: defaultCsvFormat('en'),
  });
  return text.slice(1, -CSV_LINE_END.length).split(CSV_LINE_END);
}

describe('CSV of a meter with an export channel', () => {
  it('writes import, export and net side by side', () => {
    const readings = withExport(rawReadings('2026-06-01T10:00:00Z', '2026-06-01T10:30:00Z'), 0.1);
    const rows = buildRows(readings, 'raw', Date.parse('2026-06-01T10:30:00Z'));
    const lines = utcCsvLines([{ meterInd: 3, rows }]);
    // 0.25 kWh in and 0.1 kWh out each quarter hour: 0.15 kWh net.
    expect(lines).toEqual([
      'Meter,Start,End,Type,Import (kWh),Export (kWh),Net (kWh),Register,Missing readings,Estimated readings,Substituted values,Corrected values',
      'EM-10009,2026-06-01T10:00:00+00:00,2026-06-01T10:15:00+00:00,interval,0.25,0.1,0.15,1000.25,0,0,0,0',
      'EM-10009,2026-06-01T10:15:00+00:00,2026-06-01T10:30:00+00:00,interval,0.25,0.1,0.15,1000.5,0,0,0,0',
    ]);
  });
});

describe('CSV of a location where one meter has no export channel (issue 34)', () => {
  it('writes no export for that meter and its import as its net, not "unknown"', () => {
    const solar = withExport(rawReadings('2026-06-01T10:00:00Z', '2026-06-01T10:15:00Z'), 0.1);
    const plain = rawReadings('2026-06-01T10:00:00Z', '2026-06-01T10:15:00Z');
    const end = Date.parse('2026-06-01T10:15:00Z');
    const lines = utcCsvLines([
      { meterInd: 1, rows: buildRows(solar, 'raw', end) },
      { meterInd: 2, rows: buildRows(plain, 'raw', end) },
    ]);
    // Meter 1: 0.25 in, 0.1 out, 0.15 net. Meter 2 measures import only: no export, net 0.25.
    expect(lines.slice(1)).toEqual([
      '1,EM-10009,2026-06-01T10:00:00+00:00,2026-06-01T10:15:00+00:00,interval,0.25,0.1,0.15,1000.25,0,0,0,0',
      '2,EM-10009,2026-06-01T10:00:00+00:00,2026-06-01T10:15:00+00:00,interval,0.25,,0.25,1000.25,0,0,0,0',
    ]);
  });
});

describe('cells and names', () => {
  it('quotes separators and defuses formulas in text cells', () => {
    const readings = rawReadings('2026-01-01T00:00:00Z', '2026-01-01T00:15:00Z');
    const rows = buildRows(
      { ...readings, meterNumbers: ['=HYPERLINK("x")'] },
      'raw',
      Date.parse('2026-01-01T00:15:00Z'),
    );
    const text = buildCsv({
      blocks: [{ meterInd: 1, rows }],
      granularity: 'raw',
      timeZone: 'UTC',
      headers: { ...headers, meter: 'Meter; number' },
      kinds,
      format: { separator: ';', decimal: ',' },
    });
    const [head, row] = text.slice(1).split(CSV_LINE_END);
    expect(head?.startsWith('"Meter; number";')).toBe(true);
    expect(row?.startsWith(`"'=HYPERLINK(""x"")";`)).toBe(true);
  });

  it('names the file after the meter, the dates and the granularity', () => {
    expect(csvFilename('EM-10009', '2026-03-29', '2026-03-29', 'raw')).toBe(
      'cm-EM-10009-2026-03-29-to-2026-03-29-raw.csv',
    );
    expect(csvFilename('Riverside Campus – Library', '2026-01-01', '2026-01-31', 'day')).toBe(
      'cm-Riverside-Campus-Library-2026-01-01-to-2026-01-31-day.csv',
    );
  });

  it('picks the separator a spreadsheet in the language expects', () => {
    expect(defaultCsvFormat('en')).toEqual({ separator: ',', decimal: '.' });
    for (const lng of ['fr', 'de', 'pt'])
      expect(defaultCsvFormat(lng)).toEqual({ separator: ';', decimal: ',' });
  });
});

describe('CSV with a tariff', () => {
  it('adds the cost column, to the millionth of the currency, in the format asked', () => {
    const readings = rawReadings('2026-06-01T00:00:00Z', '2026-06-01T01:00:00Z', { step: 0.25, start: 10 });
    // Each quarter hour: 0.25 kWh at 0.123456 per kWh = 0.030864.
    const priced = {
      ...readings,
      series: { ...readings.series, cost: readings.series.t.map((_, i) => (i === 0 ? null : 0.030864)) },
    };
    const rows = buildRows(priced, 'raw', Date.parse('2026-06-01T01:00:00Z'));
    const text = buildCsv({
      blocks: [{ meterInd: 1, rows }],
      granularity: 'raw',
      timeZone: 'Europe/Berlin',
      headers,
      kinds,
      format: defaultCsvFormat('de'),
    });
    const lines = text.slice(1).trim().split(CSV_LINE_END);
    expect(lines[0]).toBe(
      'Meter;Start;End;Type;Consumption (kWh);Cost (EUR);Register;Missing readings;Estimated readings;Substituted values;Corrected values',
    );
    expect(lines[1]).toBe(
      'EM-10009;2026-06-01T02:00:00+02:00;2026-06-01T02:15:00+02:00;interval;0,25;0,030864;10,25;0;0;0;0',
    );
  });

  it('writes the demand and capacity charges as lines of their own, the amount in the cost column', () => {
    const readings = rawReadings('2026-06-01T00:00:00Z', '2026-06-01T00:30:00Z', { step: 0.25, start: 10 });
    const priced = { ...readings, series: { ...readings.series, cost: [null, 0.05, 0.05] } };
    const rows = buildRows(priced, 'raw', Date.parse('2026-06-01T00:30:00Z'));
    const fromMs = Date.parse('2026-06-01T00:00:00Z');
    const toMs = Date.parse('2026-06-01T00:30:00Z');
    const lines = buildCsv({
      blocks: [{ meterInd: 1, rows }],
      charges: [
        { meterInd: 1, meterNumber: 'EM-10009', kind: 'demandCharge', fromMs, toMs, amount: 24 },
        { meterInd: 1, meterNumber: 'EM-10009', kind: 'capacityCharge', fromMs, toMs, amount: 8.97443 },
      ],
      granularity: 'raw',
      timeZone: 'UTC',
      headers,
      kinds,
      format: defaultCsvFormat('en'),
    })
      .slice(1)
      .trim()
      .split(CSV_LINE_END);
    // Two interval rows, then one line per charge: only meter, range, type and cost filled.
    expect(lines.slice(3)).toEqual([
      'EM-10009,2026-06-01T00:00:00+00:00,2026-06-01T00:30:00+00:00,demand charge,,24,,,,,',
      'EM-10009,2026-06-01T00:00:00+00:00,2026-06-01T00:30:00+00:00,capacity charge,,8.97443,,,,,',
    ]);
  });
});

describe('CSV demand columns', () => {
  it('give each day’s peak kW, its local start and 1 where it is only "at least"', () => {
    // The fixture's Berlin days: 3.2 kW from 17:15Z on the 28th (18:15 CET), 2.4 kW from 06:00Z on
    // the 29th (08:00 CEST), at least; none on the 30th. The gap row between has no peak.
    const rows = buildRows(dailyReadings(), 'day', Date.parse('2026-03-30T22:00:00Z'));
    const lines = buildCsv({
      blocks: [{ meterInd: 1, rows }],
      granularity: 'day',
      timeZone: 'Europe/Berlin',
      headers,
      kinds,
      format: defaultCsvFormat('de'),
    })
      .slice(1)
      .split(CSV_LINE_END);
    expect(lines[0]).toContain(';Peak demand (kW);Peak start;Peak at least;Register;');
    expect(lines[1]).toContain(';3,2;2026-03-28T18:15:00+01:00;0;');
    expect(lines[2]).toContain(';2,4;2026-03-29T08:00:00+02:00;1;');
    expect(lines[3]).toContain(';;;;');
    expect(lines[4]).toMatch(/;150;/);
  });
});
