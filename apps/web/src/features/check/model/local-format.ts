import type { Granularity } from '@cm/contracts/check.ts';
import { formatOffset } from '@cm/contracts/zoned-time.ts';
import { offsetMinutes } from './zoned-time.ts';

/*
 * Dates and times of meter data, always in the location's zone. Unlike lib/format.ts (one
 * Intl object per call, right for a few labels), these cache their Intl formatters because the
 * table and the chart tooltip format on every scroll and cursor frame.
 */

type Style = 'dateTime' | 'date' | 'time' | 'weekday' | 'month' | 'longDate' | 'shortDateTime' | 'shortDate';

const formats = new Map<string, Intl.DateTimeFormat>();

function styleOptions(style: Style): Intl.DateTimeFormatOptions {
  switch (style) {
    case 'dateTime':
      return {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      };
    case 'date':
      return { year: 'numeric', month: 'short', day: 'numeric' };
    case 'time':
      return { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
    case 'weekday':
      return { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' };
    case 'month':
      return { year: 'numeric', month: 'long' };
    case 'longDate':
      return { dateStyle: 'long' };
    // The phone's compact forms still name the month: "09/07/26" is 9 July in one country and
    // 7 September in another.
    case 'shortDateTime':
      return {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      };
    case 'shortDate':
      return { year: 'numeric', month: 'short', day: 'numeric' };
  }
}

function dateFormat(locale: string, timeZone: string, style: Style): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}|${style}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...styleOptions(style), timeZone });
    formats.set(key, format);
  }
  return format;
}

/** An instant in the zone, e.g. "29 Mar 2026, 03:00". */
export function formatLocal(ms: number, locale: string, timeZone: string, style: Style = 'dateTime'): string {
  return dateFormat(locale, timeZone, style).format(ms);
}

/** The zone's offset at an instant as "UTC+02:00". */
export function formatUtcOffset(ms: number, timeZone: string): string {
  return `UTC${formatOffset(offsetMinutes(ms, timeZone))}`;
}

/** An ISO instant string in the zone, or null for null. */
export function formatIsoInZone(
  iso: string | null,
  locale: string,
  timeZone: string,
  style: Style = 'dateTime',
): string | null {
  if (iso === null) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : formatLocal(ms, locale, timeZone, style);
}

/** Two instants as a span, the date written once when both fall on the same local day. */
export function formatSpan(
  fromIso: string,
  toIso: string,
  locale: string,
  timeZone: string,
): { from: string; to: string } {
  const from = Date.parse(fromIso);
  const to = Date.parse(toIso);
  const sameDay = formatLocal(from, locale, timeZone, 'date') === formatLocal(to, locale, timeZone, 'date');
  return {
    from: formatLocal(from, locale, timeZone),
    to: formatLocal(to, locale, timeZone, sameDay ? 'time' : 'dateTime'),
  };
}

/** A calendar date `YYYY-MM-DD` as words (noon UTC keeps it on the same day in every zone). */
export function formatCalendarDate(date: string, locale: string): string {
  const ms = Date.parse(`${date}T12:00:00Z`);
  return Number.isNaN(ms) ? date : formatLocal(ms, locale, 'UTC', 'date');
}

/** A date range `from`–`to` (both included) as words. */
export function formatDateRange(from: string, to: string, locale: string): string {
  return from === to
    ? formatCalendarDate(from, locale)
    : `${formatCalendarDate(from, locale)} – ${formatCalendarDate(to, locale)}`;
}

/**
 * A row's period as a person reads it: "Sun, 29 Mar 2026" for a day, "March 2026" for a month,
 * "29 Mar 2026, 02:45 – 03:00" for an interval (the end's time only, or its date when it differs;
 * on the start's clock when the offset changes inside it).
 */
export function formatPeriod(
  start: number,
  end: number,
  granularity: Granularity,
  locale: string,
  timeZone: string,
  isCompact = false,
): string {
  const date: Style = isCompact ? 'shortDate' : 'date';
  const dateTime: Style = isCompact ? 'shortDateTime' : 'dateTime';
  if (granularity === 'day') return formatLocal(start, locale, timeZone, isCompact ? 'shortDate' : 'weekday');
  if (granularity === 'month') return formatLocal(start, locale, timeZone, 'month');
  if (granularity === 'week')
    return `${formatLocal(start, locale, timeZone, date)} – ${formatLocal(end - 1, locale, timeZone, date)}`;
  // An interval across a clock change ends on the start's clock (the offset shown beside it): the
  // autumn hour 02:00 CEST → 02:00 CET reads 02:00 – 03:00 (UTC+02:00), then 02:00 – 03:00
  // (UTC+01:00), never 02:00 – 02:00. Its end is written as that wall time, read in UTC.
  const startOffset = offsetMinutes(start, timeZone);
  const endZone = startOffset === offsetMinutes(end, timeZone) ? timeZone : 'UTC';
  const shownEnd = endZone === timeZone ? end : end + startOffset * 60_000;
  const sameDay =
    formatLocal(start, locale, timeZone, 'date') === formatLocal(shownEnd, locale, endZone, 'date');
  return `${formatLocal(start, locale, timeZone, dateTime)} – ${formatLocal(shownEnd, locale, endZone, sameDay ? 'time' : dateTime)}`;
}
