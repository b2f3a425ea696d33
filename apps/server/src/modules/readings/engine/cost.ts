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
import { StepFlag, type Steps } from './steps.ts';

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

const ESTIMATED = StepFlag.estimated | StepFlag.substituted;

/** A Costing's running sums: |cost| summed (is the double sum exact?), energy booked, and the same of estimated energy. */
const Tally = { magnitude: 0, booked: 1, estimatedSum: 2, estimatedMagnitude: 3 } as const;
const TALLY_SIZE = Object.keys(Tally).length;

// A Costing's per-segment columns are scratch while a walk runs (synchronously): a Scratch keeps
// one set for every walk up to this many segments (years of 15-minute prices) instead of new
// zeroed megabytes per request; longer timelines get their own.
const KEPT_SEGMENTS = 400_000;

/** Reusable per-segment columns for one Costing at a time. */
export class CostingScratch {
  private energy = new Float64Array(0);
  private estimated = new Float64Array(0);

  /** Zeroed columns of `size` segments (views of the kept ones when they are large enough). */
  take(size: number): { energy: Float64Array; estimated: Float64Array } {
    if (size > KEPT_SEGMENTS) return { energy: new Float64Array(size), estimated: new Float64Array(size) };
    if (this.energy.length < size) {
      const grown = Math.min(KEPT_SEGMENTS, Math.max(size, 2 * this.energy.length));
      this.energy = new Float64Array(grown);
      this.estimated = new Float64Array(grown);
    } else {
      this.energy.fill(0, 0, size);
      this.estimated.fill(0, 0, size);
    }
    return { energy: this.energy.subarray(0, size), estimated: this.estimated.subarray(0, size) };
  }
}

/**
 * Prices the steps of one channel walk, in time order, and keeps the exact totals: the energy of
 * each segment, and beside it the running sums of energy × price, exact while the sum of their
 * magnitudes is a safe integer (a year of a home's or a small business's); beyond, the totals are
 * worked out from the segments' energies in BigInt.
 */
export class Costing {
  private readonly energy: Float64Array;
  private readonly estimatedEnergy: Float64Array;
  private readonly sums: Float64Array;
  /** The running sums beside `sums` (indexed by Tally), in a column the hot loop updates in place. */
  private readonly tally = new Float64Array(TALLY_SIZE);
  private unpriced = 0;
  private cursor = 0;
  // The segment the last step fell in, when it has a price: most steps fall in the same one.
  private lastSegment = -1;
  private lastStart = Number.NaN;
  private lastEnd = Number.NaN;
  private lastPrice = 0;

  constructor(
    private readonly timeline: PriceTimeline,
    scratch?: CostingScratch,
  ) {
    const columns = scratch?.take(timeline.start.length);
    this.energy = columns?.energy ?? new Float64Array(timeline.start.length);
    this.estimatedEnergy = columns?.estimated ?? new Float64Array(timeline.start.length);
    this.sums = new Float64Array(timeline.versions);
  }

  /**
   * Adds a step's energy (millionths) over [start, end) and returns its cost in 10^-12 of the
   * currency, NaN when part of it has no price. A span across price segments is shared among them
   * by their share of its time (the spread of a register gap is unknown: even is the fair guess),
   * in whole millionths that add up to its energy.
   */
  add(start: number, end: number, energy: number, flags: number): number {
    const isEstimated = (flags & ESTIMATED) !== 0;
    if (this.lastStart <= start && start < this.lastEnd && end <= this.lastEnd)
      return this.accrue(this.lastSegment, energy, isEstimated);
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

  /**
   * Prices every step of a walk in order, as `add` does each, writing its cost to `out` (NaN for
   * unknown energy or time without a price). One loop over steps and segments together: a year of
   * 15-minute steps, each in a segment of its own, costs no call per step. Returns how many steps
   * with energy lie, all or part, in time without a price.
   */
  priceSteps(steps: Steps, out: Float64Array): number {
    const { energy, flags, start, end, length } = steps;
    let unpricedSteps = 0;
    for (
      let i = this.pricedRun(steps, out, 0, 0);
      i < length;
      i = this.pricedRun(steps, out, i + 1, this.cursor)
    ) {
      const cost = this.add(start[i]!, end[i]!, energy[i]!, flags[i]!);
      if (cost !== cost && energy[i] !== 0) unpricedSteps++;
      out[i] = cost;
    }
    return unpricedSteps;
  }

  /** pricedRun (below) on this costing's columns, from step `from` and segment `segment`. */
  private pricedRun(steps: Steps, out: Float64Array, from: number, segment: number): number {
    return pricedRun(
      steps,
      out,
      from,
      segment,
      this.timeline,
      this.energy,
      this.estimatedEnergy,
      this.sums,
      this.tally,
    );
  }

  totals(): CostTotals {
    const { tally } = this;
    const byVersion = Number.isSafeInteger(tally[Tally.magnitude])
      ? Array.from(this.sums, (sum) => BigInt(sum))
      : this.exactByVersion(this.energy);
    const estimated = Number.isSafeInteger(tally[Tally.estimatedMagnitude])
      ? BigInt(tally[Tally.estimatedSum]!)
      : this.exactByVersion(this.estimatedEnergy).reduce((sum, part) => sum + part, 0n);
    return { byVersion, estimated, unpricedEnergy: this.unpriced };
  }

  /** Energy (millionths) booked in each segment so far. */
  segmentEnergy(): Readonly<Float64Array> {
    return this.energy;
  }

  /** Energy (millionths) booked so far, in all segments. */
  bookedEnergy(): number {
    return this.tally[Tally.booked]!;
  }

  /** Each version's cost of per-segment `energies`, in BigInt (the running sums may have rounded). */
  private exactByVersion(energies: Float64Array): bigint[] {
    const { price, version } = this.timeline;
    const sums = Array.from({ length: this.timeline.versions }, () => 0n);
    for (let k = 0; k < energies.length; k++) {
      const energy = energies[k]!;
      if (energy !== 0) sums[version[k]!] = sums[version[k]!]! + BigInt(energy) * BigInt(price[k]!);
    }
    return sums;
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
    return this.accrue(k, energy, isEstimated);
  }

  /** Adds energy to priced segment k's totals; returns its cost. */
  private accrue(k: number, energy: number, isEstimated: boolean): number {
    const product = energy * this.lastPrice;
    const { tally } = this;
    this.energy[k] = this.energy[k]! + energy;
    const v = this.timeline.version[k]!;
    this.sums[v] = this.sums[v]! + product;
    tally[Tally.magnitude] = tally[Tally.magnitude]! + Math.abs(product);
    tally[Tally.booked] = tally[Tally.booked]! + energy;
    if (isEstimated) {
      this.estimatedEnergy[k] = this.estimatedEnergy[k]! + energy;
      tally[Tally.estimatedSum] = tally[Tally.estimatedSum]! + product;
      tally[Tally.estimatedMagnitude] = tally[Tally.estimatedMagnitude]! + Math.abs(product);
    }
    return product;
  }

  /** The first segment ending after `ms`; steps move forward, so from the last one found. */
  private seek(ms: number): number {
    const { end } = this.timeline;
    if (this.cursor > 0 && (end[this.cursor - 1] ?? 0) > ms) this.cursor = upperBound(end, ms);
    while (this.cursor < end.length && (end[this.cursor] ?? 0) <= ms) this.cursor++;
    return this.cursor;
  }
}

/**
 * Prices steps in order from step `from` (segment `segment` on) while each has unknown energy (NaN
 * cost) or lies inside one priced segment — a year's walk of 15-minute steps, each in a segment of
 * its own, at no call per step — adding to the per-segment columns, the versions' sums and the
 * tally as Costing.add would. Returns the first step it leaves to `add` (or the steps' length). A
 * function of its own that returns right after its loop (accumulation.ts, "Hot loops").
 */
function pricedRun(
  steps: Steps,
  out: Float64Array,
  from: number,
  segment: number,
  timeline: PriceTimeline,
  booked: Float64Array,
  estimatedEnergy: Float64Array,
  sums: Float64Array,
  tally: Float64Array,
): number {
  const { start: segmentStart, end: segmentEnd, price, version } = timeline;
  const { energy: stepEnergy, start: stepStart, end: stepEnd, flags: stepFlags, length } = steps;
  const n = segmentStart.length;
  let k = segment;
  for (let i = from; i < length; i++) {
    const energy = stepEnergy[i]!;
    if (energy !== energy) {
      out[i] = Number.NaN;
      continue;
    }
    const start = stepStart[i]!;
    const end = stepEnd[i]!;
    while (k < n && segmentEnd[k]! <= start) k++;
    const segmentPrice = k < n ? price[k]! : Number.NaN;
    if (segmentPrice !== segmentPrice || segmentStart[k]! > start || end > segmentEnd[k]!) return i;
    const product = energy * segmentPrice;
    const magnitude = product < 0 ? -product : product;
    booked[k] = booked[k]! + energy;
    sums[version[k]!] = sums[version[k]!]! + product;
    tally[Tally.magnitude] = tally[Tally.magnitude]! + magnitude;
    tally[Tally.booked] = tally[Tally.booked]! + energy;
    if ((stepFlags[i]! & ESTIMATED) !== 0) {
      estimatedEnergy[k] = estimatedEnergy[k]! + energy;
      tally[Tally.estimatedSum] = tally[Tally.estimatedSum]! + product;
      tally[Tally.estimatedMagnitude] = tally[Tally.estimatedMagnitude]! + magnitude;
    }
    out[i] = product;
  }
  return length;
}
