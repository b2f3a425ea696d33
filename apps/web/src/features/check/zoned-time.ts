/**
 * Time in a location's IANA zone, computed in the browser with Intl only. Meter data is always
 * shown in the location's zone (never the browser's), so a Lisbon meter read from Berlin still
 * shows Lisbon's midnight and Lisbon's DST days.
 *
 * Offsets are cached per quarter hour: every zone change of the last century happens on a
 * quarter hour in UTC, so one Intl call per 15 minutes of time covers any number of points
 * (a year of 15-minute readings costs ~35k cheap lookups, not 35k Intl calls).
 */

const MINUTE_MS = 60_000;
const QUARTER_MS = 15 * MINUTE_MS;
/** Milliseconds in a civil day (local days on DST changes are 23 or 25 hours). */
export const DAY_MS = 86_400_000;

const partsFormats = new Map<string, Intl.DateTimeFormat>();
const offsetCache = new Map<string, Map<number, number>>();

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsFormats.set(timeZone, format);
  }
  return format;
}

function computeOffsetMinutes(ms: number, timeZone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  const fields: Record<string, number> = {};
  for (const part of partsFormat(timeZone).formatToParts(whole)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(
    fields.year ?? 1970,
    (fields.month ?? 1) - 1,
    fields.day ?? 1,
    // Some engines print midnight as 24 even with h23.
    (fields.hour ?? 0) % 24,
    fields.minute ?? 0,
    fields.second ?? 0,
  );
  return Math.round((asUtc - whole) / MINUTE_MS);
}

/** The zone's UTC offset at an instant, in minutes (Lisbon in summer: 60; New York in winter: −300). */
export function offsetMinutes(ms: number, timeZone: string): number {
  let cache = offsetCache.get(timeZone);
  if (!cache) {
    cache = new Map();
    offsetCache.set(timeZone, cache);
  }
  const key = Math.floor(ms / QUARTER_MS);
  let offset = cache.get(key);
  if (offset === undefined) {
    offset = computeOffsetMinutes(key * QUARTER_MS, timeZone);
    cache.set(key, offset);
  }
  return offset;
}

/** True when Intl knows the zone. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    partsFormat(timeZone);
    return true;
  } catch {
    return false;
  }
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** `+02:00`, `-05:00`, `+00:00` (ISO 8601: never `Z`, so a reader sees the local offset). */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

/** Wall-clock fields of an instant in the zone. */
export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  offsetMinutes: number;
}

/** The wall-clock time of an instant in the zone. */
export function localParts(ms: number, timeZone: string): LocalParts {
  const offset = offsetMinutes(ms, timeZone);
  const local = new Date(ms + offset * MINUTE_MS);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
    offsetMinutes: offset,
  };
}

/** ISO 8601 local time with the zone's offset at that instant: `2026-03-29T03:00:00+02:00`. */
export function formatIsoLocal(ms: number, timeZone: string): string {
  const p = localParts(ms, timeZone);
  return `${p.year}-${pad2(p.month)}-${pad2(p.day)}T${pad2(p.hour)}:${pad2(p.minute)}:${pad2(p.second)}${formatOffset(p.offsetMinutes)}`;
}

/** A calendar date `YYYY-MM-DD`. */
export type LocalDate = string;

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The local calendar date of an instant in the zone. */
export function localDateOf(ms: number, timeZone: string): LocalDate {
  const p = localParts(ms, timeZone);
  return `${p.year}-${pad2(p.month)}-${pad2(p.day)}`;
}

/** Reads `YYYY-MM-DD` when it is a real calendar date. */
export function parseLocalDate(text: string): { year: number; month: number; day: number } | null {
  const match = DATE_PATTERN.exec(text);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day)
    return null;
  return { year, month, day };
}

/** True for a real calendar date `YYYY-MM-DD`. */
export function isLocalDate(text: string): boolean {
  return parseLocalDate(text) !== null;
}

function toDateString(utc: Date): LocalDate {
  return `${utc.getUTCFullYear()}-${pad2(utc.getUTCMonth() + 1)}-${pad2(utc.getUTCDate())}`;
}

function dateToUtc(date: LocalDate): Date {
  const parts = parseLocalDate(date);
  if (!parts) throw new RangeError(`Not a calendar date: ${date}`);
  return new Date(Date.UTC(parts.year, parts.month - 1, parts.day));
}

/** Calendar arithmetic on dates (no time zone involved: a date is a label, not an instant). */
export function addDays(date: LocalDate, days: number): LocalDate {
  const d = dateToUtc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return toDateString(d);
}

/** The number of days in a month (1–12). */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Adds months, keeping the day when it exists and clamping otherwise (Mar 31 − 1 month = Feb 28/29). */
export function addMonths(date: LocalDate, months: number): LocalDate {
  const parts = parseLocalDate(date);
  if (!parts) throw new RangeError(`Not a calendar date: ${date}`);
  const index = parts.year * 12 + (parts.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return `${year}-${pad2(month)}-${pad2(Math.min(parts.day, daysInMonth(year, month)))}`;
}

/** The last day of the date's month. */
export function endOfMonth(date: LocalDate): LocalDate {
  const parts = parseLocalDate(date);
  if (!parts) throw new RangeError(`Not a calendar date: ${date}`);
  return `${parts.year}-${pad2(parts.month)}-${pad2(daysInMonth(parts.year, parts.month))}`;
}

/** Whole days from `a` to `b` (b − a); 0 for the same date. */
export function daysBetween(a: LocalDate, b: LocalDate): number {
  return Math.round((dateToUtc(b).getTime() - dateToUtc(a).getTime()) / DAY_MS);
}

/** A change of the zone's offset: DST starting or ending (or a zone's rule change). */
export interface OffsetChange {
  /** First instant with the new offset. */
  at: number;
  fromOffset: number;
  toOffset: number;
}

/**
 * Offset changes in [fromMs, toMs), found by stepping whole days and narrowing to the quarter
 * hour (a zone changes its offset at most once a day; one Intl call per day keeps a year cheap).
 * On a DST day the local day has 24 + (fromOffset − toOffset)/60 hours.
 */
export function offsetChanges(fromMs: number, toMs: number, timeZone: string): OffsetChange[] {
  const changes: OffsetChange[] = [];
  const step = DAY_MS;
  let t = Math.floor(fromMs / QUARTER_MS) * QUARTER_MS;
  let previous = offsetMinutes(t, timeZone);
  while (t < toMs) {
    const next = Math.min(t + step, toMs);
    const offset = offsetMinutes(next, timeZone);
    if (offset !== previous) {
      let lo = t;
      let hi = next;
      while (hi - lo > QUARTER_MS) {
        const mid = lo + Math.floor((hi - lo) / 2 / QUARTER_MS) * QUARTER_MS;
        if (offsetMinutes(mid, timeZone) === previous) lo = mid;
        else hi = mid;
      }
      if (hi >= fromMs && hi < toMs) changes.push({ at: hi, fromOffset: previous, toOffset: offset });
      previous = offset;
    }
    if (next === toMs) break;
    t = next;
  }
  return changes;
}
