// A meter's always-on power (baseload) and the share of its energy used at night (issue 34): the
// one home of both rules, from the readings engine's intervals of known energy.
//
// Night: 00:00–06:00 on the location's clock (whatever the tariff; a DST night is 5 or 7 real
// hours, every one of them counted).
// Baseload: for each of the 14 nights before the range's end, the lowest mean power of a whole
// clock hour of that night (an hour counts only when its intervals cover all of it: energy in
// kWh over one hour is kW); the baseload is the median of those nightly lows (the mean of the
// middle two for an even count), so that one odd night (a heater left on, a gap) does not move it.
// The previous baseload is the same over the 14 nights before those.
// Night share: the range's energy in intervals starting at night ÷ all its known energy.

import { lowerBound } from '@cm/contracts/sorted.ts';
import { DAY_MS, HOUR_MS, localDayNumber, localParts, startOfLocal } from '@cm/contracts/zoned-time.ts';
import type { KnownIntervals } from '../readings/index.ts';

/** Nights a baseload is the median of. */
export const BASELOAD_NIGHTS = 14;
/** Night is from this local hour… */
export const NIGHT_FROM_HOUR = 0;
/** …to this one. */
export const NIGHT_TO_HOUR = 6;

const MILLION = 1_000_000;

/** One night: [start, end) instants. */
export interface Night {
  start: number;
  end: number;
}

/**
 * The `count` nights that ended at or before `toMs`, skipping the `skip` latest (the previous
 * baseload's nights: skip = 14), oldest first.
 */
export function nightsBefore(toMs: number, timeZone: string, count: number, skip = 0): Night[] {
  const nights: Night[] = [];
  const today = localParts(toMs, timeZone);
  // Calendar arithmetic on a UTC date, then each night's local instants.
  const dayMs = Date.UTC(today.year, today.month - 1, today.day);
  for (let back = 0; nights.length < count + skip && back < count + skip + 2; back++) {
    const date = new Date(dayMs - back * DAY_MS);
    const local = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
    const night = {
      start: startOfLocal({ ...local, hour: NIGHT_FROM_HOUR }, timeZone),
      end: startOfLocal({ ...local, hour: NIGHT_TO_HOUR }, timeZone),
    };
    if (night.end <= toMs) nights.push(night);
  }
  return nights.slice(skip, skip + count).reverse();
}

/** The median of some numbers (null for none). */
function median(values: readonly number[]): number | null {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return null;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** A baseload: the median nightly low in kW, and how many nights had a whole hour to measure. */
export interface Baseload {
  kw: number | null;
  nights: number;
}

/** The baseload over `nights` from the intervals (sorted by start). */
export function baseloadOf(intervals: KnownIntervals, nights: readonly Night[]): Baseload {
  const lows: number[] = [];
  for (const night of nights) {
    let low: number | null = null;
    for (let hour = night.start; hour + HOUR_MS <= night.end; hour += HOUR_MS) {
      let energy = 0;
      let covered = 0;
      for (let i = lowerBound(intervals.start, hour); i < intervals.start.length; i++) {
        const start = intervals.start[i] ?? 0;
        if (start >= hour + HOUR_MS) break;
        const nominal = intervals.nominal[i] ?? 0;
        if (start + nominal > hour + HOUR_MS) continue;
        energy += intervals.energy[i] ?? 0;
        covered += nominal;
      }
      // kWh over one whole hour is the hour's mean power in kW.
      if (covered === HOUR_MS) low = low === null ? energy : Math.min(low, energy);
    }
    if (low !== null) lows.push(low / MILLION);
  }
  const kw = median(lows);
  return { kw: kw === null ? null : Math.round(kw * 1000) / 1000, nights: lows.length };
}

/** The range's energy at night and in all, in kWh, and the night's share (null without energy). */
export interface NightSplit {
  nightEnergy: number;
  energy: number;
  share: number | null;
}

/** The night/day split of [fromMs, toMs) from the intervals that start in it. */
export function nightSplitOf(
  intervals: KnownIntervals,
  fromMs: number,
  toMs: number,
  timeZone: string,
): NightSplit {
  let night = 0;
  let all = 0;
  for (let i = lowerBound(intervals.start, fromMs); i < intervals.start.length; i++) {
    const start = intervals.start[i] ?? 0;
    if (start >= toMs) break;
    const energy = intervals.energy[i] ?? 0;
    all += energy;
    const { hour } = localParts(start, timeZone);
    if (hour >= NIGHT_FROM_HOUR && hour < NIGHT_TO_HOUR) night += energy;
  }
  return {
    nightEnergy: Math.round(night / 1000) / 1000,
    energy: Math.round(all / 1000) / 1000,
    share: all > 0 ? Math.round((night / all) * 10_000) / 10_000 : null,
  };
}

/**
 * The same number of local days just before [fromMs, toMs) (the previous period of a night
 * share): a week before a week, 30 days before 30 days, at the same local time of day.
 */
export function daysBefore(fromMs: number, toMs: number, timeZone: string): { fromMs: number; toMs: number } {
  const days = Math.max(1, localDayNumber(toMs - 1, timeZone) - localDayNumber(fromMs, timeZone) + 1);
  const local = localParts(fromMs, timeZone);
  const date = new Date(Date.UTC(local.year, local.month - 1, local.day - days));
  const start = startOfLocal(
    {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      hour: local.hour,
      minute: local.minute,
    },
    timeZone,
  );
  return { fromMs: start, toMs: fromMs };
}
