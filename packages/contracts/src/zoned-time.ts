/*
 * Time-zone arithmetic on epoch milliseconds with nothing but Intl, shared by the server (bucket
 * edges, imports, exports) and the browser (the check page's chart, table and CSV; admin forms).
 *
 * Intl is slow (about 1.5 µs a call), so it is never asked per reading: each zone's UTC offsets
 * are sampled once a day, transitions are located by bisection to the second, and the result is
 * kept per zone in 128-day chunks. Everything else (calendar parts, local midnights, ISO text) is
 * integer arithmetic on that offset timeline.
 */

import { upperBound } from './sorted.ts';

export const SECOND_MS = 1000;
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

// A transition and its reversal inside one sampling step would go unseen; no IANA zone has
// had two offset changes less than a day apart since 1970.
const SAMPLE_MS = DAY_MS;
const CHUNK_MS = 128 * DAY_MS;
/**
 * How far around a local time to load the offset timeline: far enough back to see the start of
 * the month containing any instant, and covering every UTC offset in use (−12 h … +14 h) with
 * room to spare.
 */
export const LOOKAROUND_MS = 35 * DAY_MS;

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

/** A zone's offset timeline: `offsets[k]` (ms, local = UTC + offset) applies from `starts[k]` to the next start. */
export interface OffsetSpans {
  starts: number[];
  offsets: number[];
}

interface Zone {
  format: Intl.DateTimeFormat;
  chunks: Map<number, OffsetSpans>;
}

const zones = new Map<string, Zone>();
const validity = new Map<string, boolean>();
// Zone names come from the database or a URL, but bound the cache anyway so odd input cannot grow it.
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

function chunkOf(zone: Zone, index: number): OffsetSpans {
  const cached = zone.chunks.get(index);
  if (cached) return cached;
  const start = index * CHUNK_MS;
  const end = start + CHUNK_MS;
  const first = sampleOffset(zone, start);
  const spans: OffsetSpans = { starts: [start], offsets: [first] };
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

/** UTC offset of `timeZone` at instant `ms`, in milliseconds (local = UTC + offset). Throws on an unknown zone. */
export function utcOffsetMs(ms: number, timeZone: string): number {
  const chunk = chunkOf(zoneOf(timeZone), Math.floor(ms / CHUNK_MS));
  // A chunk's first span starts at or before every instant of the chunk.
  return chunk.offsets[upperBound(chunk.starts, ms) - 1] ?? 0;
}

/**
 * The offset timeline over [fromMs, toMs], consecutive equal offsets merged, so every start
 * after the first is a real transition (DST starting or ending, or a rule change). The first
 * start is ≤ fromMs but not a transition.
 */
export function offsetSpans(fromMs: number, toMs: number, timeZone: string): OffsetSpans {
  const zone = zoneOf(timeZone);
  const out: OffsetSpans = { starts: [], offsets: [] };
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

/**
 * Resolves ascending local wall times (ms since 1970-01-01 on the local clock) to the first
 * instant whose local time is at or after them. That is the instant of an existing local time
 * (the earlier one when it occurs twice, at a fall-back) and the end of the gap for a local time
 * skipped by a spring-forward: the first instant of that day or hour. Each call must ask for a
 * wall time no earlier than the one before.
 */
export function wallResolver(spans: OffsetSpans): (wall: number) => number {
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

/*
 * DST policy, the one rule for all of Check Meter. A local wall time is shown by the clock of a
 * zone at none (the clocks skipped it, spring forward), one, or two instants (the clocks showed
 * it twice, fall back): `instantsAtWall` says which. What to do with none or two is the caller's,
 * each of them one of these:
 * - a file's timestamp without an offset: none is refused; two are told apart by the file's own
 *   order (earlier first when the file runs forward), else refused (imports);
 * - a time a person types (a form): `instantOfWall`, the earlier of two, and a skipped time moved
 *   forward by the gap (02:30 on a spring night in Berlin is 03:30+02:00), as Temporal's
 *   "compatible" disambiguation does;
 * - a bucket edge (local midnight, a month start): `startOfLocal`, the first instant at or after
 *   it, so a day that skips its midnight starts when the clocks jump.
 */

/** The instants at which the clock of `timeZone` shows `wall` (ms on the local clock), earliest first: none, one or two. */
export function instantsAtWall(wall: number, timeZone: string): number[] {
  const candidates = new Set<number>();
  // The offsets in force a day either side cover every transition near this wall time.
  for (const probe of [wall - DAY_MS, wall, wall + DAY_MS])
    candidates.add(wall - utcOffsetMs(probe, timeZone));
  return [...candidates].filter((ms) => ms + utcOffsetMs(ms, timeZone) === wall).sort((a, b) => a - b);
}

/** The instant a person means by `wall` at `timeZone`: the earlier of two; a skipped time moved forward by the gap. */
export function instantOfWall(wall: number, timeZone: string): number {
  const [first] = instantsAtWall(wall, timeZone);
  // Skipped: read with the offset before the jump, which lands the same distance past it.
  return first ?? wall - utcOffsetMs(wall - DAY_MS, timeZone);
}

/** A change of a zone's offset: DST starting or ending (or a rule change). */
export interface OffsetChange {
  /** First instant with the new offset. */
  at: number;
  /** Offsets in minutes before and after. */
  fromOffset: number;
  toOffset: number;
}

/** Offset changes in [fromMs, toMs). On a DST day the local day has 24 + (fromOffset − toOffset)/60 hours. */
export function offsetChanges(fromMs: number, toMs: number, timeZone: string): OffsetChange[] {
  const spans = offsetSpans(fromMs, toMs, timeZone);
  const changes: OffsetChange[] = [];
  for (let k = 1; k < spans.starts.length; k++) {
    const at = spans.starts[k] ?? 0;
    if (at < fromMs || at >= toMs) continue;
    changes.push({
      at,
      fromOffset: Math.round((spans.offsets[k - 1] ?? 0) / MINUTE_MS),
      toOffset: Math.round((spans.offsets[k] ?? 0) / MINUTE_MS),
    });
  }
  return changes;
}

/** Local wall time (ms since 1970-01-01 on the local clock) of a local date-time. */
export function wallOf(local: LocalDateTime): number {
  return (
    daysFromCivil(local.year, local.month, local.day) * DAY_MS +
    (local.hour ?? 0) * HOUR_MS +
    (local.minute ?? 0) * MINUTE_MS +
    (local.second ?? 0) * SECOND_MS
  );
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
  const wall = wallOf(local);
  return wallResolver(offsetSpans(wall - LOOKAROUND_MS, wall + LOOKAROUND_MS, timeZone))(wall);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** The local calendar date of instant `ms` in `timeZone`, as days since 1970-01-01 (see {@link daysFromCivil}). */
export function localDayNumber(ms: number, timeZone: string): number {
  return Math.floor((ms + utcOffsetMs(ms, timeZone)) / DAY_MS);
}

/** The local calendar date of instant `ms` in `timeZone`: `YYYY-MM-DD`. */
export function localDateOf(ms: number, timeZone: string): string {
  const { year, month, day } = civilFromDays(localDayNumber(ms, timeZone));
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** `+02:00`, `-05:00`, `+05:45`, `+00:00` for an offset in minutes (ISO 8601: never `Z`, so a reader sees the local offset). */
export function formatOffset(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * ISO 8601 local time with the offset in force at that instant in `timeZone`:
 * `2026-03-29T03:00:00+02:00` (milliseconds only when there are any).
 */
export function isoInZone(ms: number, timeZone: string): string {
  const p = localParts(ms, timeZone);
  const fraction = p.millisecond ? `.${pad(p.millisecond, 3)}` : '';
  const offset = formatOffset(Math.round(utcOffsetMs(ms, timeZone) / MINUTE_MS));
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${fraction}${offset}`;
}
