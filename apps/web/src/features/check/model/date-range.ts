import type { Granularity, LocationReadings } from '@cm/contracts/check.ts';
import { MAX_RAW_RANGE_DAYS } from '@cm/contracts/check-limits.ts';
import { billingPeriod } from '@cm/contracts/billing-period.ts';
import { localDateOf } from '@cm/contracts/zoned-time.ts';
import { addDays, addMonths, daysBetween, endOfMonth, parseLocalDate, type LocalDate } from './zoned-time.ts';

/** Date range presets; each resolves against "today" in the location's time zone. */
export const presetIds = [
  'today',
  'yesterday',
  'last7',
  'thisMonth',
  'thisBill',
  'lastMonth',
  'thisYear',
  'last12Months',
] as const;
/** A preset id. */
export type PresetId = (typeof presetIds)[number];

/** The granularity switch: `auto` picks one from the range length. */
export const granularityChoices = ['auto', 'raw', 'hour', 'day', 'week', 'month'] as const;
/** A granularity choice. */
export type GranularityChoice = (typeof granularityChoices)[number];

/** Whole local days, both ends included (the API's `To` date is inclusive too). */
export interface DateRange {
  from: LocalDate;
  to: LocalDate;
}

/** The local dates an answer covers (its `to` is the exclusive end instant). */
export function answerRange(readings: LocationReadings): DateRange {
  const tz = readings.location.timeZone;
  return {
    from: localDateOf(Date.parse(readings.from), tz),
    to: localDateOf(Date.parse(readings.to) - 1, tz),
  };
}

export function isPresetId(value: unknown): value is PresetId {
  return presetIds.some((id) => id === value);
}

export function isGranularityChoice(value: unknown): value is GranularityChoice {
  return granularityChoices.some((id) => id === value);
}

function firstOfMonth(date: LocalDate): LocalDate {
  return `${date.slice(0, 7)}-01`;
}

/** The range a preset stands for on `today` (a local date in the location's zone). */
export function resolvePreset(
  preset: PresetId,
  today: LocalDate,
  billingDay: number | null = null,
): DateRange {
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const day = addDays(today, -1);
      return { from: day, to: day };
    }
    case 'last7':
      return { from: addDays(today, -6), to: today };
    case 'thisMonth':
      return { from: firstOfMonth(today), to: today };
    case 'thisBill':
      return billingPeriod(today, billingDay);
    case 'lastMonth': {
      const from = firstOfMonth(addMonths(firstOfMonth(today), -1));
      return { from, to: endOfMonth(from) };
    }
    case 'thisYear':
      return { from: `${today.slice(0, 4)}-01-01`, to: today };
    case 'last12Months':
      // Twelve calendar months, this one included, so monthly bars are whole months but the last.
      return { from: firstOfMonth(addMonths(firstOfMonth(today), -11)), to: today };
  }
}

/**
 * The last day of the period a range is the part so far of, for the bill's projection (issue 34):
 * this month so far → the month's last day, this year so far → 31 December, and a range running
 * past today (this bill, a custom one) → its own end. Rolling ranges (last 7 days, last 12 months,
 * a custom range ending today) and finished ones are not projected: null. `preset` is null for
 * custom dates.
 */
export function projectionEnd(preset: PresetId | null, range: DateRange, today: LocalDate): LocalDate | null {
  if (preset === 'thisMonth') return endOfMonth(today);
  if (preset === 'thisYear') return `${today.slice(0, 4)}-12-31`;
  if (preset === 'last7' || preset === 'last12Months') return null;
  return daysBetween(today, range.to) > 0 && daysBetween(range.from, today) >= 0 ? range.to : null;
}

/** Number of local days in the range, both ends included. */
export function rangeDays(range: DateRange): number {
  return daysBetween(range.from, range.to) + 1;
}

/** Checks a custom range; `null` when fine, else which field is wrong and why. */
export function validateRange(range: {
  from: string;
  to: string;
}): { field: 'from' | 'to'; reason: 'invalid' | 'order' } | null {
  if (parseLocalDate(range.from) === null) return { field: 'from', reason: 'invalid' };
  if (parseLocalDate(range.to) === null) return { field: 'to', reason: 'invalid' };
  if (daysBetween(range.from, range.to) < 0) return { field: 'to', reason: 'order' };
  return null;
}

/**
 * The granularity `auto` stands for: 15-minute readings for a few days, hours for two weeks,
 * days up to the raw limit (a year of daily bars is readable and prints a page per month),
 * then weeks and months.
 */
export function autoGranularity(range: DateRange): Granularity {
  const days = rangeDays(range);
  if (days <= 3) return 'raw';
  if (days <= 14) return 'hour';
  if (days <= MAX_RAW_RANGE_DAYS) return 'day';
  if (days <= 3 * 366) return 'week';
  return 'month';
}

/** The granularity to ask the API for. */
export function effectiveGranularity(choice: GranularityChoice, range: DateRange): Granularity {
  return choice === 'auto' ? autoGranularity(range) : choice;
}

function isLastDayOfMonth(date: LocalDate): boolean {
  return endOfMonth(date) === date;
}

function shiftMonths(range: DateRange, months: number): DateRange {
  const to = addMonths(range.to, months);
  return { from: addMonths(range.from, months), to: isLastDayOfMonth(range.to) ? endOfMonth(to) : to };
}

/** How far back a comparison period lies: so many days, or so many calendar months. */
export interface PeriodShift {
  unit: 'days' | 'months';
  count: number;
}

/** The same dates one year earlier (29 February → 28 February; a month's last day stays the last day). */
export const LAST_YEAR: PeriodShift = { unit: 'months', count: 12 };

/** How many whole months the range is, starting on any day (a calendar month, a billing period); null if it is not. */
function wholeMonths(range: DateRange): number | null {
  const next = addDays(range.to, 1);
  const months =
    (Number(next.slice(0, 4)) - Number(range.from.slice(0, 4))) * 12 +
    (Number(next.slice(5, 7)) - Number(range.from.slice(5, 7)));
  return months >= 1 && addMonths(range.from, months) === next ? months : null;
}

/**
 * The period just before, as a person would compare it: whole months by whole months, whatever
 * day they start on (March → February; a bill Nov 17 – Dec 16 → the bill before, Oct 17 – Nov 16);
 * a range still going from the 1st by months (this month so far → the same days of last month;
 * this year so far → the same part of last year); any other range by its length in days (last 7
 * days → the 7 days before; Sep 1–3 → Aug 29–31, not Aug 1–3: issue 34).
 */
export function previousShift(range: DateRange, isGoing = false): PeriodShift {
  const whole = wholeMonths(range);
  if (whole !== null) return { unit: 'months', count: whole };
  if (isGoing && range.from.endsWith('-01')) {
    const spanned =
      (Number(range.to.slice(0, 4)) - Number(range.from.slice(0, 4))) * 12 +
      (Number(range.to.slice(5, 7)) - Number(range.from.slice(5, 7))) +
      1;
    // A year so far compares with the same part of last year, not with the months before it.
    const months = range.from.endsWith('-01-01') && spanned <= 12 && spanned > 1 ? 12 : spanned;
    return { unit: 'months', count: months };
  }
  return { unit: 'days', count: rangeDays(range) };
}

/** A date moved back by `shift` (a month's day clamped: 31 March − 1 month = 28/29 February). */
export function shiftDate(date: LocalDate, shift: PeriodShift): LocalDate {
  return shift.unit === 'days' ? addDays(date, -shift.count) : addMonths(date, -shift.count);
}

/** A range moved back by `shift`; moved by months, a range ending on a month's last day still does. */
export function shiftRange(range: DateRange, shift: PeriodShift): DateRange {
  return shift.unit === 'days'
    ? { from: addDays(range.from, -shift.count), to: addDays(range.to, -shift.count) }
    : shiftMonths(range, -shift.count);
}

/** The period just before (see `previousShift`). */
export function previousPeriod(range: DateRange, isGoing = false): DateRange {
  return shiftRange(range, previousShift(range, isGoing));
}

/** The same dates one year earlier. */
export function samePeriodLastYear(range: DateRange): DateRange {
  return shiftRange(range, LAST_YEAR);
}
