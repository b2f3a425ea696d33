// The readings engine: turns the cumulative register readings of the physical meters that
// held one meter indicator into a series, totals, gaps and events. Pure: no database, no HTTP.
//
// Units: registers arrive in milli-units (Wh for a kWh meter) before the CT multiplier. All
// energy is summed as integers in milli-units (after the multiplier) and divided by 1000 only
// when written out, so totals are exact to the Wh and never drift with float accumulation.
//
// One pass over the readings, columns in and columns out: no Date, Intl or object per reading.

import type { Gap, Granularity, ReadingEvent, Totals } from '@cm/contracts/check.ts';
import { NumberColumn, ThousandthsColumn } from '../../json-columns.ts';
import { m4Indices } from './downsample.ts';
import { HOUR_MS, bucketEdges, localDaysCovered } from './zoned-time.ts';

/** Readings of one meter as columns: epoch ms (ascending), register in milli-units, quality (0 measured, 1 estimated). */
export interface ReadingColumns {
  t: ArrayLike<number>;
  milli: ArrayLike<number>;
  quality: ArrayLike<number>;
}

/** One physical meter's stay on the meter indicator, with its readings in the asked range. */
export interface MeterSegment {
  meterNumber: string;
  /** CT ratio: energy = register difference × multiplier. */
  multiplier: number;
  /** The register wraps to 0 at 10^registerDigits units. */
  registerDigits: number;
  /** Nominal time between readings. */
  intervalMs: number;
  readings: ReadingColumns;
}

/** What to compute. Readings with fromMs ≤ t ≤ toMs are used: the one at `toMs` closes the last interval. */
export interface ComputeOptions {
  fromMs: number;
  toMs: number;
  timeZone: string;
  granularity: Granularity;
  /** Raw only: downsample (M4) when there are more points than this. */
  maxPoints?: number;
  /** Missing data is only reported up to now: the future is not missing. */
  nowMs: number;
}

/**
 * The contract's series as typed columns: registers and energies stay in milli-units (after the
 * multiplier) until written, NaN where unknown. `JSON.stringify` or `jsonBytes` give the contract's arrays.
 */
export interface SeriesColumns {
  t: NumberColumn;
  value: ThousandthsColumn;
  consumption: ThousandthsColumn;
  hours?: NumberColumn;
  missing: NumberColumn;
  estimated: NumberColumn;
}

/** The engine's answer: a meter's readings section without the meter information. */
export interface ReadingsComputation {
  series: SeriesColumns;
  totals: Totals;
  gaps: Gap[];
  events: ReadingEvent[];
  downsampled: boolean;
}

interface PendingEvent {
  atMs: number;
  event: ReadingEvent;
}

// A gap is more than one and a half nominal intervals between two readings, so jitter in
// reading times is not reported as missing data.
const GAP_FACTOR = 1.5;

const toUnits = (milli: number): number => milli / 1000;
const iso = (ms: number): string => new Date(ms).toISOString();

// First index with t[i] ≥ ms (or > ms when `strict`), in [lo, t.length].
function lowerBound(t: ArrayLike<number>, ms: number, lo: number, strict: boolean): number {
  let hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const value = t[mid] ?? Infinity;
    if (strict ? value <= ms : value < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Computes series, totals, gaps and events for the segments of one meter indicator (oldest
 * meter first). Semantics:
 * - an interval is two consecutive readings of the same meter; its energy belongs to the
 *   bucket holding its start, so a day is register(next local midnight) − register(midnight);
 * - a decrease of more than half the register range is a rollover; a smaller one makes the
 *   interval unknown (and `agrees` false);
 * - readings more than 1.5 intervals apart are a gap: the energy across it is known from the
 *   registers and is reported as gap consumption, never as one interval; it counts in a bucket
 *   only when the gap lies inside that bucket (otherwise it is in `gaps` and the totals only);
 * - a bucket's register (`value`) is the one at its end, as a raw point's is;
 * - no interval spans a meter exchange; time between the old meter's last reading and the
 *   new meter's first is a gap of unknown energy.
 */
export function computeReadings(
  segments: readonly MeterSegment[],
  options: ComputeOptions,
): ReadingsComputation {
  const { fromMs, toMs, timeZone, granularity } = options;
  const isRaw = granularity === 'raw';
  const edges = isRaw ? [] : bucketEdges(fromMs, toMs, granularity, timeZone);
  const bucketCount = Math.max(0, edges.length - 1);

  // Bucket accumulators (milli-units; NaN marks "no register seen").
  const bucketEnergy = new Float64Array(bucketCount);
  const bucketHasEnergy = new Uint8Array(bucketCount);
  const bucketMissing = new Float64Array(bucketCount);
  const bucketEstimated = new Float64Array(bucketCount);
  const bucketValue = new Float64Array(bucketCount).fill(NaN);

  // Raw columns, sized up front (one point per reading at most) and trimmed at the end: growing five arrays
  // point by point costs more than the rest of the pass. Registers and energies in milli-units, NaN unknown.
  let capacity = 0;
  if (isRaw) {
    for (const { readings } of segments) {
      const first = lowerBound(readings.t, fromMs, 0, false);
      capacity += lowerBound(readings.t, toMs, first, true) - first;
    }
  }
  const rawT = new Float64Array(capacity);
  const rawValue = new Float64Array(capacity);
  const rawConsumption = new Float64Array(capacity);
  const rawMissing = new Float64Array(capacity);
  const rawEstimated = new Float64Array(capacity);
  let points = 0;

  const gaps: Gap[] = [];
  const events: PendingEvent[] = [];
  let intervalSum = 0;
  let gapSum = 0;
  let registerDifference = 0;
  let readingCount = 0;
  let missingTotal = 0;
  let peak = -1;
  let peakAtMs = 0;
  let registerStart: number | null = null;
  let registerEnd: number | null = null;

  // Spreads `count` missing intervals starting at `firstStart`, `stepMs` apart, over the buckets
  // holding their starts.
  const addMissing = (firstStart: number, count: number, stepMs: number): void => {
    missingTotal += count;
    if (isRaw || bucketCount === 0) return;
    const lastStart = firstStart + (count - 1) * stepMs;
    let k = Math.max(0, lowerBound(edges, firstStart, 0, true) - 1);
    for (; k < bucketCount && (edges[k] ?? 0) <= lastStart; k++) {
      const lo = Math.max(0, Math.ceil(((edges[k] ?? 0) - firstStart) / stepMs));
      const hi = Math.min(count, Math.ceil(((edges[k + 1] ?? 0) - firstStart) / stepMs));
      if (hi > lo) bucketMissing[k] = (bucketMissing[k] ?? 0) + (hi - lo);
    }
  };
  const addGap = (from: number, to: number, missing: number, energy: number | null): void => {
    gaps.push({
      from: iso(from),
      to: iso(to),
      missingIntervals: missing,
      consumption: energy === null ? null : toUnits(energy),
    });
  };
  const addEvent = (atMs: number, type: ReadingEvent['type'], meterNumber: string, detail: string): void => {
    events.push({ atMs, event: { type, at: iso(atMs), meterNumber, detail } });
  };
  const addEstimatedRun = (meterNumber: string, start: number, stop: number, count: number): void => {
    addEvent(
      start,
      'estimated',
      meterNumber,
      count === 1
        ? 'This reading is estimated.'
        : `${count} consecutive readings are estimated, up to ${iso(stop)}.`,
    );
  };

  let hasReading = false;
  let lastT = Number.NEGATIVE_INFINITY;
  let lastMilli = 0;
  let lastMeterNumber = '';
  let lastIntervalMs = 0;
  let bucket = 0;

  for (const segment of segments) {
    const { t, milli, quality } = segment.readings;
    const { multiplier, meterNumber } = segment;
    const intervalMs = segment.intervalMs;
    if (!(intervalMs > 0)) throw new RangeError(`Meter ${meterNumber}: intervalMs must be positive.`);
    const range = 10 ** segment.registerDigits * 1000;
    const gapThreshold = GAP_FACTOR * intervalMs;
    // Overlapping segments are bad data: the newer meter's readings before the older one's
    // last reading are ignored so that time only moves forward.
    const begin = lowerBound(t, hasReading ? Math.max(fromMs, lastT) : fromMs, 0, false);
    const end = lowerBound(t, toMs, begin, true);
    if (begin >= end) continue;

    let prevT = 0;
    let prevMilli = 0;
    let prevBucket = 0;
    let firstMilli = 0;
    let wraps = 0;
    let runStart = -1;
    let runEnd = 0;
    let runCount = 0;

    for (let i = begin; i < end; i++) {
      const ti = t[i] ?? 0;
      const mi = milli[i] ?? 0;
      const isEstimated = quality[i] === 1;
      if (i > begin && ti <= prevT) continue; // duplicate or unordered instant: keep the first
      readingCount++;
      while (bucket < bucketCount && (edges[bucket + 1] ?? Infinity) <= ti) bucket++;
      // The bucket this reading ends: a reading on a bucket's start edge closes the bucket before.
      const endBucket = ti === edges[bucket] ? bucket - 1 : bucket;

      let consumption = Number.NaN;
      let missing = 0;
      let isMergedPoint = false;
      if (i === begin) {
        firstMilli = mi;
        if (!hasReading) {
          registerStart = mi;
          // Data starting late: whole intervals between the range start and the first reading.
          missing = Math.floor((ti - fromMs) / intervalMs);
          if (missing > 0) {
            addGap(fromMs, ti, missing, null);
            addMissing(ti - missing * intervalMs, missing, intervalMs);
          }
        } else {
          addEvent(
            ti,
            'meterExchange',
            meterNumber,
            `Meter ${lastMeterNumber} (last register ${toUnits(lastMilli)} at ${iso(lastT)}) was replaced by meter ${meterNumber} (first register ${toUnits(mi)}).`,
          );
          // Nobody measured the time between the two meters, so its energy is unknown.
          missing = Math.round((ti - lastT) / intervalMs);
          if (missing > 0) {
            addGap(lastT, ti, missing, null);
            addMissing(lastT, missing, intervalMs);
          }
          isMergedPoint = ti === lastT;
        }
      } else {
        const dt = ti - prevT;
        let diff = mi - prevMilli;
        if (diff < 0 && -diff > range / 2) {
          diff += range;
          wraps++;
          addEvent(
            ti,
            'rollover',
            meterNumber,
            `The register went from ${toUnits(prevMilli)} to ${toUnits(mi)} and rolled over at ${range / 1000}.`,
          );
        }
        const isGap = dt > gapThreshold;
        if (isGap) {
          missing = Math.round(dt / intervalMs) - 1;
          addMissing(prevT + intervalMs, missing, intervalMs);
        }
        if (diff < 0) {
          addEvent(
            ti,
            'registerDecrease',
            meterNumber,
            `The register went down from ${toUnits(prevMilli)} to ${toUnits(mi)}; the energy of this interval is unknown.`,
          );
          if (isGap) addGap(prevT, ti, missing, null);
        } else {
          const energy = diff * multiplier;
          // A gap's energy belongs to a bucket only when the gap lies inside it: spread over several
          // buckets nobody knows how it divides, and putting it all in the first would draw a spike.
          if (prevBucket < bucketCount && (!isGap || endBucket === prevBucket)) {
            bucketEnergy[prevBucket] = (bucketEnergy[prevBucket] ?? 0) + energy;
            bucketHasEnergy[prevBucket] = 1;
          }
          if (isGap) {
            gapSum += energy;
            addGap(prevT, ti, missing, energy);
          } else {
            intervalSum += energy;
            consumption = energy;
            if (energy > peak) {
              peak = energy;
              peakAtMs = ti;
            }
          }
        }
      }

      if (isEstimated) {
        if (runStart < 0) runStart = ti;
        runEnd = ti;
        runCount++;
      } else if (runStart >= 0) {
        addEstimatedRun(meterNumber, runStart, runEnd, runCount);
        runStart = -1;
        runCount = 0;
      }

      // A bucket's register is the one at its end (the last reading after its start, up to its end
      // edge), so a row's register plus the next row's consumption is the next row's register.
      // Segments come oldest first, so at an exchange instant the new meter's register is the last one.
      if (endBucket >= 0 && endBucket < bucketCount) bucketValue[endBucket] = mi;
      if (bucket < bucketCount && isEstimated) bucketEstimated[bucket] = (bucketEstimated[bucket] ?? 0) + 1;
      if (isRaw) {
        if (isMergedPoint) {
          // The old meter's last reading and the new meter's first share one instant and one
          // point: it keeps the old meter's register, which its interval ends on; the new meter's
          // start register is in the exchange event and the next point's consumption starts from it.
          const last = points - 1;
          if (isEstimated) rawEstimated[last] = (rawEstimated[last] ?? 0) + 1;
        } else {
          rawT[points] = ti;
          rawValue[points] = mi;
          rawConsumption[points] = consumption;
          rawMissing[points] = missing;
          rawEstimated[points] = isEstimated ? 1 : 0;
          points++;
        }
      }

      prevT = ti;
      prevMilli = mi;
      prevBucket = bucket;
    }
    if (runStart >= 0) addEstimatedRun(meterNumber, runStart, runEnd, runCount);

    registerDifference += (prevMilli - firstMilli + wraps * range) * multiplier;
    registerEnd = prevMilli;
    hasReading = true;
    lastT = prevT;
    lastMilli = prevMilli;
    lastMeterNumber = meterNumber;
    lastIntervalMs = intervalMs;
  }

  // Data stopping early (or absent): whole intervals up to the range end, but not the future.
  const dataEnd = Math.min(toMs, options.nowMs);
  const firstSegment = segments[0];
  const tailFrom = hasReading ? lastT : fromMs;
  const tailInterval = hasReading ? lastIntervalMs : (firstSegment?.intervalMs ?? 0);
  if (tailInterval > 0 && dataEnd > tailFrom) {
    const missing = Math.floor((dataEnd - tailFrom) / tailInterval);
    if (missing > 0) {
      addGap(tailFrom, dataEnd, missing, null);
      addMissing(tailFrom, missing, tailInterval);
    }
  }

  const consumption = hasReading ? toUnits(registerDifference) : null;
  const coveredDays = hasReading ? localDaysCovered(fromMs, Math.min(toMs, lastT), timeZone) : 0;
  const totals: Totals = {
    consumption,
    registerStart: registerStart === null ? null : toUnits(registerStart),
    registerEnd: registerEnd === null ? null : toUnits(registerEnd),
    registerDifference: consumption,
    intervalSum: toUnits(intervalSum),
    gapConsumption: toUnits(gapSum),
    agrees: registerDifference === intervalSum + gapSum,
    peak: peak < 0 ? null : { consumption: toUnits(peak), at: iso(peakAtMs) },
    averagePerDay: coveredDays > 0 ? toUnits(Math.round(registerDifference / coveredDays)) : null,
    readings: readingCount,
    missingIntervals: missingTotal,
  };

  events.sort((a, b) => a.atMs - b.atMs);
  const readingEvents = events.map((pending) => pending.event);

  if (!isRaw) {
    const hours = new Float64Array(bucketCount);
    for (let k = 0; k < bucketCount; k++) {
      hours[k] = ((edges[k + 1] ?? 0) - (edges[k] ?? 0)) / HOUR_MS;
      if (bucketHasEnergy[k] !== 1) bucketEnergy[k] = Number.NaN;
    }
    const series: SeriesColumns = {
      t: new NumberColumn(Float64Array.from(edges.slice(0, bucketCount))),
      value: new ThousandthsColumn(bucketValue),
      consumption: new ThousandthsColumn(bucketEnergy),
      hours: new NumberColumn(hours),
      missing: new NumberColumn(bucketMissing),
      estimated: new NumberColumn(bucketEstimated),
    };
    return { series, totals, gaps, events: readingEvents, downsampled: false };
  }

  const maxPoints = options.maxPoints;
  if (maxPoints !== undefined && points > maxPoints) {
    const kept = m4Indices(rawT.subarray(0, points), rawConsumption.subarray(0, points), maxPoints);
    return {
      series: keepPoints(
        {
          t: rawT,
          value: rawValue,
          consumption: rawConsumption,
          missing: rawMissing,
          estimated: rawEstimated,
        },
        kept,
      ),
      totals,
      gaps,
      events: readingEvents,
      downsampled: true,
    };
  }
  const series: SeriesColumns = {
    t: new NumberColumn(rawT.subarray(0, points)),
    value: new ThousandthsColumn(rawValue.subarray(0, points)),
    consumption: new ThousandthsColumn(rawConsumption.subarray(0, points)),
    missing: new NumberColumn(rawMissing.subarray(0, points)),
    estimated: new NumberColumn(rawEstimated.subarray(0, points)),
  };
  return { series, totals, gaps, events: readingEvents, downsampled: false };
}

interface RawColumns {
  t: Float64Array;
  value: Float64Array;
  consumption: Float64Array;
  missing: Float64Array;
  estimated: Float64Array;
}

// Keeps the chosen raw points. A dropped point's missing and estimated counts move to the next
// kept point, which then tells how many intervals are missing (and readings estimated) since the
// previous kept point, so no missing interval disappears from the chart.
function keepPoints(raw: RawColumns, kept: readonly number[]): SeriesColumns {
  const t = new Float64Array(kept.length);
  const value = new Float64Array(kept.length);
  const consumption = new Float64Array(kept.length);
  const missing = new Float64Array(kept.length);
  const estimated = new Float64Array(kept.length);
  let from = 0;
  kept.forEach((index, k) => {
    for (let j = from; j <= index; j++) {
      missing[k] = (missing[k] ?? 0) + (raw.missing[j] ?? 0);
      estimated[k] = (estimated[k] ?? 0) + (raw.estimated[j] ?? 0);
    }
    from = index + 1;
    t[k] = raw.t[index] ?? 0;
    value[k] = raw.value[index] ?? Number.NaN;
    consumption[k] = raw.consumption[index] ?? Number.NaN;
  });
  return {
    t: new NumberColumn(t),
    value: new ThousandthsColumn(value),
    consumption: new ThousandthsColumn(consumption),
    missing: new NumberColumn(missing),
    estimated: new NumberColumn(estimated),
  };
}
