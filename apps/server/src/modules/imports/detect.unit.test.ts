import { reasonText } from '@cm/contracts/import-reasons.ts';
import { describe, expect, it } from 'vitest';
import { detectFormat } from './detect.ts';
import { energyMicro, readCellTime } from './delimited-values.ts';

describe('format detection, from the content', () => {
  it('tells every known layout by its first lines', () => {
    const cases: Array<[string, string, string | null]> = [
      ['<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom">', 'espi', null],
      ['meter_number,timestamp,register_kwh\nEM-1,2026-01-01T00:00:00Z,1', 'csv', null],
      [
        'MPRN,Meter Serial Number,Read Value,Read Type,Read Date and End Time\nX,X,0.16,Active Import Interval (kWh),04-10-2024 01:00',
        'delimited',
        'esb-hdf',
      ],
      [
        '\uFEFFName,JANE\nAddress,"1 A ST"\n\nTYPE,DATE,START TIME,END TIME,USAGE (kWh),NOTES\nElectric usage,2023-07-04,00:00,00:59,0.29,',
        'delimited',
        'green-button-csv',
      ],
      [
        'Consumption (kWh), Start, End\n0.579000, 2025-10-09T12:00:00+01:00, 2025-10-09T12:30:00+01:00',
        'delimited',
        'octopus',
      ],
      ['LCLid,tstp,energy(kWh/hh)\nMAC000002,2013-01-01 00:00:00, 0.219 ', 'delimited', 'lcl'],
      ['date;kwh\n2024-01-01 00:15;0,25\n2024-01-01 00:30;0,5', 'delimited', null],
    ];
    for (const [head, format, preset] of cases) {
      const found = detectFormat(head, 'EM-1');
      expect([found.format, found.preset], head.slice(0, 30)).toEqual([format, preset]);
      expect(found.reason.length).toBeGreaterThan(10);
    }
  });

  it('reads the ESB kW variant as average power, and guesses an unknown layout for the preview to check', () => {
    const esb = detectFormat(
      'XXX,XXX,Read Value,Read Type,Read Date and End Time\nXXX,XXX,0.063000,Active Export Interval (kW),01-09-2023 08:30',
      undefined,
    );
    expect(esb.mapping?.value).toEqual({ column: 'Read Value', unit: 'kW', kind: 'interval' });
    const guessed = detectFormat('date;kwh\n2024-01-01 00:15;0,25', undefined);
    expect(guessed.mapping).toMatchObject({
      delimiter: ';',
      decimal: ',',
      header: true,
      time: { column: 'date', layout: 'iso' },
      value: { column: 'kwh' },
    });
    expect(guessed.needs).toEqual(['mapping', 'meterNumber']);
  });
});

describe('delimited cells', () => {
  it('reads values exactly in every unit, power as energy over the interval', () => {
    expect(energyMicro('0.1610', '.', 'kWh', 30)).toBe(161_000);
    expect(energyMicro('161', '.', 'Wh', 30)).toBe(161_000);
    expect(energyMicro('0,25', ',', 'kWh', 15)).toBe(250_000);
    expect(energyMicro('1.234,5', ',', 'kWh', 15)).toBe(1_234_500_000);
    expect(energyMicro('1,234.5', '.', 'kWh', 15)).toBe(1_234_500_000);
    expect(energyMicro('0.002', '.', 'MWh', 60)).toBe(2_000_000);
    expect(energyMicro('0.641000', '.', 'kW', 30)).toBe(320_500);
    expect(energyMicro('2000', '.', 'W', 15)).toBe(500_000);
    // A decimal comma in a file read with a decimal point is refused, never read as thousands.
    expect(energyMicro('0,219', '.', 'kWh', 30)).toBeUndefined();
    expect(energyMicro('abc', '.', 'kWh', 30)).toBeUndefined();
  });

  it('reads every date layout, with or without a separate time, and keeps an offset', () => {
    const wall = (text: string) => Date.parse(`${text}Z`);
    expect(readCellTime('04-10-2024 01:00', undefined, 'dmy')).toEqual({ wall: wall('2024-10-04T01:00:00') });
    expect(readCellTime('10/4/2024', '13:30', 'mdy')).toEqual({ wall: wall('2024-10-04T13:30:00') });
    expect(readCellTime('2024/10/04 13:30:15', undefined, 'ymd')).toEqual({
      wall: wall('2024-10-04T13:30:15'),
    });
    expect(readCellTime('2025-10-09T12:00:00+01:00', undefined, 'iso')).toEqual({
      instant: Date.parse('2025-10-09T11:00:00Z'),
    });
    expect(readCellTime('45000.5', undefined, 'excel')).toEqual({ wall: wall('2023-03-15T12:00:00') });
    const impossible = readCellTime('31-02-2024 00:00', undefined, 'dmy');
    expect('error' in impossible && reasonText(impossible.error)).toBe(
      '"31-02-2024 00:00" is not a real date and time.',
    );
    expect('error' in readCellTime('2024-01-01', '25:00', 'iso')).toBe(true);
  });
});
