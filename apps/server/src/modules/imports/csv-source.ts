import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { parseDecimalMilli, registerRangeMilli } from './register-value.ts';
import { checkInstant, ImportRefusal, type ParseContext, type ParsedItem } from './import-rows.ts';
import { parseTimestamp } from './timestamp.ts';

/** The documented CSV columns: meter_number, timestamp and one of register_kwh / interval_kwh; time_zone and quality optional. */
export const CSV_COLUMNS = [
  'meter_number',
  'timestamp',
  'register_kwh',
  'interval_kwh',
  'time_zone',
  'quality',
] as const;
const EXPECTED =
  'meter_number,timestamp,register_kwh or meter_number,timestamp,interval_kwh (optional time_zone, quality)';
const MAX_LINE = 10_000;

/** Splits one CSV line; fields may be double-quoted with "" for a quote. */
export function splitCsvLine(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
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
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}

/**
 * Reads a CSV stream line by line (never the whole file), yielding staged readings and refused
 * lines. Line 1 is the header. Interval rows are the energy of the interval ending at `timestamp`.
 */
export async function* parseCsv(input: Readable, context: ParseContext): AsyncGenerator<ParsedItem> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNumber = 0;
  let columns: Map<string, number> | undefined;
  let valueColumn = 0;
  for await (const rawLine of lines) {
    lineNumber++;
    if (lineNumber === 1) {
      const names = splitCsvLine(rawLine.replace(/^\uFEFF/, '')).map((name) => name.trim().toLowerCase());
      columns = readHeader(names);
      const isInterval = columns.has('interval_kwh');
      context.kind = isInterval ? 'interval' : 'register';
      valueColumn = columns.get(isInterval ? 'interval_kwh' : 'register_kwh') ?? 0;
      continue;
    }
    if (!columns) break;
    if (rawLine.trim() === '') continue;
    if (rawLine.length > MAX_LINE) {
      yield { line: lineNumber, reason: `line is longer than ${MAX_LINE} characters.` };
      continue;
    }
    const fields = splitCsvLine(rawLine);
    if (fields.length !== columns.size) {
      yield { line: lineNumber, reason: `expected ${columns.size} fields, found ${fields.length}.` };
      continue;
    }
    const field = (name: string) => (fields[columns?.get(name) ?? -1] ?? '').trim();
    const meterNumber = field('meter_number');
    const meter = context.meters.get(meterNumber);
    if (!meter) {
      yield {
        line: lineNumber,
        reason: meterNumber
          ? `unknown meter number "${meterNumber.slice(0, 64)}".`
          : 'meter_number is empty.',
      };
      continue;
    }
    const time = parseTimestamp(field('timestamp'), field('time_zone') || context.timeZone);
    if (!time.ok) {
      yield { line: lineNumber, reason: time.reason };
      continue;
    }
    const valueText = (fields[valueColumn] ?? '').trim();
    const milli = parseDecimalMilli(valueText);
    const valueName = context.kind === 'interval' ? 'interval_kwh' : 'register_kwh';
    if (milli === undefined) {
      yield { line: lineNumber, reason: `${valueName} "${valueText.slice(0, 40)}" is not a number.` };
      continue;
    }
    if (milli < 0) {
      yield { line: lineNumber, reason: `${valueName} must not be negative.` };
      continue;
    }
    if (context.kind === 'register' && milli >= registerRangeMilli(meter.registerDigits)) {
      yield {
        line: lineNumber,
        reason: `register_kwh does not fit meter ${meter.meterNumber}'s ${meter.registerDigits} digits.`,
      };
      continue;
    }
    const qualityText = field('quality');
    if (qualityText !== '' && qualityText !== '0' && qualityText !== '1') {
      yield { line: lineNumber, reason: 'quality must be 0 (measured) or 1 (estimated).' };
      continue;
    }
    const problem = checkInstant(meter, time.ms, context.nowMs);
    if (problem) {
      yield { line: lineNumber, reason: problem };
      continue;
    }
    const isInterval = context.kind === 'interval';
    yield {
      row: {
        line: lineNumber,
        meterId: meter.id,
        readAtMs: time.ms,
        // Interval energy is after the CT multiplier; the register counts before it.
        value: isInterval ? Math.round(milli / meter.multiplier) : milli,
        startAtMs: isInterval ? time.ms - meter.intervalMinutes * 60_000 : null,
        quality: qualityText === '1' ? 1 : 0,
      },
    };
  }
  if (!columns) throw new ImportRefusal(`The file is empty: expected a header line ${EXPECTED}.`);
}

function readHeader(names: string[]): Map<string, number> {
  const unknown = names.filter((name) => !(CSV_COLUMNS as readonly string[]).includes(name));
  const duplicates = names.filter((name, i) => names.indexOf(name) !== i);
  const hasRegister = names.includes('register_kwh');
  const hasInterval = names.includes('interval_kwh');
  if (
    unknown.length > 0 ||
    duplicates.length > 0 ||
    !names.includes('meter_number') ||
    !names.includes('timestamp') ||
    hasRegister === hasInterval
  ) {
    const found = names.join(',').slice(0, 200);
    throw new ImportRefusal(`Wrong columns "${found}": expected ${EXPECTED}.`);
  }
  return new Map(names.map((name, i) => [name, i]));
}
