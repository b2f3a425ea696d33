const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes east of UTC that `timeZone` observes at the instant `epochMs` (e.g. 60 for Berlin in winter). */
export function utcOffsetMinutes(timeZone: string, epochMs: number): number {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    formatters.set(timeZone, formatter);
  }
  // 'longOffset' prints "GMT+01:00", "GMT-04:00", or plain "GMT" for UTC itself.
  const name = formatter.formatToParts(epochMs).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  if (!match) return 0;
  const [, sign, hours, minutes] = match;
  return (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
}

/** A change of a zone's UTC offset (a DST switch): from `at` on, the offset is `offsetAfterMinutes`. */
export interface OffsetChange {
  at: number;
  offsetBeforeMinutes: number;
  offsetAfterMinutes: number;
}

/**
 * Every offset change of `timeZone` in (fromMs, toMs]. Offsets are sampled once a day and a change is
 * then narrowed down to the minute, so a 13-month period costs about 400 Intl calls per zone.
 */
export function offsetChanges(timeZone: string, fromMs: number, toMs: number): OffsetChange[] {
  const changes: OffsetChange[] = [];
  let t = fromMs;
  let offset = utcOffsetMinutes(timeZone, t);
  while (t < toMs) {
    const next = Math.min(t + DAY_MS, toMs);
    const nextOffset = utcOffsetMinutes(timeZone, next);
    if (nextOffset !== offset) {
      // Invariant: the offset at `low` is the old one and at `high` the new one.
      let low = t;
      let high = next;
      while (high - low > MINUTE_MS) {
        const mid = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS;
        if (utcOffsetMinutes(timeZone, mid) === offset) low = mid;
        else high = mid;
      }
      changes.push({ at: high, offsetBeforeMinutes: offset, offsetAfterMinutes: nextOffset });
      offset = nextOffset;
    }
    t = next;
  }
  return changes;
}

/**
 * Walks forward through time answering "what is the offset now?" without calling Intl per reading:
 * 900,000 readings need local wall-clock time, and Intl costs microseconds per call.
 * Instants must be asked for in non-decreasing order.
 */
export function offsetCursor(timeZone: string, fromMs: number, toMs: number): (epochMs: number) => number {
  const changes = offsetChanges(timeZone, fromMs, toMs);
  let offset = utcOffsetMinutes(timeZone, fromMs);
  let index = 0;
  return (epochMs) => {
    for (let change = changes[index]; change && change.at <= epochMs; change = changes[index]) {
      offset = change.offsetAfterMinutes;
      index += 1;
    }
    return offset;
  };
}

/** The UTC instant at which the wall clock of `timeZone` shows `localMs` (a wall-clock time written as if it were UTC). */
export function zonedToUtc(timeZone: string, localMs: number): number {
  // Two passes: the offset at a first guess, then the offset at the corrected instant (differs only around a DST switch).
  const guess = localMs - utcOffsetMinutes(timeZone, localMs) * MINUTE_MS;
  return localMs - utcOffsetMinutes(timeZone, guess) * MINUTE_MS;
}
