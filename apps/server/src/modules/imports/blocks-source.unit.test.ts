import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { MeterFacts } from '../directory/index.ts';
import { parseBlocks } from './blocks-source.ts';
import { detectFormat } from './detect.ts';
import { ImportRefusal, type ParseContext, type ParsedItem } from './import-rows.ts';

// The block-per-day layout in its variants (fixtures/usage-blocks/SOURCE.md): metadata lines with
// trailing commas, values quoted or not, blank lines of commas between blocks. Small enough to
// check by hand.

const meter: MeterFacts = {
  id: 1,
  meterNumber: 'SCE-1',
  multiplier: 1,
  registerDigits: 6,
  intervalMinutes: 15,
  installedAtMs: Date.parse('2020-01-01T00:00:00Z'),
  removedAtMs: null,
  channels: [1, 2],
  timeZone: 'America/Los_Angeles',
  locationName: 'SCE',
};
const context = (meterNumber?: string): ParseContext => ({
  meters: new Map([['SCE-1', meter]]),
  timeZone: undefined,
  meterNumber,
  nowMs: Date.parse('2026-01-01T00:00:00Z'),
  kind: undefined,
  notes: [],
});
async function read(lines: string[], ctx = context('SCE-1')): Promise<ParsedItem[]> {
  const items: ParsedItem[] = [];
  for await (const batch of parseBlocks(Readable.from([lines.join('\n')]), ctx)) items.push(...batch);
  return items;
}
const title = (direction: string) =>
  `Energy  ${direction} time period,Usage ${direction}(Real energy in kilowatt-hours)(Real energy in kilowatt-hours),Reading quality`;
const HEAD = [
  'Energy Usage Information,,',
  'For location: 0000000000,,',
  ',,',
  'Detailed Usage,,',
  'Start date: 2024-05-21 23:00:00  for 1 day,,',
  ',,',
];

describe('block-per-day files', () => {
  it('are detected by their title line and a direction title row, not by other files', () => {
    const head = [
      ...HEAD,
      'Data for period starting: 2024-05-22 00:00:00  for 24 hours,,',
      title('Delivered'),
    ];
    expect(detectFormat(head.join('\r\n'), undefined)).toMatchObject({
      format: 'blocks',
      needs: ['meterNumber'],
    });
    expect(detectFormat(HEAD.join('\n'), undefined).format).not.toBe('blocks');
    expect(detectFormat('meter_number,timestamp,register_kwh\n', undefined).format).toBe('csv');
  });

  it('read each row of a block to the channel of its title, at its local start and end, lines kept', async () => {
    const items = await read([
      ...HEAD,
      'Data for period starting: 2024-05-22 00:00:00  for 24 hours,,',
      title('Delivered'),
      '2024-05-22 00:00:00 to 2024-05-22 00:15:00,0.04,',
      '"2024-05-22 00:15:00 to 2024-05-22 00:30:00","0.125","Estimated"',
      ',,',
      'Data for period starting: 2024-05-22 00:00:00  for 24 hours,,',
      title('Received'),
      '2024-05-22 00:00:00 to 2024-05-22 00:15:00,0.01,',
      'Total,0.01,',
      ' ,,',
    ]);
    // 2024-05-22 00:00 PDT is 07:00 UTC; kWh in millionths.
    const at = (time: string) => Date.parse(`2024-05-22T${time}:00Z`);
    expect(items).toEqual([
      {
        row: {
          line: 9,
          meterId: 1,
          channel: 1,
          kind: 'interval',
          atMs: at('07:00'),
          endMs: at('07:15'),
          micro: 40_000,
          quality: 0,
        },
      },
      {
        row: {
          line: 10,
          meterId: 1,
          channel: 1,
          kind: 'interval',
          atMs: at('07:15'),
          endMs: at('07:30'),
          micro: 125_000,
          quality: 1,
        },
      },
      {
        row: {
          line: 14,
          meterId: 1,
          channel: 2,
          kind: 'interval',
          atMs: at('07:00'),
          endMs: at('07:15'),
          micro: 10_000,
          quality: 0,
        },
      },
      // A row that is no interval is refused by its line, never passed over in silence.
      { line: 15, reason: { code: 'dateLayout', params: { layout: 'iso', value: '"Total"' } } },
    ]);
  });

  it('are refused whole without a meterNumber, or without any block title', async () => {
    await expect(read([...HEAD, title('Delivered')], context(undefined))).rejects.toThrow(
      new ImportRefusal('This file names no meter: give the meterNumber its readings belong to.'),
    );
    await expect(read(HEAD)).rejects.toThrow(/No block title row/);
  });
});
