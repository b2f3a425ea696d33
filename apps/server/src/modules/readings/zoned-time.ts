// Time-zone arithmetic on epoch milliseconds with nothing but Intl.
//
// Intl is slow (about 1.5 µs a call), so it is never asked per reading: each zone's UTC
// offsets are sampled once a day, transitions are located by bisection to the second, and
// the result is kept per zone in 128-day chunks. Everything else (calendar parts, local
// midnights, bucket edges) is integer arithmetic on that offset timeline.

export const SECOND_MS = 1000;
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

// A transition and its reversal inside one sampling step would go unseen; no IANA zone has
// had two offset changes less than a day apart since 1970.
const SAMPLE_MS = DAY_MS;
const CHUNK_MS = 128 * DAY_MS;
// Reaches back far enough to see the start of the month containing any instant, and covers
// every UTC offset in use (−12 h … +14 h) with room to spare.
const LOOKAROUND_MS = 35 * DAY_MS;

/** Calendar units of the bucketed granularities. Weeks are ISO weeks (Monday first). */
export type BucketUnit = 'hour' | 'day' | 'week' | 'month';

/** Wall-clock reading of an instant in a zone. `weekday` is ISO: 1 Monday … 7 Sunday. */
export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  weekday: number;
}

/** A local date-time to resolve; the time parts default to 0 (midnight). */
export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
  second?: number;
}

// Offset timeline of a zone: offsets[k] applies from starts[k] (inclusive) to the next start.
interface Spans {
  starts: number[];
  offsets: number[];
}

interface Zone {
  format: Intl.DateTimeFormat;
  chunks: Map<number, Spans>;
}

const zones = new Map<string, Zone>();
const validity = new Map<string, boolean>();
// Time-zone names come from the database, but bound the cache anyway so odd input cannot grow it.
const MAX_CACHED_NAMES = 2000;
const FORMAT_PARTS = /^(\d+)\D+(\d+)\D+(\d+)\D+(\d+)\D+(\d+)\D+(\d+)$/;

/** True when `timeZone` is a zone this runtime's Intl knows (IANA names such as `Europe/Berlin`, or `UTC`). */
export function isValidTimeZone(timeZone: string): boolean {
  if (timeZone.length === 0 || timeZone.length > 64) return false;
  const known = validity.get(timeZone);
  if (known !== undefined) return known;
  let isValid: boolean;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    isValid = true;
  } catch {
    isValid = false;
  }
  if (validity.size < MAX_CACHED_NAMES) validity.set(timeZone, isValid);
  return isValid;
}

function zoneOf(timeZone: string): Zone {
  const cached = zones.get(timeZone);
  if (cached) return cached;
  if (!isValidTimeZone(timeZone))
    throw new RangeError(`Unknown time zone: ${JSON.stringify(timeZone.slice(0, 64))}`);
  const zone: Zone = {
    format: new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }),
    chunks: new Map(),
  };
  zones.set(timeZone, zone);
  return zone;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm; no Date objects). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Inverse of {@link daysFromCivil}. */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

// One Intl call: the zone's offset at `ms`, to the second (Intl prints no milliseconds).
function sampleOffset(zone: Zone, ms: number): number {
  const text = zone.format.format(ms);
  const m = FORMAT_PARTS.exec(text);
  if (!m) throw new Error(`Unexpected Intl date format: ${text}`);
  const [, month, day, year, hour, minute, second] = m.map(Number);
  if (month === undefined || day === undefined || year === undefined)
    throw new Error(`Unexpected Intl date: ${text}`);
  // Some ICU versions print midnight as 24 even with h23.
  const wall =
    daysFromCivil(year, month, day) * DAY_MS +
    ((hour ?? 0) % 24) * HOUR_MS +
    (minute ?? 0) * MINUTE_MS +
    (second ?? 0) * SECOND_MS;
  return wall - Math.floor(ms / SECOND_MS) * SECOND_MS;
}

function chunkOf(zone: Zone, index: number): Spans {
  const cached = zone.chunks.get(index);
  if (cached) return cached;
  const start = index * CHUNK_MS;
  const end = start + CHUNK_MS;
  const first = sampleOffset(zone, start);
  const spans: Spans = { starts: [start], offsets: [first] };
  let previousT = start;
  let previousOffset = first;
  for (let t = start + SAMPLE_MS; t <= end; t += SAMPLE_MS) {
    const offset = sampleOffset(zone, t);
    let lo = previousT;
    let loOffset = previousOffset;
    // Bisect to the first second whose offset differs; repeat in case two changes share a step.
    while (offset !== loOffset) {
      let hi = t;
      let hiOffset = offset;
      while (hi - lo > SECOND_MS) {
        const mid = lo + Math.floor((hi - lo) / (2 * SECOND_MS)) * SECOND_MS;
        const midOffset = sampleOffset(zone, mid);
        if (midOffset === loOffset) lo = mid;
        else {
          hi = mid;
          hiOffset = midOffset;
        }
      }
      if (hi < end) {
        spans.starts.push(hi);
        spans.offsets.push(hiOffset);
      }
      lo = hi;
      loOffset = hiOffset;
    }
    previousT = t;
    previousOffset = offset;
  }
  zone.chunks.set(index, spans);
  return spans;
}

// Index of the last start ≤ ms (starts[0] ≤ ms is guaranteed by the caller).
function lastAtOrBefore(starts: readonly number[], ms: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? Infinity) <= ms) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** UTC offset of `timeZone` at instant `ms`, in milliseconds (local = UTC + offset). */
export function utcOffsetMs(ms: number, timeZone: string): number {
  const chunk = chunkOf(zoneOf(timeZone), Math.floor(ms / CHUNK_MS));
  return chunk.offsets[lastAtOrBefore(chunk.starts, ms)] ?? 0;
}

// The offset timeline over [fromMs, toMs], consecutive equal offsets merged, so every start
// after the first is a real transition. The first start is ≤ fromMs but not a transition.
function spansBetween(zone: Zone, fromMs: number, toMs: number): Spans {
  const out: Spans = { starts: [], offsets: [] };
  const last = Math.floor(toMs / CHUNK_MS);
  for (let index = Math.floor(fromMs / CHUNK_MS); index <= last; index++) {
    const chunk = chunkOf(zone, index);
    const chunkEnd = (index + 1) * CHUNK_MS;
    for (let k = 0; k < chunk.starts.length; k++) {
      const start = chunk.starts[k] ?? 0;
      const offset = chunk.offsets[k] ?? 0;
      if ((chunk.starts[k + 1] ?? chunkEnd) <= fromMs) continue;
      if (start > toMs) break;
      if (out.offsets.length > 0 && out.offsets[out.offsets.length - 1] === offset) continue;
      out.starts.push(start);
      out.offsets.push(offset);
    }
  }
  return out;
}

// Resolves ascending local wall times (ms since 1970-01-01 on the local clock) to the first
// instant whose local time is at or after them. That is the instant of an existing local
// time (the earlier one when it occurs twice, at a fall-back) and the end of the gap for a
// local time skipped by a spring-forward: the first instant of that day or hour.
function wallResolver(spans: Spans): (wall: number) => number {
  let i = 0;
  const n = spans.starts.length;
  return (wall) => {
    for (; i < n; i++) {
      const start = spans.starts[i] ?? 0;
      const offset = spans.offsets[i] ?? 0;
      if (i > 0 && wall <= start + offset) return start;
      if (wall < (spans.starts[i + 1] ?? Infinity) + offset) return wall - offset;
    }
    throw new Error('wall time beyond the loaded offset timeline');
  };
}

/** Wall-clock parts of instant `ms` in `timeZone`. */
export function localParts(ms: number, timeZone: string): LocalParts {
  const wall = ms + utcOffsetMs(ms, timeZone);
  const days = Math.floor(wall / DAY_MS);
  const { year, month, day } = civilFromDays(days);
  const inDay = wall - days * DAY_MS;
  return {
    year,
    month,
    day,
    hour: Math.floor(inDay / HOUR_MS),
    minute: Math.floor((inDay % HOUR_MS) / MINUTE_MS),
    second: Math.floor((inDay % MINUTE_MS) / SECOND_MS),
    millisecond: inDay % SECOND_MS,
    weekday: ((((days + 3) % 7) + 7) % 7) + 1,
  };
}

/**
 * First instant at which the local clock of `timeZone` shows `local` or later. For a local
 * time that occurs twice (fall-back) this is the first occurrence; for one that does not exist
 * (spring-forward, or a zone that skips midnight) it is the instant the clock jumps past it.
 */
export function startOfLocal(local: LocalDateTime, timeZone: string): number {
  const wall =
    daysFromCivil(local.year, local.month, local.day) * DAY_MS +
    (local.hour ?? 0) * HOUR_MS +
    (local.minute ?? 0) * MINUTE_MS +
    (local.second ?? 0) * SECOND_MS;
  return wallResolver(spansBetween(zoneOf(timeZone), wall - LOOKAROUND_MS, wall + LOOKAROUND_MS))(wall);
}

function periodStartWall(wall: number, unit: 'day' | 'week' | 'month'): number {
  const days = Math.floor(wall / DAY_MS);
  if (unit === 'day') return days * DAY_MS;
  // 1970-01-01 was a Thursday: (days + 3) mod 7 counts days since Monday.
  if (unit === 'week') return (days - ((((days + 3) % 7) + 7) % 7)) * DAY_MS;
  const { year, month } = civilFromDays(days);
  return daysFromCivil(year, month, 1) * DAY_MS;
}

function nextPeriodWall(wall: number, unit: 'day' | 'week' | 'month'): number {
  if (unit === 'day') return wall + DAY_MS;
  if (unit === 'week') return wall + 7 * DAY_MS;
  const { year, month } = civilFromDays(Math.floor(wall / DAY_MS));
  return (month === 12 ? daysFromCivil(year + 1, 1, 1) : daysFromCivil(year, month + 1, 1)) * DAY_MS;
}

// Calendar periods: a day (week, month) starts at the first instant whose local time is at or
// after its local midnight, so a DST day is 23 or 25 hours and a skipped midnight starts the
// day when the clock jumps. A period the clock skips entirely has no bucket.
function calendarEdges(zone: Zone, fromMs: number, toMs: number, unit: 'day' | 'week' | 'month'): number[] {
  const spans = spansBetween(zone, fromMs - LOOKAROUND_MS, toMs + LOOKAROUND_MS);
  const resolve = wallResolver(spans);
  const fromOffset = spans.offsets[lastAtOrBefore(spans.starts, fromMs)] ?? 0;
  const edges: number[] = [];
  // fromMs shows a local time inside this period, so the period starts at or before fromMs;
  // after a backward jump a later period may also start before fromMs, hence the loop.
  for (let wall = periodStartWall(fromMs + fromOffset, unit); ; wall = nextPeriodWall(wall, unit)) {
    const start = resolve(wall);
    if (start <= fromMs) {
      edges[0] = start;
      continue;
    }
    if (start > (edges[edges.length - 1] ?? -Infinity)) edges.push(start);
    if (start >= toMs) return edges;
  }
}

// Hours: a new hour bucket starts whenever the local clock shows a whole hour (so a repeated
// fall-back hour is its own bucket) or jumps forward into another hour (so a skipped hour has
// no bucket). A jump back that stays inside the same hour (Lord Howe's 30-minute DST) extends
// the hour instead, which then lasts 90 minutes.
function hourEdges(zone: Zone, fromMs: number, toMs: number): number[] {
  const spans = spansBetween(zone, fromMs - DAY_MS, toMs + DAY_MS);
  const all: number[] = [];
  const n = spans.starts.length;
  for (let i = 0; i < n; i++) {
    const start = spans.starts[i] ?? 0;
    const offset = spans.offsets[i] ?? 0;
    const end = spans.starts[i + 1] ?? toMs + DAY_MS;
    const wallStart = start + offset;
    if (i > 0) {
      const wallBefore = start - 1 + (spans.offsets[i - 1] ?? 0);
      const changesHour = Math.floor(wallStart / HOUR_MS) !== Math.floor(wallBefore / HOUR_MS);
      if (changesHour && wallStart % HOUR_MS !== 0) all.push(start);
    }
    for (let t = Math.ceil(wallStart / HOUR_MS) * HOUR_MS - offset; t < end; t += HOUR_MS) all.push(t);
  }
  let first = lastAtOrBefore(all, fromMs);
  let last = first;
  while (last < all.length - 1 && (all[last] ?? Infinity) < toMs) last++;
  if ((all[first] ?? Infinity) > fromMs) first = 0;
  return all.slice(first, last + 1);
}

/**
 * Edges of the calendar buckets of `unit` in `timeZone` that overlap [fromMs, toMs): ascending
 * epoch-ms instants e0 < e1 < … < ek where bucket i is [ei, ei+1), e0 ≤ fromMs and ek ≥ toMs.
 * Empty when fromMs ≥ toMs.
 */
export function bucketEdges(fromMs: number, toMs: number, unit: BucketUnit, timeZone: string): number[] {
  if (!(fromMs < toMs)) return [];
  const zone = zoneOf(timeZone);
  return unit === 'hour' ? hourEdges(zone, fromMs, toMs) : calendarEdges(zone, fromMs, toMs, unit);
}

/** Ascending starts of every calendar bucket of `unit` in `timeZone` overlapping [fromMs, toMs). */
export function bucketStarts(fromMs: number, toMs: number, unit: BucketUnit, timeZone: string): number[] {
  return bucketEdges(fromMs, toMs, unit, timeZone).slice(0, -1);
}

/**
 * Number of local calendar days covered by [fromMs, toMs), each day counted by the share of
 * its real length that lies in the range (so half of a 25-hour day is 0.5).
 */
export function localDaysCovered(fromMs: number, toMs: number, timeZone: string): number {
  const edges = bucketEdges(fromMs, toMs, 'day', timeZone);
  let days = 0;
  for (let i = 0; i + 1 < edges.length; i++) {
    const start = edges[i] ?? 0;
    const end = edges[i + 1] ?? 0;
    days += (Math.min(end, toMs) - Math.max(start, fromMs)) / (end - start);
  }
  return days;
}
