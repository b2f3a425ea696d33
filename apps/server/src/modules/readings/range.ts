import { MAX_RANGE_DAYS, MAX_RAW_RANGE_DAYS, type Granularity } from '@cm/contracts/check.ts';
import {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  SECOND_MS,
  civilFromDays,
  daysFromCivil,
  startOfLocal,
  utcOffsetMs,
} from '@cm/contracts/zoned-time.ts';

/** The query parameter a range error is about, so the HTTP layer can name it in a 400 answer. */
export type RangeParam = 'From' | 'To' | 'ProjectTo' | 'granularity';

/** A `From`/`To`/`granularity` combination that cannot be answered; `message` says which parameter and why. */
export class RangeInputError extends Error {
  readonly param: RangeParam;

  constructor(param: RangeParam, message: string) {
    super(message);
    this.name = 'RangeInputError';
    this.param = param;
  }
}

/** A resolved range: `fromMs` inclusive, `toMs` exclusive, epoch milliseconds. */
export interface ResolvedRange {
  fromMs: number;
  toMs: number;
}

const MIN_YEAR = 1970;
const MAX_YEAR = 2100;
// Longer input is refused before any pattern runs on it.
const MAX_INPUT_LENGTH = 40;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(.*)$/;
const OFFSET = /^(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;
const EXAMPLES = 'a date such as 2026-03-01 or an instant with an offset such as 2026-03-01T00:00:00Z';

interface DateParts {
  year: number;
  month: number;
  day: number;
}

function checkDate(param: RangeParam, year: number, month: number, day: number): DateParts {
  if (year < MIN_YEAR || year > MAX_YEAR) {
    throw new RangeInputError(param, `${param} must be between the years ${MIN_YEAR} and ${MAX_YEAR}.`);
  }
  const real = civilFromDays(daysFromCivil(year, month, day));
  if (month < 1 || month > 12 || day < 1 || real.month !== month || real.day !== day) {
    const shown = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
    throw new RangeInputError(param, `${param} is not a real calendar date (${shown}).`);
  }
  return { year, month, day };
}

// Returns the instant the parameter stands for: a date is the start of that local day, or of
// the next one when it ends the range (so `To=2026-03-31` includes the whole of March 31).
function parseBound(param: 'From' | 'To' | 'ProjectTo', input: string, timeZone: string): number {
  const text = input.trim();
  if (text.length === 0) throw new RangeInputError(param, `${param} is required: give ${EXAMPLES}.`);
  if (text.length > MAX_INPUT_LENGTH) {
    throw new RangeInputError(param, `${param} is too long: give ${EXAMPLES}.`);
  }
  const date = DATE.exec(text);
  if (date) {
    const d = checkDate(param, Number(date[1]), Number(date[2]), Number(date[3]));
    return param === 'From' ? startOfLocal(d, timeZone) : startOfLocal({ ...d, day: d.day + 1 }, timeZone);
  }
  const dateTime = DATE_TIME.exec(text);
  if (!dateTime) throw new RangeInputError(param, `${param} is not a date or an instant: give ${EXAMPLES}.`);
  const [, y, mo, d, h, mi, s, fraction, zone] = dateTime;
  const day = checkDate(param, Number(y), Number(mo), Number(d));
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s ?? '0');
  if (hour > 23 || minute > 59 || second > 59) {
    throw new RangeInputError(
      param,
      `${param} has an impossible time of day (hours 00–23, minutes and seconds 00–59).`,
    );
  }
  const rest = zone ?? '';
  if (rest === '') {
    throw new RangeInputError(
      param,
      `${param} is an instant without a time-zone offset: add Z or ±hh:mm (2026-03-01T00:00:00+01:00), or give a date (2026-03-01) to mean the location's local day.`,
    );
  }
  // An unencoded "+" in a query string arrives as a space.
  if (/^ \d{2}:?\d{2}$/.test(rest)) {
    throw new RangeInputError(
      param,
      `${param} has a space where the offset sign should be: write "+" as %2B in the URL.`,
    );
  }
  const offset = OFFSET.exec(rest);
  if (!offset)
    throw new RangeInputError(param, `${param} has an unreadable time-zone offset: use Z or ±hh:mm.`);
  let offsetMs = 0;
  if (!offset[1]) {
    const offsetHours = Number(offset[3]);
    const offsetMinutes = Number(offset[4]);
    if (offsetHours > 14 || offsetMinutes > 59) {
      throw new RangeInputError(param, `${param} has an impossible time-zone offset (at most ±14:00).`);
    }
    offsetMs = (offset[2] === '-' ? -1 : 1) * (offsetHours * HOUR_MS + offsetMinutes * MINUTE_MS);
  }
  // Sub-millisecond digits are dropped: instants are kept to the millisecond.
  const millis = fraction ? Number(fraction.slice(0, 3).padEnd(3, '0')) : 0;
  return (
    daysFromCivil(day.year, day.month, day.day) * DAY_MS +
    hour * HOUR_MS +
    minute * MINUTE_MS +
    second * SECOND_MS +
    millis -
    offsetMs
  );
}

// Length in local calendar days, so a range of N whole local days counts N even across DST.
function localDays(fromMs: number, toMs: number, timeZone: string): number {
  return (toMs + utcOffsetMs(toMs, timeZone) - (fromMs + utcOffsetMs(fromMs, timeZone))) / DAY_MS;
}

/**
 * Resolves the `From`/`To` query parameters in the location's time zone. Throws
 * {@link RangeInputError} naming the parameter at fault. `timeZone` must be valid (it comes
 * from the database); an unknown one throws a plain RangeError.
 */
export function resolveRange(
  input: { From: string; To: string },
  timeZone: string,
  granularity: Granularity,
): ResolvedRange {
  const fromMs = parseBound('From', input.From, timeZone);
  const toMs = parseBound('To', input.To, timeZone);
  if (!(fromMs < toMs)) throw new RangeInputError('To', 'To must be after From.');
  const days = localDays(fromMs, toMs, timeZone);
  if (days > MAX_RANGE_DAYS) {
    throw new RangeInputError(
      'To',
      `The range is ${Math.ceil(days)} days long; at most ${MAX_RANGE_DAYS} days may be asked for.`,
    );
  }
  if ((granularity === 'raw' || granularity === 'hour') && days > MAX_RAW_RANGE_DAYS) {
    throw new RangeInputError(
      'granularity',
      `granularity ${granularity} allows at most ${MAX_RAW_RANGE_DAYS} days and the range is ${Math.ceil(days)} days long: use day, week or month.`,
    );
  }
  return { fromMs, toMs };
}

/**
 * The end of the period a range is the part so far of (`ProjectTo`, read as `To` is): at or after
 * the range's end and, counted from its start, no longer than a range may be.
 */
export function resolveProjectTo(input: string, range: ResolvedRange, timeZone: string): number {
  const endMs = parseBound('ProjectTo', input, timeZone);
  if (endMs < range.toMs) throw new RangeInputError('ProjectTo', 'ProjectTo must not be before To.');
  if (localDays(range.fromMs, endMs, timeZone) > MAX_RANGE_DAYS) {
    throw new RangeInputError('ProjectTo', `ProjectTo may be at most ${MAX_RANGE_DAYS} days after From.`);
  }
  return endMs;
}
