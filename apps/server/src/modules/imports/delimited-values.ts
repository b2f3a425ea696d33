import type { DateLayout, ValueUnit } from '@cm/contracts/import-mapping.ts';
import { because, type ImportReason } from '@cm/contracts/import-reasons.ts';
import { DAY_MS, daysFromCivil, HOUR_MS, MINUTE_MS } from '@cm/contracts/zoned-time.ts';
import { parseDecimalMicro } from '../readings/index.ts';
import { isRealDateTime } from './timestamp.ts';

// The cells of a mapped delimited file as numbers and times: exact decimals, every date layout
// utilities write. Nothing here knows of meters or the database.

// Powers of ten from a unit to kWh (energy) or kW (power).
const KILO_POWER: Record<ValueUnit, number> = { Wh: -3, kWh: 0, MWh: 3, W: -3, kW: 0, MW: 3 };
const isPower = (unit: ValueUnit) => unit === 'W' || unit === 'kW' || unit === 'MW';

/** A decimal text with its point moved `places` to the right ("12.5", 3 → "12500"), sign kept; undefined when not a plain decimal. */
function shiftDecimal(text: string, places: number): string | undefined {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return undefined;
  const sign = match[1] ?? '';
  const digits = `${match[2] ?? ''}${match[3] ?? ''}`;
  let point = (match[2] ?? '').length + places;
  let padded = digits;
  if (point < 0) {
    padded = '0'.repeat(-point) + padded;
    point = 0;
  }
  if (point > padded.length) padded += '0'.repeat(point - padded.length);
  return `${sign}${padded.slice(0, point) || '0'}.${padded.slice(point)}`;
}

/**
 * A value cell in `unit` → millionths of a kWh of energy, exactly where the file's decimals allow.
 * Power (W, kW, MW) is the average over the interval: energy = power × `minutes` / 60, rounded to
 * the millionth (half away from zero). Undefined when the text is not a number.
 */
export function energyMicro(
  text: string,
  decimal: '.' | ',',
  unit: ValueUnit,
  minutes: number,
): number | undefined {
  let plain = text.trim().replace(/\s/g, '');
  // A thousands separator is taken out only where the digits are grouped as such ("1.234,5" or
  // "1,234.5"): "0,219" in a file with a decimal point is refused, not read as 219.
  const separator = decimal === ',' ? '.' : ',';
  const grouped =
    decimal === ',' ? /^[+-]?[1-9]\d{0,2}(\.\d{3})+(,\d*)?$/ : /^[+-]?[1-9]\d{0,2}(,\d{3})+(\.\d*)?$/;
  if (grouped.test(plain)) plain = plain.split(separator).join('');
  if (decimal === ',') plain = plain.replace(',', '.');
  const shifted = shiftDecimal(plain, KILO_POWER[unit]);
  if (shifted === undefined) return undefined;
  const micro = parseDecimalMicro(shifted);
  if (micro === undefined || !isPower(unit)) return micro;
  const energy = (micro * minutes) / 60;
  return Math.sign(energy) * Math.round(Math.abs(energy));
}

/** A time read from the file: an instant (it carried an offset), or a wall-clock time (ms on the local clock) to resolve in a zone. */
export type CellTime = { instant: number } | { wall: number } | { error: ImportReason };

const TIME_OF_DAY = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*$/;
const OFFSET = /(Z|[+-]\d{2}(?::?\d{2})?)$/i;
const DATE_PATTERNS: Record<Exclude<DateLayout, 'excel'>, RegExp> = {
  iso: /^(\d{4})-(\d{2})-(\d{2})/,
  ymd: /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})/,
  dmy: /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})/,
  mdy: /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})/,
  yyyymmdd: /^(\d{4})(\d{2})(\d{2})/,
};
// The time right after a compact date: HHMM or HHMMSS.
const COMPACT_TIME = /^(\d{2})(\d{2})(\d{2})?$/;
// Excel's day 0 is 1899-12-30 (it counts a 29 February 1900 that never was).
const EXCEL_EPOCH_DAYS = daysFromCivil(1899, 12, 30);

/** The date (and time) in `dateText`, with `timeText` when the time has a column of its own. */
export function readCellTime(dateText: string, timeText: string | undefined, layout: DateLayout): CellTime {
  const text = dateText.trim();
  const shown = `"${[text, timeText?.trim()].filter(Boolean).join(' ').slice(0, 40)}"`;
  if (layout === 'excel') {
    const serial = Number(text.replace(',', '.'));
    if (!Number.isFinite(serial) || serial < 1 || serial > 2_958_465)
      return { error: because('notExcelDate', { value: shown }) };
    // Serials carry the time as a fraction of a day: rounded to the second.
    const seconds = Math.round(serial * 86_400);
    return { wall: EXCEL_EPOCH_DAYS * DAY_MS + seconds * 1000 };
  }
  const date = DATE_PATTERNS[layout].exec(text);
  if (!date) return { error: because('dateLayout', { value: shown, layout }) };
  const [a = '', b = '', c = ''] = date.slice(1);
  const [year, month, day] =
    layout === 'dmy'
      ? [Number(c), Number(b), Number(a)]
      : layout === 'mdy'
        ? [Number(c), Number(a), Number(b)]
        : [Number(a), Number(b), Number(c)];
  let rest = text.slice(date[0].length).replace(/^[T ]+/, '');
  const compact = layout === 'yyyymmdd' ? COMPACT_TIME.exec(rest) : null;
  if (compact) rest = `${compact[1] ?? ''}:${compact[2] ?? ''}${compact[3] ? `:${compact[3]}` : ''}`;
  let offset: string | undefined;
  const offsetMatch = OFFSET.exec(rest);
  if (offsetMatch && rest.length > 0 && (layout === 'iso' || rest.includes(':'))) {
    offset = offsetMatch[1];
    rest = rest.slice(0, offsetMatch.index).trim();
  }
  const clock = timeText !== undefined ? timeText.trim() : rest;
  const time = clock === '' ? ['', '0', '0', '0'] : TIME_OF_DAY.exec(clock);
  if (!time) return { error: because('notTimeOfDay', { value: shown }) };
  const hour = Number(time[1]);
  const minute = Number(time[2]);
  const second = Number(time[3] ?? 0);
  if (!isRealDateTime(year, month, day, hour, minute, second))
    return { error: because('notRealDateTime', { value: shown }) };
  const wall = daysFromCivil(year, month, day) * DAY_MS + hour * HOUR_MS + minute * MINUTE_MS + second * 1000;
  if (!offset) return { wall };
  if (offset.toUpperCase() === 'Z') return { instant: wall };
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const offsetMs = sign * (Number(digits.slice(0, 2)) * HOUR_MS + Number(digits.slice(2) || 0) * MINUTE_MS);
  if (Math.abs(offsetMs) > 14 * HOUR_MS) return { error: because('badOffset', { offset }) };
  return { instant: wall - offsetMs };
}
