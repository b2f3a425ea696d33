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

import { lowerBound } from '@cm/contracts/sorted.ts';
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
  const knownEnergy = costing.bookedEnergy();
  const { cleanest, ranged, first, last } = rangeSelection(timeline, fromMs, toMs);
  let cleanestEnergy = 0;
  for (let q = 0; q < cleanest.length; q++) cleanestEnergy += energy[cleanest[q]!]!;
  // The energy in segments starting in the range: all of it but the little booked outside.
  let outside = 0;
  for (let k = 0; k < first; k++) outside += energy[k]!;
  for (let k = last; k < energy.length; k++) outside += energy[k]!;
  const rangedEnergy = knownEnergy - outside;
  return {
    emitted: totals.byVersion[0] ?? 0n,
    knownEnergy,
    unknownEnergy: totals.unpricedEnergy,
    cleanestEnergy,
    rangedEnergy,
    intervals: ranged,
    unknownSteps,
  };
}

/** A range's segments: those starting in it, [first, last); how many have an intensity; the cleanest quarter of those (indices). */
interface RangeSelection {
  first: number;
  last: number;
  ranged: number;
  cleanest: Int32Array;
}

// The selection depends on the timeline and the range alone, not on a meter's energy: a site's
// meters, the detail switch and a reload ask for the same one. Timelines are immutable and
// remembered per series revision (series/sources.ts), so one weakly held per timeline, a few ranges each.
const SELECTIONS_PER_TIMELINE = 8;
const selections = new WeakMap<PriceTimeline, Map<string, RangeSelection>>();

function rangeSelection(timeline: PriceTimeline, fromMs: number, toMs: number): RangeSelection {
  let byRange = selections.get(timeline);
  if (!byRange) {
    byRange = new Map();
    selections.set(timeline, byRange);
  }
  const key = `${fromMs}|${toMs}`;
  const known = byRange.get(key);
  if (known) return known;
  const selection = selectRange(timeline, fromMs, toMs);
  if (byRange.size >= SELECTIONS_PER_TIMELINE) byRange.delete(byRange.keys().next().value ?? '');
  byRange.set(key, selection);
  return selection;
}

function selectRange(timeline: PriceTimeline, fromMs: number, toMs: number): RangeSelection {
  // The segments starting in the range (they ascend), those with an intensity.
  const { start, price } = timeline;
  const first = lowerBound(start, fromMs);
  const last = lowerBound(start, toMs);
  const size = Math.max(0, last - first);
  // One number per interval, intensity then position (exact below 2^53, so all differ): the
  // ⌈n/4⌉ smallest are selected in place, in linear time, without sorting them all.
  const slots = 2 ** Math.ceil(Math.log2(size + 1));
  const inRange = new Int32Array(size);
  const allKeys = new Float64Array(size);
  let n = 0;
  for (let k = first; k < last; k++) {
    const intensity = price[k]!;
    if (Number.isNaN(intensity)) continue;
    inRange[n] = k;
    allKeys[n] = intensity * slots + n;
    n++;
  }
  const keys = allKeys.subarray(0, n);
  const quarter = Math.ceil(n / 4);
  selectSmallest(keys, quarter);
  const cleanest = new Int32Array(quarter);
  for (let q = 0; q < quarter; q++) {
    const key = keys[q]!;
    cleanest[q] = inRange[key - Math.floor(key / slots) * slots]!;
  }
  return { first, last, ranged: n, cleanest };
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
