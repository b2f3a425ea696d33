import { instantOfWall, localDateOf, localParts, wallOf } from '@cm/contracts/zoned-time.ts';
import {
  LAST_YEAR,
  previousShift,
  rangeDays,
  shiftDate,
  shiftRange,
  type DateRange,
  type PeriodShift,
} from './date-range.ts';
import { parseLocalDate, type LocalDate } from './zoned-time.ts';

/*
 * What the check page compares the range with, like with like (issue 17.1): a period still going
 * is set against the same stretch of the earlier one — up to the same local time of the same day of
 * it — never against the whole of it; finished periods of different lengths are compared per day.
 */

/**
 * - `whole`: two finished periods of the same number of days, total against total;
 * - `perDay`: finished periods of different lengths (March against February), per day;
 * - `soFar`: the range is still going: both up to the same local time.
 */
export type ComparisonBasis = 'whole' | 'perDay' | 'soFar';

export interface ComparisonPlan {
  kind: 'previous' | 'lastYear';
  /** The comparison period's dates. */
  range: DateRange;
  basis: ComparisonBasis;
  /**
   * `From`/`To` to ask for: `To` is an instant for `soFar`. Null while the range's own data end is
   * not known yet (the current answer is on its way), and when the range has no data yet.
   */
  query: { From: LocalDate; To: string } | null;
  /** `soFar`: the instant in the comparison period that matches the last data of the range. */
  untilMs: number | null;
  /** `soFar` only: the range's own answer is not in yet, so the stretch to compare is not known. */
  awaitsRange: boolean;
  /** Days in the comparison period and in the range (for `perDay`). */
  days: number;
  rangeDays: number;
}

/** What is known of the range's own answer: the last instant it has data for. */
export interface RangeData {
  /** Null when the range has no data yet. */
  dataEndMs: number | null;
}

/**
 * The comparisons for `range` at `nowMs`. The previous period is left out when it is the same as
 * last year's (this year so far, the last 12 months). `current` is the range's own answer once it
 * is in (needed only while the range is still going).
 */
export function comparisonPlans(
  range: DateRange,
  timeZone: string,
  nowMs: number,
  current: RangeData | undefined,
): ComparisonPlan[] {
  const isGoing = range.to >= localDateOf(nowMs, timeZone);
  const previous = previousShift(range, isGoing);
  const isSameAsLastYear = previous.unit === LAST_YEAR.unit && previous.count === LAST_YEAR.count;
  const shifts: Array<[ComparisonPlan['kind'], PeriodShift]> = [
    ...(isSameAsLastYear ? [] : [['previous', previous] as [ComparisonPlan['kind'], PeriodShift]]),
    ['lastYear', LAST_YEAR],
  ];
  return shifts.map(([kind, shift]) => {
    const period = shiftRange(range, shift);
    const base = { kind, range: period, days: rangeDays(period), rangeDays: rangeDays(range) };
    if (!isGoing) {
      const basis = base.days === base.rangeDays ? 'whole' : 'perDay';
      const query = { From: period.from, To: period.to };
      return { ...base, basis, query, untilMs: null, awaitsRange: false };
    }
    const untilMs = current ? matchingInstant(current, shift, timeZone, nowMs) : null;
    const periodStart = startOfDate(period.from, timeZone);
    const query =
      untilMs !== null && untilMs > periodStart
        ? { From: period.from, To: new Date(untilMs).toISOString() }
        : null;
    return { ...base, basis: 'soFar', query, untilMs, awaitsRange: current === undefined };
  });
}

/** The instant `shift` earlier at the same local time as the range's last data (or now). */
function matchingInstant(current: RangeData, shift: PeriodShift, timeZone: string, nowMs: number) {
  if (current.dataEndMs === null) return null;
  const cut = localParts(Math.min(nowMs, current.dataEndMs), timeZone);
  const date = shiftDate(`${cut.year}-${pad(cut.month)}-${pad(cut.day)}`, shift);
  const day = parseLocalDate(date);
  if (!day) return null;
  return instantOfWall(wallOf({ ...day, hour: cut.hour, minute: cut.minute, second: cut.second }), timeZone);
}

function startOfDate(date: LocalDate, timeZone: string): number {
  const day = parseLocalDate(date);
  return day ? instantOfWall(wallOf(day), timeZone) : Number.NaN;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The change from the comparison period to the range, as a share (+0.1 = 10 % more), on the
 * plan's basis; null when either total is unknown or the earlier one is zero.
 */
export function comparisonChange(
  plan: Pick<ComparisonPlan, 'basis' | 'days' | 'rangeDays'>,
  current: number | null,
  earlier: number | null,
): number | null {
  if (current === null || earlier === null || earlier === 0) return null;
  if (plan.basis === 'perDay') return current / plan.rangeDays / (earlier / plan.days) - 1;
  return (current - earlier) / earlier;
}
