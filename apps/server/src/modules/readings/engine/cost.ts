// What the readings engine needs to price energy: a timeline of prices, and an accumulator that
// prices each step while the engine walks them. Which price applies when (tariff versions,
// time-of-use windows on the local clock) is the tariffs module's; here a price is a number over a
// span of time.
//
// Exactness: energies are integers in millionths of the unit, prices integers in millionths of the
// currency per unit, so a step's cost is an integer in 10^-12 of the currency. Totals are kept as
// each segment's energy (an exact integer sum) and multiplied by its price once, in BigInt: a year
// of totals is exact to 10^-12, and totals over split ranges add up exactly. Point and bucket
// costs are doubles (exact below 2^53 · 10^-12, about 9,000 currency units per point).

import { upperBound } from '@cm/contracts/sorted.ts';
import { StepFlag } from './steps.ts';

/**
 * Prices over time: segment k is [start[k], end[k]) and costs price[k] millionths of the currency
 * per unit of energy (NaN where no price is in force). Segments ascend and do not overlap;
 * `version[k]` is the tariff version in force (its standing charge and tax are applied outside).
 */
export interface PriceTimeline {
  start: Float64Array;
  end: Float64Array;
  price: Float64Array;
  version: Int32Array;
  /** Number of tariff versions `version` indexes. */
  versions: number;
}

/** A channel's cost totals: per tariff version, in 10^-12 of the currency, exact. */
export interface CostTotals {
  byVersion: bigint[];
  /** Of which from estimated or substituted values. */
  estimated: bigint;
  /** Energy (millionths) in time without a price. */
  unpricedEnergy: number;
}

export const PICO_PER_MICRO = 1_000_000;

/** Prices the steps of one channel walk, in time order, and keeps the exact totals. */
export class Costing {
  private readonly energy: Float64Array;
  private readonly estimatedEnergy: Float64Array;
  private unpriced = 0;
  private cursor = 0;
  // The segment the last step fell in, when it has a price: most steps fall in the same one.
  private lastSegment = -1;
  private lastStart = Number.NaN;
  private lastEnd = Number.NaN;
  private lastPrice = 0;

  constructor(private readonly timeline: PriceTimeline) {
    this.energy = new Float64Array(timeline.start.length);
    this.estimatedEnergy = new Float64Array(timeline.start.length);
  }

  /**
   * Adds a step's energy (millionths) over [start, end) and returns its cost in 10^-12 of the
   * currency, NaN when part of it has no price. A span across price segments is shared among them
   * by their share of its time (the spread of a register gap is unknown: even is the fair guess),
   * in whole millionths that add up to its energy.
   */
  add(start: number, end: number, energy: number, flags: number): number {
    const isEstimated = (flags & (StepFlag.estimated | StepFlag.substituted)) !== 0;
    if (this.lastStart <= start && start < this.lastEnd && end <= this.lastEnd) {
      this.accrue(this.lastSegment, energy, isEstimated);
      return energy * this.lastPrice;
    }
    const { timeline } = this;
    const n = timeline.start.length;
    let k = this.seek(start);
    // Most steps (an interval, a reading) lie inside one segment.
    if (k < n && (timeline.start[k] ?? 0) <= start && end <= (timeline.end[k] ?? 0)) {
      return this.book(k, energy, isEstimated);
    }
    const span = end - start;
    if (!(span > 0)) {
      if (k < n && (timeline.start[k] ?? 0) <= start && start < (timeline.end[k] ?? 0))
        return this.book(k, energy, isEstimated);
      this.unpriced += energy;
      return Number.NaN;
    }
    let cost = 0;
    let left = energy;
    let covered = start;
    for (; k < n && (timeline.start[k] ?? 0) < end; k++) {
      const from = Math.max(start, timeline.start[k] ?? 0);
      const to = Math.min(end, timeline.end[k] ?? 0);
      if (to <= from) continue;
      if (from > covered) {
        const share = Math.round((energy * (from - covered)) / span);
        this.unpriced += share;
        left -= share;
        cost = Number.NaN;
      }
      const share = to >= end ? left : Math.round((energy * (to - from)) / span);
      left -= share;
      cost += this.book(k, share, isEstimated);
      covered = to;
    }
    if (left !== 0 || covered < end) {
      this.unpriced += left;
      cost = Number.NaN;
    }
    return cost;
  }

  totals(): CostTotals {
    const { timeline } = this;
    const byVersion = Array.from({ length: timeline.versions }, () => 0n);
    let estimated = 0n;
    // Products and their running sums stay plain numbers while they are safe integers (exact), and
    // go to BigInt only beyond: a year of 15-minute segments costs no BigInt arithmetic per segment.
    const pending = new Float64Array(timeline.versions);
    let pendingEstimated = 0;
    for (let k = 0; k < this.energy.length; k++) {
      const energy = this.energy[k] ?? 0;
      const estimatedEnergy = this.estimatedEnergy[k] ?? 0;
      if (energy === 0 && estimatedEnergy === 0) continue;
      const price = timeline.price[k] ?? 0;
      const version = timeline.version[k] ?? 0;
      const product = energy * price;
      const sum = (pending[version] ?? 0) + product;
      if (Number.isSafeInteger(product) && Number.isSafeInteger(sum)) pending[version] = sum;
      else byVersion[version] = (byVersion[version] ?? 0n) + BigInt(energy) * BigInt(price);
      if (estimatedEnergy === 0) continue;
      const estimatedProduct = estimatedEnergy * price;
      if (Number.isSafeInteger(estimatedProduct) && Number.isSafeInteger(pendingEstimated + estimatedProduct))
        pendingEstimated += estimatedProduct;
      else estimated += BigInt(estimatedEnergy) * BigInt(price);
    }
    for (let v = 0; v < byVersion.length; v++) byVersion[v] = (byVersion[v] ?? 0n) + BigInt(pending[v] ?? 0);
    return { byVersion, estimated: estimated + BigInt(pendingEstimated), unpricedEnergy: this.unpriced };
  }

  /** Energy (millionths) booked in each segment so far. */
  segmentEnergy(): Readonly<Float64Array> {
    return this.energy;
  }

  private book(k: number, energy: number, isEstimated: boolean): number {
    const price = this.timeline.price[k] ?? Number.NaN;
    if (Number.isNaN(price)) {
      this.unpriced += energy;
      return Number.NaN;
    }
    this.lastSegment = k;
    this.lastStart = this.timeline.start[k] ?? Number.NaN;
    this.lastEnd = this.timeline.end[k] ?? Number.NaN;
    this.lastPrice = price;
    this.accrue(k, energy, isEstimated);
    return energy * price;
  }

  /** Adds energy to segment k's totals. */
  private accrue(k: number, energy: number, isEstimated: boolean): void {
    this.energy[k] = (this.energy[k] ?? 0) + energy;
    if (isEstimated) this.estimatedEnergy[k] = (this.estimatedEnergy[k] ?? 0) + energy;
  }

  /** The first segment ending after `ms`; steps move forward, so from the last one found. */
  private seek(ms: number): number {
    const { end } = this.timeline;
    if (this.cursor > 0 && (end[this.cursor - 1] ?? 0) > ms) this.cursor = upperBound(end, ms);
    while (this.cursor < end.length && (end[this.cursor] ?? 0) <= ms) this.cursor++;
    return this.cursor;
  }
}
