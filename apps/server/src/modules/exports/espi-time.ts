import {
  DAY_MS,
  civilFromDays,
  daysFromCivil,
  localParts,
  offsetChanges,
  utcOffsetMs,
} from '@cm/contracts/zoned-time.ts';

/*
 * Green Button's LocalTimeParameters from an IANA zone: the standard offset, the DST offset and
 * the two DST rules as ESPI packs them (usage.xsd, DstRuleType):
 *   bits 0–11 seconds of the hour, 12–16 hour, 17–19 ISO weekday (0 none), 20–24 day of the
 *   month (0 none), 25–27 operator, 28–31 month; 0xFFFFFFFF when the zone keeps no DST.
 * Operators: 0 on the day of the month, 2–6 the first … fifth such weekday of the month, 7 the last.
 * The time is the wall clock just before the change (02:00 for the US, 02:00 and 03:00 for the EU).
 */

export interface LocalTimeParameters {
  /** Standard time's offset from UTC, seconds. */
  tzOffset: number;
  /** What DST adds, seconds (0 without DST). */
  dstOffset: number;
  /** Packed rules, 8 hex digits. */
  dstStartRule: string;
  dstEndRule: string;
}

const NO_RULE = 'FFFFFFFF';
/** Years a rule must hold for to be written as a weekday rule (it is followed every year). */
const YEARS_CHECKED = 7;
const Operator = { dayOfMonth: 0, first: 2, last: 7 } as const;

interface Transition {
  at: number;
  fromOffset: number;
  toOffset: number;
}

/** The zone's transitions in a calendar year (UTC bounds widened by a day on each side). */
function transitionsIn(year: number, timeZone: string): Transition[] {
  const from = daysFromCivil(year, 1, 1) * DAY_MS - DAY_MS;
  const to = daysFromCivil(year + 1, 1, 1) * DAY_MS + DAY_MS;
  return offsetChanges(from, to, timeZone).filter((change) => localParts(change.at, timeZone).year === year);
}

const daysInMonth = (year: number, month: number) =>
  daysFromCivil(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) -
  daysFromCivil(year, month, 1);

/** The wall clock just before a transition (on the offset that ends there). */
function wallBefore(change: Transition) {
  const wall = change.at + change.fromOffset * 60_000;
  const days = Math.floor(wall / DAY_MS);
  const ofDay = wall - days * DAY_MS;
  return {
    ...civilFromDays(days),
    weekday: ((((days + 3) % 7) + 7) % 7) + 1,
    hour: Math.floor(ofDay / 3_600_000),
    seconds: Math.floor((ofDay % 3_600_000) / 1000),
  };
}

const hex = (value: number) => (value >>> 0).toString(16).toUpperCase().padStart(8, '0');

/** Packs the rule that the transitions of consecutive years (same direction) all follow. */
function packRule(changes: Transition[]): string {
  const walls = changes.map(wallBefore);
  const first = walls[0];
  if (!first) return NO_RULE;
  const same = <K extends keyof typeof first>(key: K) => walls.every((wall) => wall[key] === first[key]);
  if (!same('month') || !same('hour') || !same('seconds')) return NO_RULE;
  const isLast = walls.every((wall) => wall.day + 7 > daysInMonth(wall.year, wall.month));
  const occurrence = Math.ceil(first.day / 7);
  const isNth = walls.every((wall) => Math.ceil(wall.day / 7) === occurrence);
  let operator: number;
  let weekday = first.weekday;
  let day = 0;
  if (same('weekday') && (isNth || isLast)) {
    operator = isNth && occurrence < 5 ? Operator.first + occurrence - 1 : Operator.last;
  } else if (same('day')) {
    operator = Operator.dayOfMonth;
    weekday = 0;
    day = first.day;
  } else return NO_RULE;
  return hex(
    first.seconds |
      (first.hour << 12) |
      (weekday << 17) |
      (day << 20) |
      (operator << 25) |
      (first.month << 28),
  );
}

/** The LocalTimeParameters of `timeZone` as in force in `year` (and the years after it). */
export function localTimeParameters(timeZone: string, year: number): LocalTimeParameters {
  const years = Array.from({ length: YEARS_CHECKED }, (_, k) => transitionsIn(year + k, timeZone));
  const starts = years.map((changes) => changes.find((c) => c.toOffset > c.fromOffset));
  const ends = years.map((changes) => changes.find((c) => c.toOffset < c.fromOffset));
  const start = starts[0];
  const end = ends[0];
  const isEveryYear = (list: Array<Transition | undefined>): list is Transition[] =>
    list.every((change) => change !== undefined);
  if (!start || !end || !isEveryYear(starts) || !isEveryYear(ends)) {
    // No DST (or none kept every year): the offset in force at the start of the year.
    const offset = Math.round(utcOffsetMs(daysFromCivil(year, 1, 1) * DAY_MS, timeZone) / 1000);
    return { tzOffset: offset, dstOffset: 0, dstStartRule: NO_RULE, dstEndRule: NO_RULE };
  }
  return {
    tzOffset: Math.min(start.fromOffset, start.toOffset) * 60,
    dstOffset: (start.toOffset - start.fromOffset) * 60,
    dstStartRule: packRule(starts),
    dstEndRule: packRule(ends),
  };
}
