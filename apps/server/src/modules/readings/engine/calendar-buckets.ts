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
  isDemandOpen,
  isGap,
  microOf,
  type ChannelColumns,
  type ColumnNeeds,
  type CountColumns,
  type GapSpan,
  type Gathered,
  type PeriodSpan,
  type StepFigures,
  type WeighedColumns,
  weighedColumns,
} from './accumulation.ts';
import type { PeakTracker } from './demand.ts';
import { StepFlag, StepKind, type Steps } from './steps.ts';

/** The walk in buckets [edges[k], edges[k+1]); `peaks` tracks each bucket's peak and is sized for them. */
export function calendarBuckets(
  steps: Steps,
  figures: StepFigures,
  edges: readonly number[],
  needs: ColumnNeeds,
  peaks: PeakTracker,
): Gathered {
  const count = Math.max(0, edges.length - 1);
  // A bucket without any energy stays unknown.
  const unknowns = () => new Float64Array(count).fill(Number.NaN);
  const weighed = weighedColumns(needs, unknowns);
  const columns: ChannelColumns = {
    t: new Float64Array(count),
    value: unknowns(),
    consumption: unknowns(),
    ...countColumns(count),
    cost: weighed.isPriced ? weighed.cost : undefined,
    emissions: weighed.isWeighed ? weighed.emissions : undefined,
    demand: peaks.buckets.power,
    demandAt: peaks.buckets.at,
    demandAtLeast: peaks.buckets.isAtLeast,
  };
  const gaps: GapSpan[] = [];
  const periods: PeriodSpan[] = [];
  bucketSteps(steps, figures, edges, columns, weighed, peaks, gaps, periods);
  fillEdges(columns.t, edges);
  // Costs and emissions were summed exactly in 10^-12; the contract's columns hold millionths.
  toMillionths(weighed.cost);
  toMillionths(weighed.emissions);
  return { columns, gaps, periods };
}

/** The main pass: each step into its bucket, gaps and periods (a hot loop: accumulation.ts). */
function bucketSteps(
  steps: Steps,
  figures: StepFigures,
  edges: readonly number[],
  columns: ChannelColumns,
  weighed: WeighedColumns,
  peaks: PeakTracker,
  gaps: GapSpan[],
  periods: PeriodSpan[],
): void {
  const count = columns.t.length;
  const { consumption } = columns;
  const { cost, emissions, isPriced, isWeighed } = weighed;
  const counts: CountColumns = columns;
  const hasEnergy = new Uint8Array(count);
  let startCursor = -1;
  let endCursor = -1;

  for (let i = 0; i < steps.length; i++) {
    const kind = steps.kind[i] as StepKind;
    const start = steps.start[i]!;
    const end = steps.end[i]!;
    const energy = steps.energy[i]!;
    const missing = steps.missing[i]!;
    const flags = steps.flags[i]!;
    const fromRecord = (flags & StepFlag.record) !== 0;
    if (missing > 0) addMissing(counts.missing, edges, steps.slotFrom[i]!, missing, steps.slotMs[i]!);
    startCursor = advance(edges, startCursor, start);
    endCursor = advance(edges, endCursor, end);
    const startBucket = startCursor;
    // The bucket a step ends in: a step ending on a bucket's start edge ends the bucket before.
    let endBucket = endCursor;
    if (end === edges[endBucket]) endBucket--;
    const value = steps.value[i]!;
    if (!Number.isNaN(value) && endBucket >= 0 && endBucket < count) columns.value[endBucket] = value;
    countFlags(counts, fromRecord ? startBucket : endCursor, flags);
    const isLong = kind === StepKind.registerGap || kind === StepKind.period || fromRecord;
    const inside = startBucket === endBucket || (kind === StepKind.first && startBucket >= 0);
    const isCounted = !isLong || inside;
    const inRange = startBucket >= 0 && startBucket < count;
    if (!Number.isNaN(energy) && inRange && isCounted) {
      // A bucket's sums are unknown (NaN) until its first energy.
      const had = hasEnergy[startBucket] === 1;
      if (isPriced) cost[startBucket] = (had ? cost[startBucket]! : 0) + figures.cost[i]!;
      if (isWeighed) emissions[startBucket] = (had ? emissions[startBucket]! : 0) + figures.emitted[i]!;
      consumption[startBucket] = (had ? consumption[startBucket]! : 0) + energy;
      hasEnergy[startBucket] = 1;
    }
    const power = figures.power[i]!;
    const hasPower = !Number.isNaN(power);
    if (hasPower) peaks.interval(power, start, end, isCounted ? startBucket : -1);
    if (isDemandOpen(kind)) peaks.unknown(startBucket, endBucket, true);
    // An interval across a bucket edge that no bucket counts leaves both buckets' peaks open.
    else if (hasPower && !isCounted) peaks.unknown(startBucket, endBucket, false);
    if (isGap(kind, missing))
      gaps.push(gapOf(steps, i, figures.cost[i]!, inside && inRange ? edges[startBucket]! : Number.NaN));
    if (fromRecord && !inside)
      periods.push({ fromMs: start, toMs: end, energy, cost: microOf(figures.cost[i]!), flags });
  }
}

function fillEdges(t: Float64Array, edges: readonly number[]): void {
  for (let k = 0; k < t.length; k++) t[k] = edges[k]!;
}

/** Sums in 10^-12 as whole millionths, in place. */
function toMillionths(summed: Float64Array): void {
  for (let k = 0; k < summed.length; k++) summed[k] = microOf(summed[k]!);
}

/** Counts `missing` records, from `slotFrom` every `stepMs`, in the buckets they fall in. */
function addMissing(
  counts: Float64Array,
  edges: readonly number[],
  slotFrom: number,
  missing: number,
  stepMs: number,
): void {
  const count = counts.length;
  if (count === 0) return;
  const lastStart = slotFrom + (missing - 1) * stepMs;
  for (let k = Math.max(0, bucketAt(edges, slotFrom)); k < count && edges[k]! <= lastStart; k++) {
    const lo = Math.max(0, Math.ceil((edges[k]! - slotFrom) / stepMs));
    const hi = Math.min(missing, Math.ceil((edges[k + 1]! - slotFrom) / stepMs));
    if (hi > lo) counts[k] = counts[k]! + (hi - lo);
  }
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
