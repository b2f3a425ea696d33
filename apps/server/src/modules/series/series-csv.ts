// Reading a series file: a CSV of interval start and value, one interval per line, as day-ahead
// markets, suppliers and grid operators publish them. Pure, so every rule is tested without a
// database.
//
// - Delimiter: `;` or a tab when the first line has one, else `,`. A decimal comma is read only
//   with `;` or tab delimiters (with `,` the comma separates the cells).
// - Start: an ISO instant with its offset (`2026-03-29T01:00:00+01:00`, `…Z`), or a local time
//   (`2026-03-29 01:00`, `2026-03-29T01:00`) on the series' clock. A local time the clocks
//   skipped is refused; one they showed twice (the fall-back hour) is the earlier instant the first
//   time the file gives it and the later the second time (files run forward).
// - Each start begins an interval of the series (on its local clock: 00, 30 past for half hours),
//   and is given once. A first line that is neither a time nor a number is a header.
// - A value has at most SERIES_DECIMALS decimals and lies within the series' bounds.
// Every bad line is named with its number; a file with any is refused whole (nothing stored).

import { DAY_MS, MINUTE_MS, instantsAtWall, utcOffsetMs } from '@cm/contracts/zoned-time.ts';
import { SERIES_DECIMALS } from '@cm/contracts/market-series.ts';

/** How a series' values are read: integer units per 1 of the decimal, and their bounds. */
export interface ValueRule {
  /** Decimals kept exactly: 6 for prices (millionths), 3 for intensities (milligrams per gram). */
  digits: number;
  /** Smallest and largest value, in the decimal's own unit. */
  min: number;
  max: number;
  /** What a value is, for messages: "price", "intensity". */
  what: string;
}

/** A series' clock and intervals. */
export interface SeriesClock {
  timeZone: string;
  intervalMinutes: number;
}

export interface SeriesPoint {
  startMs: number;
  value: number;
}

const MAX_LISTED_ERRORS = 10;
const NUMBER = /^[+-]?\d+(?:[.,]\d+)?$/;
const TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.0+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** A decimal (point, or comma where `comma` allows) as whole units of 10^-digits; a message when it is not one. */
export function parseSeriesValue(text: string, rule: ValueRule, comma: boolean): number | string {
  const cell = text.trim();
  if (!NUMBER.test(cell) || (!comma && cell.includes(',')))
    return `the ${rule.what} "${cell.slice(0, 40)}" is not a number such as 85.37${comma ? ' or 85,37' : ''}.`;
  const normal = cell.replace(',', '.');
  const negative = normal.startsWith('-');
  const unsigned = normal.replace(/^[+-]/, '');
  const [whole = '0', fraction = ''] = unsigned.split('.');
  if (fraction.length > Math.min(rule.digits, SERIES_DECIMALS))
    return `the ${rule.what} ${cell} has more than ${rule.digits} decimals.`;
  const amount = Number(normal);
  if (amount < rule.min || amount > rule.max)
    return `the ${rule.what} ${cell} is out of range (${rule.min} to ${rule.max}).`;
  // Whole units built from the digits, never from a binary fraction.
  const units = Number(whole) * 10 ** rule.digits + Number(fraction.padEnd(rule.digits, '0'));
  return negative ? -units : units;
}

/** Local wall time `YYYY-MM-DD HH:MM` of an instant on `timeZone`'s clock, for messages. */
function wallText(wall: number): string {
  return new Date(wall).toISOString().slice(0, 16).replace('T', ' ');
}

/** Whether `ms` starts an interval of `clock` (on its local clock). */
export function startsInterval(ms: number, clock: SeriesClock): boolean {
  const wall = ms + utcOffsetMs(ms, clock.timeZone);
  return (((wall % DAY_MS) + DAY_MS) % DAY_MS) % (clock.intervalMinutes * MINUTE_MS) === 0;
}

/** Parses a series file; either its points (sorted by start) or the messages of its bad lines. */
export function parseSeriesCsv(
  text: string,
  clock: SeriesClock,
  rule: ValueRule,
): { points: SeriesPoint[]; errors: [] } | { points: []; errors: string[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const firstLine = lines.find((line) => line.trim() !== '') ?? '';
  const delimiter = firstLine.includes(';') ? ';' : firstLine.includes('\t') ? '\t' : ',';
  const comma = delimiter !== ',';
  const errors: string[] = [];
  let errorCount = 0;
  const fail = (line: number, message: string) => {
    errorCount += 1;
    if (errors.length < MAX_LISTED_ERRORS) errors.push(`Line ${line}: ${message}`);
  };
  const points: SeriesPoint[] = [];
  const lineOf = new Map<number, number>();
  const wallSeen = new Map<number, number>();
  let isFirst = true;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    if (raw.trim() === '') continue;
    const line = i + 1;
    const cells = raw.split(delimiter).map((cell) =>
      cell
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .trim(),
    );
    const wasFirst = isFirst;
    isFirst = false;
    const [timeCell = '', valueCell = ''] = cells;
    const time = TIME.exec(timeCell);
    if (wasFirst && !time && !NUMBER.test(valueCell)) continue; // a header
    if (cells.length !== 2) {
      fail(
        line,
        `expected 2 cells (start${delimiter === ',' ? ',' : delimiter === ';' ? ';' : ' tab '}${rule.what}), found ${cells.length}.` +
          (delimiter === ',' && cells.length === 3 ? ' A decimal comma needs ; as the delimiter.' : ''),
      );
      continue;
    }
    if (!time) {
      fail(
        line,
        `"${timeCell.slice(0, 40)}" is not a time such as 2026-03-29T01:00:00+01:00 or 2026-03-29 01:00.`,
      );
      continue;
    }
    const [, y, mo, d, h, mi, s = '0', offset] = time;
    const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
    const check = new Date(wall);
    if (check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(mo) - 1 || Number(h) > 23) {
      fail(line, `${timeCell} is not a date and time that exists.`);
      continue;
    }
    let startMs: number;
    if (offset !== undefined) {
      const sign = offset.startsWith('-') ? -1 : 1;
      const digits = offset === 'Z' ? '0000' : offset.slice(1).replace(':', '').padEnd(4, '0');
      const offsetMs = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * MINUTE_MS;
      startMs = wall - (offset === 'Z' ? 0 : offsetMs);
    } else {
      const instants = instantsAtWall(wall, clock.timeZone);
      const seen = wallSeen.get(wall) ?? 0;
      wallSeen.set(wall, seen + 1);
      const picked = instants[seen];
      if (instants.length === 0) {
        fail(line, `${wallText(wall)} does not exist in ${clock.timeZone} (the clocks skipped it).`);
        continue;
      }
      if (picked === undefined) {
        fail(line, `${wallText(wall)} is given more times than ${clock.timeZone}'s clocks show it.`);
        continue;
      }
      startMs = picked;
    }
    if (!startsInterval(startMs, clock)) {
      fail(line, `${timeCell} does not start a ${clock.intervalMinutes}-minute interval of this series.`);
      continue;
    }
    const earlier = lineOf.get(startMs);
    if (earlier !== undefined) {
      fail(
        line,
        `the interval starting ${new Date(startMs).toISOString()} is given twice (first on line ${earlier}).`,
      );
      continue;
    }
    lineOf.set(startMs, line);
    const value = parseSeriesValue(valueCell, rule, comma);
    if (typeof value === 'string') {
      fail(line, value);
      continue;
    }
    points.push({ startMs, value });
  }
  if (errorCount > 0) {
    const more = errorCount - errors.length;
    return { points: [], errors: more > 0 ? [...errors, `and ${more} more bad lines`] : errors };
  }
  if (points.length === 0) return { points: [], errors: ['The file has no lines of start and value.'] };
  points.sort((a, b) => a.startMs - b.startMs);
  return { points, errors: [] };
}
