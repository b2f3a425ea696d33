// Demand: the average power of a meter's own intervals (energy ÷ the interval's length), and the
// peak of it per bucket and over the range. Powers are integers in millionths of a kW (the
// energies are millionths of a kWh), rounded once per interval; peaks compare those integers.
// A known energy over a longer span (a gap between two registers, a billing period) is fed as a
// candidate too: some interval inside it reached at least its average, so it is a lower bound,
// and the span's time marks the peak "at least".

import { lowerBound, upperBound } from '@cm/contracts/sorted.ts';
import { HOUR_MS } from '@cm/contracts/zoned-time.ts';

/** Average power over [startMs, endMs) of `energy` millionths of a kWh, in millionths of a kW. */
export function averagePower(energy: number, startMs: number, endMs: number): number {
  // A record without length (bad data) has no power.
  if (!(endMs > startMs)) return Number.NaN;
  return Math.round((energy * HOUR_MS) / (endMs - startMs));
}

/** The highest average power of one interval, with where that interval lies. */
export interface Peak {
  /** Millionths of a kW. */
  power: number;
  fromMs: number;
  toMs: number;
  /**
   * Some time of the span had no interval energy (missing records, a gap between registers, a
   * billing period, a register that went down): the true peak may be higher.
   */
  isAtLeast: boolean;
}

/** Per-bucket peaks as columns: NaN where a bucket holds no interval. */
export interface PeakColumns {
  /** Millionths of a kW. */
  power: Float64Array;
  /** Start and end of each bucket's peak interval (epoch ms). */
  at: Float64Array;
  to: Float64Array;
  /** 1 where part of the bucket had no interval energy (its peak is "at least"). */
  isAtLeast: Float64Array;
}

/** The peak of a whole range and of each of its buckets, fed one step at a time in time order. */
export class PeakTracker {
  private power = -1;
  private fromMs = 0;
  private toMs = 0;
  private hasUnknown = false;
  readonly buckets: PeakColumns;

  constructor(bucketCount: number) {
    this.buckets = {
      power: new Float64Array(bucketCount).fill(Number.NaN),
      at: new Float64Array(bucketCount).fill(Number.NaN),
      to: new Float64Array(bucketCount).fill(Number.NaN),
      isAtLeast: new Float64Array(bucketCount),
    };
  }

  /** A span of known energy (an interval, or a lower bound), counted in `bucket` (-1: none; raw answers have no buckets). */
  interval(power: number, startMs: number, endMs: number, bucket: number): void {
    // The first of equal peaks stays: "the peak was at 18:15" names the earliest time it was reached.
    if (power > this.power) {
      this.power = power;
      this.fromMs = startMs;
      this.toMs = endMs;
    }
    const { buckets } = this;
    if (bucket < 0 || bucket >= buckets.power.length) return;
    const before = buckets.power[bucket] ?? Number.NaN;
    if (Number.isNaN(before) || power > before) {
      buckets.power[bucket] = power;
      buckets.at[bucket] = startMs;
      buckets.to[bucket] = endMs;
    }
  }

  /**
   * Time without interval energy, from bucket `first` to bucket `last` (inclusive, clamped): the
   * range's peak too unless `inRange` is false (an interval the range counts but no bucket does).
   */
  unknown(first: number, last: number, inRange = true): void {
    if (inRange) this.hasUnknown = true;
    const { isAtLeast } = this.buckets;
    for (let k = Math.max(0, first); k <= Math.min(last, isAtLeast.length - 1); k++) isAtLeast[k] = 1;
  }

  peak(): Peak | null {
    if (this.power < 0) return null;
    return { power: this.power, fromMs: this.fromMs, toMs: this.toMs, isAtLeast: this.hasUnknown };
  }
}

/** A bucket's peak from peak columns, `null` where the bucket holds none. */
export function peakOf(columns: PeakColumns, k: number): Peak | null {
  const power = columns.power[k] ?? Number.NaN;
  if (Number.isNaN(power)) return null;
  return {
    power,
    fromMs: columns.at[k] ?? 0,
    toMs: columns.to[k] ?? 0,
    isAtLeast: (columns.isAtLeast[k] ?? 0) > 0,
  };
}

/** The intervals of known energy of one meter indicator's channel (kept when asked: `keepIntervals`). */
export interface KnownIntervals {
  start: Float64Array;
  /** Millionths of a kWh. */
  energy: Float64Array;
  /** The meter's nominal interval at each (its records' cadence), which the interval stands for. */
  nominal: Float64Array;
}

/** Room for `length` known intervals (typed columns: a year of 5-minute records is 105,120). */
export function knownIntervals(length: number): KnownIntervals {
  return {
    start: new Float64Array(length),
    energy: new Float64Array(length),
    nominal: new Float64Array(length),
  };
}

/** `intervals` with `each` applied to every column (a view of some, a copy of some). */
export function mapIntervals(
  intervals: KnownIntervals,
  each: (column: Float64Array) => Float64Array,
): KnownIntervals {
  return { start: each(intervals.start), energy: each(intervals.energy), nominal: each(intervals.nominal) };
}

/** No intervals. */
export const NO_KNOWN_INTERVALS: KnownIntervals = knownIntervals(0);

/** The intervals of `before` that start before `atMs`, then those of `after` from `atMs` on. */
export function joinIntervals(before: KnownIntervals, after: KnownIntervals, atMs: number): KnownIntervals {
  const earlier = lowerBound(before.start, atMs);
  const later = lowerBound(after.start, atMs);
  const joined = knownIntervals(earlier + after.start.length - later);
  for (const column of ['start', 'energy', 'nominal'] as const) {
    joined[column].set(before[column].subarray(0, earlier));
    joined[column].set(after[column].subarray(later), earlier);
  }
  return joined;
}

/** One meter indicator's part in a sum: its intervals and the time it was installed. */
export interface SummedMeter {
  intervals: KnownIntervals;
  fromMs: number;
  toMs: number;
}

/**
 * Peaks per bucket of several meters' sum, interval by interval (a location without a main supply:
 * its demand is what all its meters draw at once, not the sum of their own peaks, which come at
 * different times). Intervals are summed in slots of the longest nominal interval among them (a
 * 5-minute and a 15-minute meter: quarter hours), aligned to the clock. A slot where some installed
 * meter has less than its whole length known is "at least" its known sum (energies are not
 * negative); `open` marks buckets where some meter had time without interval energy.
 */
export function summedPeaks(
  meters: readonly SummedMeter[],
  edges: readonly number[],
  open: Uint8Array,
): PeakColumns {
  const tracker = new PeakTracker(Math.max(0, edges.length - 1));
  let slotMs = 0;
  for (const meter of meters)
    for (const nominal of meter.intervals.nominal) slotMs = Math.max(slotMs, nominal);
  const slots = new Map<number, { energy: number; covered: number }>();
  if (slotMs > 0)
    for (const { intervals } of meters)
      intervals.start.forEach((start, i) => {
        const slot = start - (start % slotMs);
        const sum = slots.get(slot) ?? { energy: 0, covered: 0 };
        sum.energy += intervals.energy[i] ?? 0;
        sum.covered += intervals.nominal[i] ?? 0;
        slots.set(slot, sum);
      });
  for (const slot of [...slots.keys()].sort((a, b) => a - b)) {
    const sum = slots.get(slot);
    if (!sum) continue;
    const k = upperBound(edges, slot) - 1;
    const installed = meters.filter((meter) => meter.fromMs < slot + slotMs && meter.toMs > slot).length;
    tracker.interval(averagePower(sum.energy, slot, slot + slotMs), slot, slot + slotMs, k);
    if (sum.covered < installed * slotMs) tracker.unknown(k, k, false);
  }
  open.forEach((isOpen, k) => {
    if (isOpen) tracker.unknown(k, k, false);
  });
  return tracker.buckets;
}

/**
 * The rolling average of monthly peaks a capacity tariff charges (Flanders: the average of the
 * last 12 months' peaks, each at least the floor, 2.5 kW): the mean of max(peak, floor) over the
 * months that have a peak, rounded to the millionth of a kW; `null` without any.
 */
export function rollingAverage(
  monthly: readonly (number | null)[],
  floor: number,
): { average: number | null; months: number } {
  let sum = 0;
  let months = 0;
  for (const peak of monthly) {
    if (peak === null) continue;
    sum += Math.max(peak, floor);
    months++;
  }
  return { average: months === 0 ? null : Math.round(sum / months), months };
}
