// Calendar buckets (hours, days, months in the meter's zone): a record's energy belongs to the
// bucket it lies inside; one across an edge (a billing period, an hour record in a zone whose hours
// start at :30) is a period of its own. Two register readings a nominal interval apart belong to the
// bucket of the first (their times jitter); further apart they are a gap, in a bucket only when
// inside it. A bucket's register is the one at its end.

import { upperBound } from '@cm/contracts/sorted.ts';
import {
  countColumns,
  countFlags,
  gapOf,
  isGap,
  microOf,
  type Accumulation,
  type ChannelColumns,
  type ChannelStep,
  type ColumnNeeds,
  type GapSpan,
  type PeriodSpan,
} from './accumulation.ts';
import type { PeakTracker } from './demand.ts';
import { StepKind } from './steps.ts';

/** Buckets [edges[k], edges[k+1]); `peaks` tracks each bucket's peak and is sized for them. */
export function calendarBuckets(
  edges: readonly number[],
  needs: ColumnNeeds,
  peaks: PeakTracker,
): Accumulation {
  const count = Math.max(0, edges.length - 1);
  // A bucket without any energy stays unknown.
  const unknowns = () => new Float64Array(count).fill(Number.NaN);
  const columns: ChannelColumns = {
    t: new Float64Array(count),
    value: unknowns(),
    consumption: unknowns(),
    ...countColumns(count),
    ...(needs.prices ? { cost: unknowns() } : {}),
    ...(needs.carbon ? { emissions: unknowns() } : {}),
    demand: peaks.buckets.power,
    demandAt: peaks.buckets.at,
    demandAtLeast: peaks.buckets.isAtLeast,
  };
  const { consumption, cost, emissions } = columns;
  const hasEnergy = new Uint8Array(count);
  const gaps: GapSpan[] = [];
  const periods: PeriodSpan[] = [];
  let startCursor = -1;
  let endCursor = -1;

  /** Counts missing records in the buckets they fall in. */
  const addMissing = (slotFrom: number, missing: number, stepMs: number) => {
    if (count === 0 || missing <= 0) return;
    const lastStart = slotFrom + (missing - 1) * stepMs;
    for (let k = Math.max(0, bucketAt(edges, slotFrom)); k < count && (edges[k] ?? 0) <= lastStart; k++) {
      const lo = Math.max(0, Math.ceil(((edges[k] ?? 0) - slotFrom) / stepMs));
      const hi = Math.min(missing, Math.ceil(((edges[k + 1] ?? 0) - slotFrom) / stepMs));
      if (hi > lo) columns.missing[k] = (columns.missing[k] ?? 0) + (hi - lo);
    }
  };
  /** Adds to a bucket's sum, which is unknown (NaN) until its first energy. */
  const addTo = (column: Float64Array, k: number, amount: number) => {
    column[k] = (hasEnergy[k] ? (column[k] ?? 0) : 0) + amount;
  };

  const add = (step: ChannelStep) => {
    const { kind, start, end, flags } = step;
    addMissing(step.slotFrom, step.missing, step.slotMs);
    startCursor = advance(edges, startCursor, start);
    endCursor = advance(edges, endCursor, end);
    const startBucket = startCursor;
    // The bucket a step ends in: a step ending on a bucket's start edge ends the bucket before.
    let endBucket = endCursor;
    if (end === edges[endBucket]) endBucket--;
    if (!Number.isNaN(step.value) && endBucket >= 0 && endBucket < count)
      columns.value[endBucket] = step.value;
    countFlags(columns, step.fromRecord ? startBucket : endCursor, flags);
    const isLong = kind === StepKind.registerGap || kind === StepKind.period || step.fromRecord;
    const inside = startBucket === endBucket || (kind === StepKind.first && startBucket >= 0);
    const isCounted = !isLong || inside;
    const inRange = startBucket >= 0 && startBucket < count;
    if (step.isKnown && inRange && isCounted) {
      if (cost) addTo(cost, startBucket, step.cost);
      if (emissions) addTo(emissions, startBucket, step.emitted);
      addTo(consumption, startBucket, step.energy);
      hasEnergy[startBucket] = 1;
    }
    const hasPower = !Number.isNaN(step.power);
    if (hasPower) peaks.interval(step.power, start, end, isCounted ? startBucket : -1);
    if (step.isDemandOpen) peaks.unknown(startBucket, endBucket, true);
    // An interval across a bucket edge that no bucket counts leaves both buckets' peaks open.
    else if (hasPower && !isCounted) peaks.unknown(startBucket, endBucket, false);
    if (isGap(step)) gaps.push(gapOf(step, inside && inRange ? (edges[startBucket] ?? NaN) : NaN));
    if (step.fromRecord && !inside)
      periods.push({ fromMs: start, toMs: end, energy: step.energy, cost: microOf(step.cost), flags });
  };

  const finish = () => {
    for (let k = 0; k < count; k++) columns.t[k] = edges[k] ?? 0;
    // Costs and emissions were summed exactly in 10^-12; the contract's columns hold millionths.
    for (const summed of [cost, emissions])
      if (summed) for (let k = 0; k < count; k++) summed[k] = microOf(summed[k] ?? Number.NaN);
  };

  return { columns, gaps, periods, add, finish };
}

function bucketAt(edges: readonly number[], ms: number): number {
  return upperBound(edges, ms) - 1;
}

/** `bucketAt` for instants that only move forward: from the bucket of the previous one. */
function advance(edges: readonly number[], from: number, ms: number): number {
  let k = from;
  while (k + 1 < edges.length && (edges[k + 1] ?? Infinity) <= ms) k++;
  return k >= 0 && (edges[k] ?? Infinity) > ms ? bucketAt(edges, ms) : k;
}
