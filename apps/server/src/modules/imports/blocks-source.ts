import type { Readable } from 'node:stream';
import { Readable as ReadableStream } from 'node:stream';
import type { BlocksSummary } from '@cm/contracts/import-jobs.ts';
import { delimitedMappingSchema, type DelimitedMapping } from '@cm/contracts/import-mapping.ts';
import { splitCsvLine } from './csv-source.ts';
import { parseDelimited } from './delimited-source.ts';
import { ImportRefusal, type ParseContext, type ParsedItem } from './import-rows.ts';
import { readLines } from './read-lines.ts';

// A block per day and direction (Southern California Edison's "Energy Usage Information" CSV):
// metadata lines, then for every day and direction a "Data for period starting: …" line, a title
// row whose first column names the direction ("Energy  Delivered time period" or "Energy
// Received time period"), and one row per interval: "start to end" in local wall-clock time,
// the energy in kWh, a reading quality. Delivered is energy delivered to the customer (import),
// Received energy received from the customer (export).

/** The first line of such a file. */
const TITLE = /^"?energy usage information"?(,|$)/i;
/** A block's direction title row. */
const DIRECTION = /^"?energy\s+(delivered|received)\s+time period/i;
/** An interval row's first column: "2024-05-22 00:00:00 to 2024-05-22 00:15:00". */
const SPAN = /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}(?::\d{2})?) to (\d{4}-\d{2}-\d{2} \d{2}:\d{2}(?::\d{2})?)$/;
/** A block's first line: "Data for period starting: 2024-05-22 00:00:00  for 24 hours". */
const PERIOD = /^data for period starting:/i;
const MAX_LINE = 10_000;

/** Whether the first lines are a block-per-day file: the title line and a direction title row. */
export function isBlockFile(lines: readonly string[]): boolean {
  const first = lines.find((line) => line.trim() !== '') ?? '';
  return TITLE.test(first.replace(/^\uFEFF/, '').trim()) && lines.some((line) => DIRECTION.test(line.trim()));
}

/** Energy unit of the title row's usage column: kWh unless it says watt-hours without kilo. */
const unitOf = (title: string) =>
  /\bkilowatt-hours\b|kwh/i.test(title) ? 'kWh' : /watt-hours|\bwh\b/i.test(title) ? 'Wh' : 'kWh';

/**
 * The file as one flat table, line for line (line numbers stay the file's): a header, then
 * `direction,start,end,value,quality` for every interval row; every other line empty. The
 * direction is the current block's title; the unit is the first title's (a later title naming
 * another unit is refused).
 */
async function* flatLines(input: Readable, found: { unit?: 'kWh' | 'Wh' }): AsyncGenerator<string> {
  let direction: string | undefined;
  let hasHeader = false;
  for await (const lines of readLines(input, MAX_LINE)) {
    const out: string[] = [];
    for (const raw of lines) {
      const line = raw.replace(/^\uFEFF/, '').trim();
      const title = DIRECTION.exec(line);
      if (title) {
        direction = title[1];
        const unit = unitOf(line);
        if (found.unit && found.unit !== unit)
          throw new ImportRefusal('The blocks of this file give their energy in different units.');
        found.unit = unit;
        out.push(hasHeader ? '' : 'direction,start,end,value,quality');
        hasHeader = true;
        continue;
      }
      const fields = line.length > MAX_LINE ? [line] : splitCsvLine(line);
      const cell = (text: string | undefined) => `"${(text ?? '').trim().replace(/"/g, '""')}"`;
      const span = SPAN.exec(fields[0]?.trim() ?? '');
      const isBlank = fields.every((field) => field.trim() === '') || PERIOD.test(fields[0]?.trim() ?? '');
      if (!direction || (!span && isBlank)) out.push('');
      // A row that is no interval keeps its text where the start goes: refused as no time, by its line.
      // (Its value cell is kept, or made non-empty: an empty value would read as a missing interval.)
      else if (!span)
        out.push([direction, cell(fields[0]?.slice(0, 60)), '""', cell(fields[1] || '?'), '""'].join(','));
      else out.push([direction, span[1], span[2], cell(fields[1]), cell(fields[2])].join(','));
    }
    yield `${out.join('\n')}\n`;
  }
  if (!hasHeader)
    throw new ImportRefusal(
      'No block title row ("Energy Delivered time period" or "Energy Received time period") in the file.',
    );
}

/** The mapping the flat table is read with: the file names no meter, so meterNumber is needed. */
function blocksMapping(meterNumber: string, unit: 'kWh' | 'Wh'): DelimitedMapping {
  return delimitedMappingSchema.parse({
    delimiter: ',',
    decimal: '.',
    header: true,
    time: { column: 'start', layout: 'iso', stamp: 'start', endColumn: 'end' },
    value: { column: 'value', unit, kind: 'interval' },
    meter: { fixed: meterNumber },
    channel: { column: 'direction', import: ['delivered'], export: ['received'] },
    quality: { column: 'quality', estimated: ['estimated'], substituted: [] },
  });
}

/** Reads a block-per-day file: every interval of every block, to the meterNumber given. */
export async function* parseBlocks(input: Readable, context: ParseContext): AsyncGenerator<ParsedItem[]> {
  if (context.meterNumber === undefined)
    throw new ImportRefusal('This file names no meter: give the meterNumber its readings belong to.');
  const found: { unit?: 'kWh' | 'Wh' } = {};
  const flat = flatLines(input, found);
  // The unit is the first title row's: batches are read ahead until it has been met.
  const ahead: string[] = [];
  // (next() by hand: a for-await left early would close the generator.)
  while (!found.unit) {
    const batch = await flat.next();
    if (batch.done) break;
    ahead.push(batch.value);
  }
  async function* table() {
    yield* ahead;
    yield* flat;
  }
  yield* parseDelimited(
    ReadableStream.from(table()),
    blocksMapping(context.meterNumber, found.unit ?? 'kWh'),
    context,
  );
}

/** Days listed per direction at most. */
const SHOWN_DAYS = 400;

/** What the file holds per direction (its interval rows per date), without any meter. */
export async function summarizeBlocks(input: Readable): Promise<BlocksSummary> {
  const byDirection = new Map<string, { unit: string; values: number; days: Map<string, number> }>();
  let current: { unit: string; values: number; days: Map<string, number> } | undefined;
  for await (const lines of readLines(input, MAX_LINE)) {
    for (const raw of lines) {
      const line = raw.replace(/^\uFEFF/, '').trim();
      const title = DIRECTION.exec(line);
      if (title) {
        const direction = (title[1] ?? '').toLowerCase() === 'received' ? 'Received' : 'Delivered';
        current = byDirection.get(direction) ?? { unit: unitOf(line), values: 0, days: new Map() };
        byDirection.set(direction, current);
        continue;
      }
      const span = current && line.length <= MAX_LINE ? SPAN.exec(splitCsvLine(line)[0]?.trim() ?? '') : null;
      if (!current || !span) continue;
      const date = (span[1] ?? '').slice(0, 10);
      current.values++;
      current.days.set(date, (current.days.get(date) ?? 0) + 1);
    }
  }
  return {
    directions: [...byDirection.entries()].map(([direction, found]) => ({
      direction,
      channel: direction === 'Received' ? 'export' : 'import',
      unit: found.unit,
      values: found.values,
      days: [...found.days.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .slice(0, SHOWN_DAYS)
        .map(([date, values]) => ({ date, values })),
    })),
  };
}
