// Carbon (issue 36): the emissions of a channel's energy from a grid region's intensity per
// interval, priced like energy is (cost.ts's Costing, with an intensity in milligrams CO2e per kWh
// in place of a price), and the share of the energy used in the cleanest quarter of the range's
// intervals.
//
// Exactness: energy millionths × mg/kWh is an integer in nanograms; totals are exact (BigInt).
// Energy over time without an intensity is counted apart (unknown emissions), never as zero.
//
// The cleanest quarter (docs/carbon.md): of the series' intervals that start in the range and have
// an intensity, n in all, the ⌈n/4⌉ with the lowest intensity (of equal ones, the earlier first);
// the share is the energy used in them over the energy used in all n. No such interval, or no
// energy in them: no share.

import type { Costing, PriceTimeline } from './cost.ts';

export interface CarbonTotals {
  /** Emissions of the energy with a known intensity, in nanograms CO2e (exact). */
  emitted: bigint;
  /** Energy (millionths of a kWh) with a known intensity. */
  knownEnergy: number;
  /** Energy in time without an intensity: its emissions are unknown. */
  unknownEnergy: number;
  /** Energy used in the cleanest quarter of the range's intervals, and in all of them. */
  cleanestEnergy: number;
  rangedEnergy: number;
  /** Intervals with an intensity starting in the range (n). */
  intervals: number;
  /** The channel's steps (meter intervals, register spans) with energy in time without an intensity, all or part. */
  unknownSteps: number;
}

/** A channel's carbon totals from its walk's Costing over the intensity `timeline`. */
export function carbonTotals(
  costing: Costing,
  timeline: PriceTimeline,
  fromMs: number,
  toMs: number,
  unknownSteps: number,
): CarbonTotals {
  const totals = costing.totals();
  const energy = costing.segmentEnergy();
  let knownEnergy = 0;
  for (let k = 0; k < energy.length; k++) knownEnergy += energy[k] ?? 0;
  const inRange: number[] = [];
  for (let k = 0; k < timeline.start.length; k++) {
    const start = timeline.start[k] ?? 0;
    if (start >= fromMs && start < toMs && !Number.isNaN(timeline.price[k] ?? Number.NaN)) inRange.push(k);
  }
  // One number per interval, intensity then position (exact below 2^53, so all differ): the
  // ⌈n/4⌉ smallest are selected in place, in linear time, without sorting them all.
  const slots = 2 ** Math.ceil(Math.log2(inRange.length + 1));
  const keys = new Float64Array(inRange.length);
  for (let i = 0; i < inRange.length; i++) keys[i] = (timeline.price[inRange[i] ?? 0] ?? 0) * slots + i;
  const quarter = Math.ceil(inRange.length / 4);
  selectSmallest(keys, quarter);
  const cleanest = Array.from(keys.subarray(0, quarter), (key) => inRange[key % slots] ?? 0);
  const sum = (indices: readonly number[]) => indices.reduce((total, k) => total + (energy[k] ?? 0), 0);
  return {
    emitted: totals.byVersion[0] ?? 0n,
    knownEnergy,
    unknownEnergy: totals.unpricedEnergy,
    cleanestEnergy: sum(cleanest),
    rangedEnergy: sum(inRange),
    intervals: inRange.length,
    unknownSteps,
  };
}

/** Moves the `count` smallest of `keys` (all different) to its front, in any order (quickselect). */
export function selectSmallest(keys: Float64Array, count: number): void {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo < hi && count > lo && count <= hi) {
    const pivot = keys[(lo + hi) >> 1] ?? 0;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((keys[i] ?? 0) < pivot) i++;
      while ((keys[j] ?? 0) > pivot) j--;
      if (i <= j) {
        const swap = keys[i] ?? 0;
        keys[i] = keys[j] ?? 0;
        keys[j] = swap;
        i++;
        j--;
      }
    }
    // [lo, j] ≤ pivot ≤ [i, hi]: keep on the side where the count-th smallest lies.
    if (count <= j) hi = j;
    else if (count >= i) lo = i;
    else return;
  }
}
