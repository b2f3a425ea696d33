import type { Granularity } from '@cm/contracts/check.ts';
import { CSV_LINE_END, csvText } from '@cm/contracts/csv.ts';
import { isoInZone } from '@cm/contracts/zoned-time.ts';
import type { ReadingRows, RowKind } from '../model/reading-rows.ts';
import { exportAndNet } from './row-notes.ts';

/** `,` with a decimal point (en), or `;` with a decimal comma (fr, de, pt: what their spreadsheets expect). */
export interface CsvFormat {
  separator: ',' | ';';
  decimal: '.' | ',';
}

/** The CSV format a spreadsheet in this language opens without an import dialog. */
export function defaultCsvFormat(language: string): CsvFormat {
  return language.startsWith('en') ? { separator: ',', decimal: '.' } : { separator: ';', decimal: ',' };
}

/** Column headers, already translated by the caller (this module stays free of i18n). */
export interface CsvHeaders {
  meterInd: string;
  meter: string;
  start: string;
  end: string;
  type: string;
  consumption: string;
  /** Meters with an export channel: the consumption column is the import. */
  imported: string;
  exported: string;
  net: string;
  /** With a tariff: the energy charge (or export credit) column, currency included ("Cost (EUR)"). */
  cost: string;
  /** Demand in kW: each interval's average power (raw) or each bucket's peak. */
  demand: string;
  /** Buckets: when the peak interval started, and whether the peak is only a lower bound. */
  demandAt: string;
  demandAtLeast: string;
  register: string;
  missing: string;
  estimated: string;
  substituted: string;
  corrected: string;
  hours: string;
}

/** One meter indicator's rows. */
export interface CsvBlock {
  meterInd: number;
  rows: ReadingRows;
}

/** A charge of the bill that no row holds (issue 36): a line of its own, its amount in the cost column. */
export interface CsvCharge {
  meterInd: number;
  meterNumber: string;
  kind: 'demandCharge' | 'capacityCharge';
  /** The range it is charged over (epoch ms). */
  fromMs: number;
  toMs: number;
  amount: number;
}

export interface CsvInput {
  blocks: CsvBlock[];
  /** Demand and capacity charges, written after the rows when the file has a cost column. */
  charges?: readonly CsvCharge[];
  granularity: Granularity;
  /** The location's IANA zone: every timestamp is written in it, with its offset at that instant. */
  timeZone: string;
  headers: CsvHeaders;
  /** Translated words for the row kinds and the charge lines. */
  kinds: Record<RowKind | CsvCharge['kind'], string>;
  format: CsvFormat;
}

// Excel reads a file as UTF-8 only with a byte order mark; other tools ignore it.
const BOM = '\uFEFF';

const textCell = (value: string, format: CsvFormat) => csvText(value, format.separator);

/** Export and net of a row; a meter without an export channel: no export, net = import. */
function exportCells(rows: ReadingRows, i: number, format: CsvFormat): string[] {
  const { exported, net } = exportAndNet(rows, i);
  return [exported === 'none' ? '' : numberCell(exported, format), numberCell(net, format)];
}

/** A bucket's peak start (local ISO time) and 1 where it is a lower bound; empty without a peak. */
function peakCells(rows: ReadingRows, i: number, timeZone: string): string[] {
  const at = rows.demandAt?.[i] ?? null;
  if (at === null) return ['', ''];
  return [isoInZone(at, timeZone), rows.demandAtLeast[i] ? '1' : '0'];
}

function numberCell(value: number | null | undefined, format: CsvFormat, decimals = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  // Energies are exact to the Wh: at most 3 decimals, no thousands separators, no exponent.
  // Costs keep the millionths of the currency the answer gives: the spreadsheet rounds.
  const text = Number(value.toFixed(decimals)).toString();
  return format.decimal === ',' ? text.replace('.', ',') : text;
}

/**
 * The CSV of exactly the rows shown: one line per row, timestamps as ISO 8601 local times with
 * the offset in force at that instant (a DST day shows +01:00 and +02:00), localized headers.
 */
export function buildCsv(input: CsvInput): string {
  const { blocks, granularity, timeZone, headers, kinds, format } = input;
  const hasMeterInd = blocks.length > 1;
  const hasHours = granularity !== 'raw';
  const hasExport = blocks.some((block) => block.rows.exported !== null);
  const hasCost = blocks.some((block) => block.rows.cost !== null);
  const hasDemand = blocks.some((block) => block.rows.demand !== null);
  const hasPeaks = hasDemand && hasHours;
  const head = [
    ...(hasMeterInd ? [headers.meterInd] : []),
    headers.meter,
    headers.start,
    headers.end,
    headers.type,
    hasExport ? headers.imported : headers.consumption,
    ...(hasExport ? [headers.exported, headers.net] : []),
    ...(hasCost ? [headers.cost] : []),
    ...(hasDemand ? [headers.demand] : []),
    ...(hasPeaks ? [headers.demandAt, headers.demandAtLeast] : []),
    headers.register,
    headers.missing,
    headers.estimated,
    headers.substituted,
    headers.corrected,
    ...(hasHours ? [headers.hours] : []),
  ];
  const lines: string[] = [head.map((cell) => textCell(cell, format)).join(format.separator)];
  for (const { meterInd, rows } of blocks) {
    for (let i = 0; i < rows.start.length; i++) {
      const cells = [
        ...(hasMeterInd ? [String(meterInd)] : []),
        textCell(rows.meterNumber[i] ?? '', format),
        isoInZone(rows.start[i] ?? 0, timeZone),
        isoInZone(rows.end[i] ?? 0, timeZone),
        textCell(kinds[rows.kind[i] ?? 'interval'], format),
        numberCell(rows.consumption[i], format),
        ...(hasExport ? exportCells(rows, i, format) : []),
        ...(hasCost ? [numberCell(rows.cost?.[i], format, 6)] : []),
        ...(hasDemand ? [numberCell(rows.demand?.[i], format, 6)] : []),
        ...(hasPeaks ? peakCells(rows, i, timeZone) : []),
        numberCell(rows.register[i], format),
        String(rows.missing[i] ?? 0),
        String(rows.estimated[i] ?? 0),
        String(rows.substituted[i] ?? 0),
        String(rows.corrected[i] ?? 0),
        ...(hasHours ? [numberCell(rows.hours[i], format)] : []),
      ];
      lines.push(cells.join(format.separator));
    }
  }
  const costColumn = head.indexOf(headers.cost);
  for (const charge of hasCost ? (input.charges ?? []) : []) {
    const cells = head.map(() => '');
    const at = hasMeterInd ? 1 : 0;
    if (hasMeterInd) cells[0] = String(charge.meterInd);
    cells[at] = textCell(charge.meterNumber, format);
    cells[at + 1] = isoInZone(charge.fromMs, timeZone);
    cells[at + 2] = isoInZone(charge.toMs, timeZone);
    cells[at + 3] = textCell(kinds[charge.kind], format);
    cells[costColumn] = numberCell(charge.amount, format, 6);
    lines.push(cells.join(format.separator));
  }
  return BOM + lines.join(CSV_LINE_END) + CSV_LINE_END;
}

/** `cm-EM-10009-2026-03-29-to-2026-03-29-raw.csv`: meter (or location), range and granularity. */
export function csvFilename(subject: string, from: string, to: string, granularity: Granularity): string {
  const safe = subject
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `cm-${safe || 'readings'}-${from}-to-${to}-${granularity}.csv`;
}
