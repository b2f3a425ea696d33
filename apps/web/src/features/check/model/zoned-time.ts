import { DAY_MS, MINUTE_MS, offsetSpans, utcOffsetMs } from '@cm/contracts/zoned-time.ts';

/*
 * Calendar dates of a location and its DST days, for the check page. Meter data is always shown
 * in the location's zone (never the browser's), so a Lisbon meter read from Berlin still shows
 * Lisbon's midnight and Lisbon's DST days. Offsets come from the shared offset timeline
 * (@cm/contracts/zoned-time.ts): Intl is asked once a day of time, never per reading.
 */

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** The zone's UTC offset at an instant, in minutes (Lisbon in summer: 60; New York in winter: −300). */
export function offsetMinutes(ms: number, timeZone: string): number {
  return Math.round(utcOffsetMs(ms, timeZone) / MINUTE_MS);
}

/** A calendar date `YYYY-MM-DD`. */
export type LocalDate = string;

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

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

/**
 * Learns the zone's offsets over some local dates ahead of need (Intl, once per day of time): the
 * check page does it while a long range is on its way, so the chart's DST marks and time axis
 * cost nothing when the answer arrives.
 */
export function primeOffsets(from: LocalDate, to: LocalDate, timeZone: string): void {
  // Local dates as UTC midnights, widened by the largest offsets in use.
  offsetSpans(Date.parse(from) - DAY_MS, Date.parse(to) + 2 * DAY_MS, timeZone);
}
