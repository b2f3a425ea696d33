// Demand: the average power of a meter's own intervals (energy ÷ the interval's length), and the
// peak of it per bucket and over the range. Powers are integers in millionths of a kW (the
// energies are millionths of a kWh), rounded once per interval; peaks compare those integers.
// A known energy over a longer span (a gap between two registers, a billing period) is fed as a
// candidate too: some interval inside it reached at least its average, so it is a lower bound,
// and the span's time marks the peak "at least".

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
  /** Start of each bucket's peak interval (epoch ms). */
  at: Float64Array;
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
