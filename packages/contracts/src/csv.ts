/**
 * CSV text cells, one rule for every CSV Check Meter writes (the admin export and the check page's
 * download) and reads back (imports).
 */

/** RFC 4180 line ends. */
export const CSV_LINE_END = '\r\n';

// A cell starting with one of these runs as a formula in a spreadsheet (CSV injection, OWASP); it
// is written behind an apostrophe. So that reading back is exact, a cell that already starts with
// apostrophes before one of them gets one more.
const FORMULA_START = /^'*[=+\-@\t\r]/;
// The guard, as recognised when reading.
const FORMULA_GUARD = /^'(?='*[=+\-@\t\r])/;

/** A text cell: defused when it starts like a formula, quoted when it holds a quote, line end or the separator. */
export function csvText(value: string, separator: ',' | ';' = ','): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /["\r\n]/.test(safe) || safe.includes(separator) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The text a cell written by csvText held: its formula guard removed (the quotes are the CSV reader's job). */
export function csvTextValue(cell: string): string {
  return cell.replace(FORMULA_GUARD, '');
}
