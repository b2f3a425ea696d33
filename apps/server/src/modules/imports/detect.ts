import type { DateLayout, DelimitedMappingInput } from '@cm/contracts/import-mapping.ts';
import type { ImportDetection } from '@cm/contracts/import-jobs.ts';
import { isBlockFile } from './blocks-source.ts';
import { splitCsvLine } from './csv-source.ts';
import { detectPreset } from './presets.ts';

// What a readings file is, from its content (never its name): Green Button ESPI XML, Check
// Meter's own CSV, a utility layout with a preset, or some other delimited file whose columns
// are guessed for the administrator to check in the preview.

/** How much of the file detection reads. */
export const DETECTION_BYTES = 64 * 1024;

const DATE_SHAPES: Array<[RegExp, DateLayout]> = [
  [/^\d{4}-\d{2}-\d{2}([T ]\d{1,2}:\d{2}.*)?$/, 'iso'],
  [/^\d{4}[/.]\d{1,2}[/.]\d{1,2}( \d{1,2}:\d{2}.*)?$/, 'ymd'],
  [/^\d{1,2}[-/.]\d{1,2}[-/.]\d{4}( \d{1,2}:\d{2}.*)?$/, 'dmy'],
];
const isNumber = (text: string) => /^[+-]?\d+([.,]\d+)?$/.test(text.trim());

export function detectFormat(head: string, meterNumber: string | undefined): ImportDetection {
  const text = head.replace(/^\uFEFF/, '');
  if (/^\s*</.test(text)) {
    return {
      format: 'espi',
      preset: null,
      reason: 'XML: read as Green Button ESPI (Atom feed of UsagePoints, ReadingTypes and IntervalBlocks).',
      mapping: null,
      needs: [],
    };
  }
  const mdff = /^\s*100,(NEM12|NEM13),/i.exec(text)?.[1]?.toUpperCase();
  if (mdff === 'NEM12' || mdff === 'NEM13') {
    return {
      format: mdff === 'NEM12' ? 'nem12' : 'nem13',
      preset: null,
      reason: `AEMO MDFF ${mdff} (a 100 header record naming ${mdff}): ${mdff === 'NEM12' ? 'interval data' : 'register reads'} per NMI and suffix; times in AEST (UTC+10), no daylight saving.`,
      mapping: null,
      needs: [],
    };
  }
  const lines = text.split(/\r\n|\n|\r/).slice(0, 200);
  // The last line of the head may be cut short.
  if (head.length >= DETECTION_BYTES) lines.pop();
  if (isBlockFile(lines)) {
    return {
      format: 'blocks',
      preset: null,
      reason:
        'A block per day and direction ("Energy Usage Information", as Southern California Edison exports): Delivered read as import, Received as export; local times of the meter\'s location; the file names no meter.',
      mapping: null,
      needs: meterNumber ? [] : ['meterNumber'],
    };
  }
  const first = splitCsvLine(lines[0] ?? '').map((field) => field.trim().toLowerCase());
  // Check Meter's own CSV: the documented columns, or those of CM's export (start, end, kind).
  const isExport = first.includes('kind') && first.includes('end');
  if (first.includes('meter_number') && (first.includes('timestamp') || isExport)) {
    return {
      format: 'csv',
      preset: null,
      reason: isExport
        ? 'Check Meter CSV as CM exports it: meter_number, channel, kind, start, end, value_kwh, quality.'
        : 'Check Meter CSV: a header with meter_number and timestamp.',
      mapping: null,
      needs: [],
    };
  }
  return detectPreset(lines, meterNumber) ?? guessDelimited(lines, meterNumber);
}

/** A delimited file of no known layout: the delimiter, header and columns as its first lines suggest. */
function guessDelimited(lines: readonly string[], meterNumber: string | undefined): ImportDetection {
  const sample = lines.filter((line) => line.trim() !== '').slice(0, 20);
  const delimiters = [',', ';', '\t'] as const;
  const delimiter =
    [...delimiters].sort(
      (a, b) =>
        Math.min(...sample.map((line) => line.split(b).length)) -
        Math.min(...sample.map((line) => line.split(a).length)),
    )[0] ?? ',';
  const rows = sample.map((line) => splitCsvLine(line, delimiter).map((field) => field.trim()));
  const [top = [], second = []] = rows;
  const header = top.some(
    (field) => field !== '' && !isNumber(field) && !DATE_SHAPES.some(([shape]) => shape.test(field)),
  );
  const data = header ? second : top;
  const dateIndex = data.findIndex((field) => DATE_SHAPES.some(([shape]) => shape.test(field)));
  const layout = DATE_SHAPES.find(([shape]) => shape.test(data[dateIndex] ?? ''))?.[1] ?? 'iso';
  const valueIndex = data.findIndex((field, i) => i !== dateIndex && isNumber(field));
  const decimal = /^\d+,\d+$/.test(data[valueIndex] ?? '') && delimiter !== ',' ? ',' : '.';
  const column = (index: number) => (header ? (top[index] ?? index) : index);
  const mapping: DelimitedMappingInput = {
    delimiter,
    decimal,
    header,
    time: { column: column(Math.max(0, dateIndex)), layout, stamp: 'end' },
    value: { column: column(Math.max(0, valueIndex)), unit: 'kWh', kind: 'interval' },
    meter: { fixed: meterNumber ?? '' },
    channel: { fixed: 'import' },
  };
  return {
    format: 'delimited',
    preset: null,
    reason: `A delimited file of no known layout (${delimiter === '\t' ? 'tab' : `"${delimiter}"`}-separated${header ? ', with a header' : ''}): time and value columns guessed; check the mapping in the preview.`,
    mapping,
    needs: ['mapping', ...(meterNumber ? [] : (['meterNumber'] as const))],
  };
}
