import { csvTextValue } from '@cm/contracts/csv.ts';
import { because } from '@cm/contracts/import-reasons.ts';
import type { Readable } from 'node:stream';
import { parseDecimalMicro, registerRangeMicro } from '../readings/index.ts';
import {
  checkInstant,
  ImportRefusal,
  parseChannel,
  parseQuality,
  type ParseContext,
  type ParsedItem,
} from './import-rows.ts';
import { printable } from './printable.ts';
import { readLines } from './read-lines.ts';
import { parseTimestamp } from './timestamp.ts';

/**
 * The documented CSV columns: meter_number, timestamp and one of register_kwh / interval_kwh;
 * time_zone, quality and channel optional. Or CM's own export (exports.service.ts): meter_number,
 * kind (register or interval, per row), start, end and value_kwh, with channel and quality.
 */
export const CSV_COLUMNS = [
  'meter_number',
  'timestamp',
  'register_kwh',
  'interval_kwh',
  'time_zone',
  'quality',
  'channel',
  'kind',
  'start',
  'end',
  'value_kwh',
] as const;
const EXPORT_COLUMNS = ['kind', 'start', 'end', 'value_kwh'];
const EXPECTED =
  'meter_number,timestamp,register_kwh or meter_number,timestamp,interval_kwh (optional time_zone, quality, channel), or meter_number,channel,kind,start,end,value_kwh,quality';
/** Longest line any delimited file may have (longer ones are refused without being held). */
export const MAX_LINE = 10_000;

/** Splits one delimited line; fields may be double-quoted with "" for a quote. */
export function splitCsvLine(line: string, delimiter = ','): string[] {
  if (!line.includes('"')) return line.split(delimiter);
  const fields: string[] = [];
  let field = '';
  let isQuoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (isQuoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') isQuoted = false;
      else field += c;
    } else if (c === '"') isQuoted = true;
    else if (c === delimiter) {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}

/** Where each documented column sits in the file; -1 when absent. */
interface Layout {
  meterNumber: number;
  timestamp: number;
  value: number;
  timeZone: number;
  quality: number;
  channel: number;
  /** CM's export: the kind of each row (register or interval) and the interval's start; -1 otherwise. */
  kind: number;
  start: number;
  width: number;
}

/**
 * Reads a CSV stream (never the whole file), yielding staged readings and refused lines a batch
 * at a time. Line 1 is the header. Interval rows are the energy of the interval ending at `timestamp`.
 */
export async function* parseCsv(input: Readable, context: ParseContext): AsyncGenerator<ParsedItem[]> {
  let lineNumber = 0;
  let layout: Layout | undefined;
  for await (const lines of readLines(input, MAX_LINE)) {
    const items: ParsedItem[] = [];
    for (const rawLine of lines) {
      lineNumber++;
      if (!layout) {
        const names = splitCsvLine(rawLine.replace(/^\uFEFF/, '')).map((name) => name.trim().toLowerCase());
        const columns = readHeader(names);
        const isInterval = columns.has('interval_kwh');
        if (!columns.has('kind')) context.kind = isInterval ? 'interval' : 'register';
        layout = {
          meterNumber: columns.get('meter_number') ?? -1,
          timestamp: columns.get('timestamp') ?? columns.get('end') ?? -1,
          value: columns.get(isInterval ? 'interval_kwh' : 'register_kwh') ?? columns.get('value_kwh') ?? 0,
          timeZone: columns.get('time_zone') ?? -1,
          quality: columns.get('quality') ?? -1,
          channel: columns.get('channel') ?? -1,
          kind: columns.get('kind') ?? -1,
          start: columns.get('start') ?? -1,
          width: columns.size,
        };
        continue;
      }
      const item = parseLine(rawLine, lineNumber, layout, context);
      if (item) items.push(item);
    }
    if (items.length > 0) yield items;
  }
  if (!layout) throw new ImportRefusal(`The file is empty: expected a header line ${EXPECTED}.`);
}

/** One data line: a staged reading, a refusal, or nothing for a blank line. */
function parseLine(
  rawLine: string,
  line: number,
  layout: Layout,
  context: ParseContext,
): ParsedItem | undefined {
  if (rawLine.trim() === '') return undefined;
  if (rawLine.length > MAX_LINE) return { line, reason: because('lineTooLong', { max: MAX_LINE }) };
  const fields = splitCsvLine(rawLine);
  if (fields.length !== layout.width)
    return { line, reason: because('fieldCount', { expected: layout.width, found: fields.length }) };
  const field = (index: number) => (index < 0 ? '' : (fields[index] ?? '').trim());
  const meterNumber = csvTextValue(field(layout.meterNumber));
  const meter = context.meters.get(meterNumber);
  if (!meter) {
    return {
      line,
      reason: meterNumber
        ? because('unknownMeter', { meterNumber: meterNumber.slice(0, 64) })
        : because('emptyMeterNumber'),
    };
  }
  const zone = field(layout.timeZone) || context.timeZone;
  const time = parseTimestamp(field(layout.timestamp), zone);
  if (!time.ok) return { line, reason: time.reason };
  const kindText = field(layout.kind).toLowerCase();
  if (layout.kind >= 0 && kindText !== 'register' && kindText !== 'interval')
    return { line, reason: because('notAReading', { value: kindText.slice(0, 60) }) };
  const isInterval = layout.kind >= 0 ? kindText === 'interval' : context.kind === 'interval';
  // CM's export: an interval's start as written; a register's start is its instant.
  const start =
    layout.start >= 0 && field(layout.start) !== '' ? parseTimestamp(field(layout.start), zone) : undefined;
  if (start && !start.ok) return { line, reason: start.reason };
  if (start && (isInterval ? start.ms >= time.ms : start.ms !== time.ms))
    return { line, reason: because('badIntervalSpan') };
  const valueText = field(layout.value);
  const micro = parseDecimalMicro(valueText);
  const valueName = layout.kind >= 0 ? 'value_kwh' : isInterval ? 'interval_kwh' : 'register_kwh';
  if (micro === undefined)
    return { line, reason: because('notANumber', { field: valueName, value: valueText.slice(0, 40) }) };
  if (micro < 0) return { line, reason: because('negative', { field: valueName }) };
  if (!isInterval && micro >= registerRangeMicro(meter.registerDigits)) {
    return {
      line,
      reason: because('registerTooLarge', {
        field: valueName,
        meterNumber: meter.meterNumber,
        digits: meter.registerDigits,
      }),
    };
  }
  const quality = parseQuality(field(layout.quality));
  if (quality === undefined) return { line, reason: because('badQuality') };
  const channel = parseChannel(field(layout.channel));
  if (channel === undefined) return { line, reason: because('badChannel') };
  // An interval row is the energy of its start to its end, or of the meter's nominal interval
  // ending at the timestamp.
  const startMs = isInterval ? (start?.ms ?? time.ms - meter.intervalMinutes * 60_000) : time.ms;
  const problem = checkInstant(meter, startMs, context.nowMs, time.ms);
  if (problem) return { line, reason: problem };
  return {
    row: {
      line,
      meterId: meter.id,
      channel,
      kind: isInterval ? 'interval' : 'register',
      atMs: startMs,
      endMs: isInterval ? time.ms : null,
      micro,
      quality,
    },
  };
}

function readHeader(names: string[]): Map<string, number> {
  const unknown = names.filter((name) => !(CSV_COLUMNS as readonly string[]).includes(name));
  const duplicates = names.filter((name, i) => names.indexOf(name) !== i);
  const hasRegister = names.includes('register_kwh');
  const hasInterval = names.includes('interval_kwh');
  const isExport = ['kind', 'end', 'value_kwh'].every((name) => names.includes(name));
  const isDocumented = names.includes('timestamp') && hasRegister !== hasInterval;
  if (
    unknown.length > 0 ||
    duplicates.length > 0 ||
    !names.includes('meter_number') ||
    isExport === isDocumented ||
    (isDocumented && names.some((name) => EXPORT_COLUMNS.includes(name))) ||
    (isExport && (names.includes('timestamp') || hasRegister || hasInterval))
  ) {
    const found = printable(names.join(','), 200);
    throw new ImportRefusal(`Wrong columns "${found}": expected ${EXPECTED}.`);
  }
  return new Map(names.map((name, i) => [name, i]));
}
