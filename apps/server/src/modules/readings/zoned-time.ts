// Calendar buckets of a location's zone (hours, days, weeks, months) for the readings engine,
// on the shared offset timeline of @cm/contracts/zoned-time.ts (Intl sampled once a day per
// zone, never per reading): integer arithmetic from there on.

import {
  DAY_MS,
  HOUR_MS,
  LOOKAROUND_MS,
  civilFromDays,
  daysFromCivil,
  offsetSpans,
  utcOffsetMs,
  wallResolver,
} from '@cm/contracts/zoned-time.ts';
import { upperBound } from '@cm/contracts/sorted.ts';

/** Calendar units of the bucketed granularities. Weeks are ISO weeks (Monday first). */
export type BucketUnit = 'hour' | 'day' | 'week' | 'month';

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
function calendarEdges(
  fromMs: number,
  toMs: number,
  unit: 'day' | 'week' | 'month',
  timeZone: string,
): number[] {
  const resolve = wallResolver(offsetSpans(fromMs - LOOKAROUND_MS, toMs + LOOKAROUND_MS, timeZone));
  const fromOffset = utcOffsetMs(fromMs, timeZone);
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
function hourEdges(fromMs: number, toMs: number, timeZone: string): number[] {
  const spans = offsetSpans(fromMs - DAY_MS, toMs + DAY_MS, timeZone);
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
  let first = Math.max(0, upperBound(all, fromMs) - 1);
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
  return unit === 'hour' ? hourEdges(fromMs, toMs, timeZone) : calendarEdges(fromMs, toMs, unit, timeZone);
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
