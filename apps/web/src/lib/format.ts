import { formatOffset, utcOffsetMs } from '@cm/contracts/zoned-time.ts';
/**
 * Dates, numbers and units through Intl, per interface language. Instants are formatted in
 * the time zone the caller gives (a location's IANA zone for meter data), else the browser's.
 */
// An Intl formatter costs far more to build than to use (a meter card built dozens, a phone's
// longest task of it): each is built once per kind, locale, zone and options, and kept.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>();

function formatter<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>(
  key: string,
  build: () => T,
): T {
  const kept = formatters.get(key) as T | undefined;
  if (kept) return kept;
  const built = build();
  formatters.set(key, built);
  return built;
}

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  return formatter(
    `number|${locale}|${JSON.stringify(options)}`,
    () => new Intl.NumberFormat(locale, options),
  );
}

/** A number with the locale's separators. */
export function formatNumber(value: number, locale: string, options: Intl.NumberFormatOptions = {}): string {
  // A minus sign, not a hyphen: "−19.019", as the comparisons write it.
  return numberFormat(locale, options).format(value).replace('-', '\u2212');
}

/**
 * An energy in kWh (the symbol is the same in every language; Intl has no kWh unit), with three
 * decimals as the readings table writes them ("11.570 kWh", not "11.57": issue 34); up to
 * `maximumFractionDigits` where a file's finer values are shown. `minimumFractionDigits` 0 for a
 * limit a person typed ("5 kWh").
 */
export function formatEnergy(
  kwh: number,
  locale: string,
  maximumFractionDigits = 3,
  minimumFractionDigits = Math.min(3, maximumFractionDigits),
): string {
  return `${formatNumber(kwh, locale, { minimumFractionDigits, maximumFractionDigits })}\u00a0kWh`;
}

/** A power in kW (demand: an interval's average power), "≥ " before it when only a lower bound is known. */
export function formatPower(kw: number, locale: string, isAtLeast = false): string {
  return `${isAtLeast ? '≥\u00a0' : ''}${formatNumber(kw, locale, { maximumFractionDigits: 3 })}\u00a0kW`;
}

/**
 * An amount of money in the location's currency, in the reader's language ("€1,234.56",
 * "1.234,56 €"). `fine`: four decimals, for the small amounts of an interval or an hour (always
 * four, so that a column of them reads alike: €0.0050 beside €0.0056, not €0.005).
 */
export function formatMoney(amount: number, currency: string, locale: string, fine = false): string {
  return formatNumber(amount, locale, {
    style: 'currency',
    currency,
    ...(fine ? { minimumFractionDigits: 4, maximumFractionDigits: 4 } : {}),
  });
}

/** A file size: bytes, kB, MB or GB (powers of 1,000, as the units say). */
export function formatBytes(bytes: number, locale: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return formatNumber(value, locale, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  });
}

/** A percentage from a ratio (0.25 → 25 %). */
export function formatPercent(ratio: number, locale: string): string {
  return formatNumber(ratio, locale, { style: 'percent', maximumFractionDigits: 1 });
}

function toDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

/** A date and time, e.g. "21 Nov 2026, 14:05". */
export function formatDateTime(value: Date | string | number, locale: string, timeZone?: string): string {
  // 24-hour times everywhere, as the check page and the audit log write them.
  return formatter(
    `dateTime|${locale}|${timeZone ?? ''}`,
    () =>
      new Intl.DateTimeFormat(locale, {
        dateStyle: 'medium',
        timeStyle: 'short',
        hourCycle: 'h23',
        timeZone,
      }),
  ).format(toDate(value));
}

/**
 * A date and time in a named zone with the offset in force then, e.g. "21 Nov 2026, 14:05
 * (UTC+01:00)": a location's times in its own zone, other times in the reader's, always saying which.
 */
export function formatZonedDateTime(value: Date | string | number, locale: string, timeZone: string): string {
  const ms = toDate(value).getTime();
  return `${formatDateTime(ms, locale, timeZone)} (${utcOffsetText(ms, timeZone)})`;
}

/** The offset in force at an instant in a zone, e.g. "UTC+01:00". */
export function utcOffsetText(ms: number, timeZone: string): string {
  return `UTC${formatOffset(Math.round(utcOffsetMs(ms, timeZone) / 60_000))}`;
}

/** The reader's own time zone (the browser's; UTC when it gives none), for times that belong to no location. */
export const readerTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** A calendar date, e.g. "21 Nov 2026". */
export function formatDate(value: Date | string | number, locale: string, timeZone?: string): string {
  return formatter(
    `date|${locale}|${timeZone ?? ''}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone }),
  ).format(toDate(value));
}

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.345],
  ['month', 12],
  ['year', Infinity],
];

/** How long ago (or until) an instant, e.g. "5 minutes ago", "il y a 5 minutes". */
export function formatRelative(
  value: Date | string | number,
  locale: string,
  now: number = Date.now(),
): string {
  let amount = (toDate(value).getTime() - now) / 1000;
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(amount) < size) {
      return formatter(
        `relative|${locale}`,
        () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }),
      ).format(Math.round(amount), unit);
    }
    amount /= size;
  }
  return formatDate(value, locale);
}
