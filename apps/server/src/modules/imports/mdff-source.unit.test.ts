import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { MeterFacts } from '../directory/index.ts';
import { detectFormat } from './detect.ts';
import type { ParseContext, ParsedItem, StagedRow } from './import-rows.ts';
import { parseMdff } from './mdff-source.ts';

// NEM12/NEM13 records as AEMO's MDFF specification lays them out, small enough to check by hand.

const meter = (id: number, meterNumber: string): MeterFacts => ({
  id,
  meterNumber,
  multiplier: 1,
  registerDigits: 6,
  intervalMinutes: 30,
  installedAtMs: Date.parse('2020-01-01T00:00:00Z'),
  removedAtMs: null,
  channels: [1, 2],
  timeZone: 'Australia/Brisbane',
  locationName: meterNumber,
});
const context = (meterNumber?: string): ParseContext => ({
  meters: new Map([
    ['NMI0000001', meter(1, 'NMI0000001')],
    ['NMI0000002', meter(2, 'NMI0000002')],
  ]),
  timeZone: undefined,
  meterNumber,
  nowMs: Date.parse('2026-01-01T00:00:00Z'),
  kind: undefined,
  notes: [],
});
async function read(lines: string[], ctx = context()): Promise<ParsedItem[]> {
  const items: ParsedItem[] = [];
  for await (const batch of parseMdff(Readable.from([lines.join('\r\n')]), ctx)) items.push(...batch);
  return items;
}
const rows = (items: ParsedItem[]) => items.flatMap((item) => ('row' in item ? [item.row] : []));
const day = (date: string, values: string[], quality: string) =>
  ['300', date, ...values, quality, '', '', `${date}120000`, ''].join(',');
const halfHours = (value: (i: number) => string) => Array.from({ length: 48 }, (_, i) => value(i));

describe('NEM12', () => {
  it('is detected by its 100 record, NEM13 too', () => {
    expect(detectFormat('100,NEM12,202401150930,MDP,RETAILER\r\n200,X', undefined).format).toBe('nem12');
    expect(detectFormat('\uFEFF100,NEM13,202401150930,MDP,RETAILER\n', undefined).format).toBe('nem13');
    expect(detectFormat('100,XYZ,1\n', undefined).format).not.toMatch(/nem/);
  });

  it('puts interval i of day D at D 00:00 AEST + (i − 1) × length, in kWh exactly from Wh', async () => {
    const items = await read([
      '100,NEM12,202401150930,MDP,RETAILER',
      '200,NMI0000001,E1,1,E1,N1,M1,Wh,30,',
      day(
        '20240101',
        halfHours((i) => (i === 0 ? '1234.5' : '0')),
        'A',
      ),
      '900',
    ]);
    const [first, second] = rows(items);
    // 2024-01-01 00:00 AEST is 2023-12-31 14:00 UTC; 1,234.5 Wh is 1.2345 kWh.
    expect(first).toMatchObject({
      meterId: 1,
      channel: 1,
      kind: 'interval',
      atMs: Date.parse('2023-12-31T14:00:00Z'),
      endMs: Date.parse('2023-12-31T14:30:00Z'),
      micro: 1_234_500,
      quality: 0,
    });
    expect(second?.atMs).toBe(Date.parse('2023-12-31T14:30:00Z'));
    expect(rows(items)).toHaveLength(48);
  });

  it('reads V days from their 400 records; N intervals stay missing; 500 and 900 are passed over', async () => {
    const items = await read([
      '100,NEM12,202401150930,MDP,RETAILER',
      '200,NMI0000001,E1B1,1,B1,N1,M1,kWh,30,',
      day(
        '20240102',
        halfHours(() => '0.5'),
        'V',
      ),
      '400,1,10,A,,',
      '400,11,12,N,,',
      '400,13,20,S53,53,Meter replaced',
      '400,21,48,E52,,',
      '500,O,S01009,20240103103000,',
      '900',
    ]);
    expect(items.filter((item) => 'reason' in item)).toEqual([]);
    const stored = rows(items);
    // 48 half hours less the two null ones: 10 actual, 8 substituted, 28 estimated; export (B1).
    expect(stored).toHaveLength(46);
    const count = (quality: number) => stored.filter((row: StagedRow) => row.quality === quality).length;
    expect([count(0), count(1), count(2)]).toEqual([10, 28, 8]);
    expect(new Set(stored.map((row) => row.channel))).toEqual(new Set([2]));
  });

  it('takes 288 five-minute values; refuses an interval length NEM12 does not have', async () => {
    const fiveMinutes = Array.from({ length: 288 }, () => '0.01');
    const items = await read([
      '100,NEM12,202401150930,MDP,RETAILER',
      '200,NMI0000002,E1,1,E1,N1,M1,kWh,5,',
      day('20240103', fiveMinutes, 'A'),
      '900',
    ]);
    expect(rows(items)).toHaveLength(288);
    expect(rows(items).at(-1)?.endMs).toBe(Date.parse('2024-01-03T14:00:00Z'));
    await expect(
      read(['100,NEM12,202401150930,MDP,RETAILER', '200,NMI0000002,E1,1,E1,N1,M1,kWh,10,', '900']),
    ).rejects.toThrow('5, 15 or 30 minutes');
  });

  it('passes over reactive channels with a note, refuses a line it cannot read, says when 900 is missing', async () => {
    const ctx = context();
    const items = await read(
      [
        '100,NEM12,202401150930,MDP,RETAILER',
        '200,NMI0000001,Q1,1,Q1,N1,M1,kVArh,30,',
        day(
          '20240101',
          halfHours(() => '1'),
          'A',
        ),
        '200,NMI0000001,E1,1,E1,N1,M1,kWh,30,',
        day(
          '2024-01-01',
          halfHours(() => '1'),
          'A',
        ),
        day(
          '20240102',
          halfHours((i) => (i === 3 ? 'x\u0000y' : '1')),
          'A',
        ),
      ],
      ctx,
    );
    const refused = items.flatMap((item) => ('reason' in item ? [item.reason] : []));
    expect(refused.map((reason) => reason.code)).toEqual(['dateLayout', 'notANumber']);
    expect(refused[1]?.params.value).toBe('x\\x00y');
    expect(rows(items)).toHaveLength(47);
    expect(ctx.notes.join(' ')).toContain('NMI NMI0000001 suffix Q1 (kVArh)');
    expect(ctx.notes.join(' ')).toContain('no 900 end record');
  });

  it('an unmapped NMI is an unknown meter; a meterNumber for two NMIs is refused', async () => {
    const lines = [
      '100,NEM12,202401150930,MDP,RETAILER',
      '200,NMI0000009,E1,1,E1,N1,M1,kWh,30,',
      day(
        '20240101',
        halfHours(() => '1'),
        'A',
      ),
      '200,NMI0000002,E1,1,E1,N1,M1,kWh,30,',
      day(
        '20240101',
        halfHours(() => '1'),
        'A',
      ),
      '900',
    ];
    const items = await read(lines);
    expect(items[0]).toMatchObject({ line: 3, reason: { code: 'unknownMeter' } });
    await expect(read(lines, context('NMI0000001'))).rejects.toThrow('several NMIs (NMI0000009, NMI0000002)');
  });
});

describe('NEM13', () => {
  it('stages both reads of a 250 record at their AEST times, a shared read once, direction E as export', async () => {
    const record = (direction: string, previous: string, prevAt: string, current: string, curAt: string) =>
      `250,NMI0000001,11,001,11,11,M1,${direction},${previous},${prevAt},A,,,${current},${curAt},E,52,Est,1,kWh,20240801,${curAt},`;
    const items = await read([
      '100,NEM13,202405020900,MDP,RETAILER',
      record('I', '012345.6', '20231101093000', '012789.3', '20240201101500'),
      record('I', '012789.3', '20240201101500', '013101.0', '20240501083000'),
      record('E', '000210.0', '20231101093000', '000388.4', '20240201101500'),
      '550,N,,A,',
      '900',
    ]);
    const stored = rows(items);
    expect(
      stored.map((row) => [row.channel, new Date(row.atMs).toISOString(), row.micro, row.quality]),
    ).toEqual([
      [1, '2023-10-31T23:30:00.000Z', 12_345_600_000, 0],
      [1, '2024-02-01T00:15:00.000Z', 12_789_300_000, 1],
      [1, '2024-04-30T22:30:00.000Z', 13_101_000_000, 1],
      [2, '2023-10-31T23:30:00.000Z', 210_000_000, 0],
      [2, '2024-02-01T00:15:00.000Z', 388_400_000, 1],
    ]);
  });
});
