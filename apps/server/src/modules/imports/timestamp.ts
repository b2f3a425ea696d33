import { because, type ImportReason } from '@cm/contracts/import-reasons.ts';
import {
  DAY_MS,
  daysFromCivil,
  HOUR_MS,
  instantsAtWall,
  isValidTimeZone,
  MINUTE_MS,
} from '@cm/contracts/zoned-time.ts';

/** A parsed timestamp: an instant, or why the text is not one. */
export type TimestampResult = { ok: true; ms: number } | { ok: false; reason: ImportReason };

// 2024-03-31T02:30, 2024-03-31 02:30:00, …:00.123, then Z, +01:00, +0100 or nothing.
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
// Arithmetic rather than a Date per row: this runs once for every line of a file.
const daysInMonth = (year: number, month: number) =>
  month === 2
    ? isLeapYear(year)
      ? 29
      : 28
    : month === 4 || month === 6 || month === 9 || month === 11
      ? 30
      : 31;

/** A calendar date and a time of day that exist (no 31 April, no 24:00, no leap second). */
export const isRealDateTime = (
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
) =>
  month >= 1 &&
  month <= 12 &&
  day >= 1 &&
  day <= daysInMonth(year, month) &&
  hour <= 23 &&
  minute <= 59 &&
  second <= 59;

const ZERO = 48;
const digitAt = (text: string, i: number) => {
  const d = text.charCodeAt(i) - ZERO;
  return d >= 0 && d <= 9 ? d : -1;
};
const twoDigits = (text: string, i: number) => {
  const a = digitAt(text, i);
  const b = digitAt(text, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
};

/**
 * The shape machines write (2024-03-31T02:30:00Z, …:00.5Z, …:00.123Z) read without a regex or an
 * allocation: undefined for anything else, which the general reader then handles. For the text
 * it accepts it gives exactly the instant the general reader gives.
 */
function parseUtcFast(text: string): number | undefined {
  const length = text.length;
  if (length < 20 || length > 24 || text.charCodeAt(length - 1) !== 90 /* Z */) return undefined;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':')
    return undefined;
  const century = twoDigits(text, 0);
  const yy = twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  const second = twoDigits(text, 17);
  if ((century | yy | month | day | hour | minute | second) < 0) return undefined;
  let milli = 0;
  if (length > 20) {
    // .f, .ff or .fff: longer fractions take the general path.
    if (text[19] !== '.' || length === 21) return undefined;
    for (let i = 20, scale = 100; i < length - 1; i++, scale /= 10) {
      const d = digitAt(text, i);
      if (d < 0) return undefined;
      milli += d * scale;
    }
  }
  const year = century * 100 + yy;
  if (!isRealDateTime(year, month, day, hour, minute, second)) return undefined;
  return (
    daysFromCivil(year, month, day) * DAY_MS + hour * HOUR_MS + minute * MINUTE_MS + second * 1000 + milli
  );
}

/**
 * Reads a file timestamp. With an offset it is that instant. Without one it is a wall-clock time
 * in `timeZone`: a time the clock skipped (spring forward) or showed twice (fall back) is refused,
 * because guessing would store a reading an hour off.
 */
export function parseTimestamp(text: string, timeZone: string | undefined): TimestampResult {
  const fast = parseUtcFast(text);
  if (fast !== undefined) return { ok: true, ms: fast };
  const match = TIMESTAMP.exec(text.trim());
  if (!match) {
    return {
      ok: false,
      reason: because('notIso', { value: text.slice(0, 40) }),
    };
  }
  const [, y, mo, d, h, mi, s, fraction, offset] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s ?? 0);
  if (!isRealDateTime(year, month, day, hour, minute, second)) {
    return { ok: false, reason: because('notRealTimestamp', { value: text.trim() }) };
  }
  const wall =
    daysFromCivil(year, month, day) * DAY_MS +
    hour * HOUR_MS +
    minute * MINUTE_MS +
    second * 1000 +
    Math.floor(Number(`0.${fraction ?? '0'}`) * 1000);
  if (offset) {
    if (offset.toUpperCase() === 'Z') return { ok: true, ms: wall };
    const sign = offset.startsWith('-') ? -1 : 1;
    const digits = offset.slice(1).replace(':', '');
    const offsetMinutes = Number(digits.slice(2) || 0);
    const offsetMs = sign * (Number(digits.slice(0, 2)) * HOUR_MS + offsetMinutes * MINUTE_MS);
    // Every UTC offset in use lies within ±14:00.
    if (Math.abs(offsetMs) > 14 * HOUR_MS || offsetMinutes > 59)
      return { ok: false, reason: because('badTimestampOffset', { offset }) };
    return { ok: true, ms: wall - offsetMs };
  }
  if (!timeZone) {
    return {
      ok: false,
      reason: because('noOffsetNoZone'),
    };
  }
  if (!isValidTimeZone(timeZone))
    return { ok: false, reason: because('badTimeZone', { value: timeZone.slice(0, 64) }) };
  return resolveWallTime(wall, timeZone, text.trim());
}

function resolveWallTime(wall: number, timeZone: string, shown: string): TimestampResult {
  const matches = instantsAtWall(wall, timeZone);
  if (matches.length === 1 && matches[0] !== undefined) return { ok: true, ms: matches[0] };
  if (matches.length === 0) {
    return {
      ok: false,
      reason: because('skippedTime', { time: shown, zone: timeZone }),
    };
  }
  return {
    ok: false,
    reason: because('ambiguousTime', { time: shown, zone: timeZone }),
  };
}
