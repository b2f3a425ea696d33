// What one channel's steps add up to, shared by its two ways of being gathered: a point per
// reading (raw-points.ts) or calendar buckets (calendar-buckets.ts). channel.ts walks the steps
// once for the totals and each step's cost, emissions and power (StepFigures), then hands the
// walk to one of them, which passes over it in a loop of its own.
//
// Hot loops. A loop over a year of steps is compiled by V8 while it runs, on its first call
// (on-stack replacement), before the code after the loop has ever run; that compiled loop is
// reused on every later call and gives up (deoptimizes) at the first operation after the loop it
// has no type feedback for — on every call, the rest of the function then interpreted. So each
// loop over steps, records or points is a function of its own that returns right after it.

import { PICO_PER_MICRO } from './cost.ts';
import { StepFlag, StepKind, type Steps } from './steps.ts';

/** A point or bucket column set of one channel, millionths after the multiplier, NaN unknown. */
export interface ChannelColumns {
  t: Float64Array;
  /** Raw only: start of the span each point's consumption covers (NaN for a meter's first reading). */
  from?: Float64Array;
  value: Float64Array;
  consumption: Float64Array;
  missing: Float64Array;
  estimated: Float64Array;
  substituted: Float64Array;
  corrected: Float64Array;
  /** With prices: the cost of each point's or bucket's energy in millionths of the currency, NaN unknown. */
  cost?: Float64Array;
  /** With carbon: the emissions of each point's or bucket's energy in milligrams CO2e, NaN unknown. */
  emissions?: Float64Array;
  /**
   * Demand in millionths of a kW, NaN unknown: raw, each interval point's average power; buckets,
   * the highest of the intervals counted in the bucket.
   */
  demand: Float64Array;
  /** Buckets only: start of each bucket's peak interval (NaN: none). */
  demandAt?: Float64Array;
  /** Buckets only: 1 where part of the bucket had no interval energy, so its peak is "at least". */
  demandAtLeast?: Float64Array;
}

/** The columns every raw point has a value in (besides `t`, `from` and `cost`). */
export const POINT_COLUMNS = [
  'value',
  'consumption',
  'missing',
  'estimated',
  'substituted',
  'corrected',
  'demand',
] as const;

export interface GapSpan {
  fromMs: number;
  toMs: number;
  missing: number;
  /** Millionths, or NaN when unknown. */
  energy: number;
  /** Millionths of the currency, NaN when unknown or not priced. */
  cost: number;
  /**
   * Start of the bucket the gap lies inside, which counts it (its energy, when the registers give
   * it, in that bucket's consumption); NaN for raw points and for a gap across bucket edges.
   */
  bucketMs: number;
}

export interface PeriodSpan {
  fromMs: number;
  toMs: number;
  energy: number;
  /** Millionths of the currency, NaN when not priced. */
  cost: number;
  flags: number;
}

/** What channel.ts worked out of each step (by index) for both ways of gathering them. */
export interface StepFigures {
  /** In 10^-12 of the currency; NaN without prices or for time without a price. */
  cost: Float64Array;
  /** In nanograms CO2e; NaN without carbon or for time without an intensity. */
  emitted: Float64Array;
  /** Average power in millionths of a kW; NaN when the energy is unknown. */
  power: Float64Array;
}

/** A channel's steps gathered into points or buckets. */
export interface Gathered {
  columns: ChannelColumns;
  gaps: GapSpan[];
  periods: PeriodSpan[];
}

/** Which optional columns a channel has. */
export interface ColumnNeeds {
  prices: boolean;
  carbon: boolean;
}

/**
 * The cost and emissions columns a gatherer's loop writes: always typed arrays, an empty one never
 * written when not asked for (a column that is sometimes undefined makes the loop's code generic,
 * for requests with prices and without alike).
 */
export interface WeighedColumns {
  cost: Float64Array;
  emissions: Float64Array;
  isPriced: boolean;
  isWeighed: boolean;
}

const NOT_ASKED = new Float64Array(0);

export function weighedColumns(needs: ColumnNeeds, make: () => Float64Array): WeighedColumns {
  return {
    cost: needs.prices ? make() : NOT_ASKED,
    emissions: needs.carbon ? make() : NOT_ASKED,
    isPriced: needs.prices,
    isWeighed: needs.carbon,
  };
}

/** A cost in 10^-12 of the currency as whole millionths (the contract's resolution). */
export function microOf(pico: number): number {
  return Math.round(pico / PICO_PER_MICRO);
}

/** Registers far apart, or interval records missing: a gap of the answer. */
export function isGap(kind: StepKind, missing: number): boolean {
  return kind === StepKind.registerGap || (kind === StepKind.unknown && missing > 0);
}

/** Step i as a gap of the answer; only registers give its energy. */
export function gapOf(steps: Steps, i: number, cost: number, bucketMs: number): GapSpan {
  const fromRegisters = steps.kind[i] === StepKind.registerGap;
  return {
    fromMs: steps.start[i]!,
    toMs: steps.end[i]!,
    missing: steps.missing[i]!,
    energy: fromRegisters ? steps.energy[i]! : Number.NaN,
    cost: fromRegisters ? microOf(cost) : Number.NaN,
    bucketMs,
  };
}

/** A span whose intervals' peaks are unknown (a gap, a billing period, missing records). */
export function isDemandOpen(kind: StepKind): boolean {
  return kind !== StepKind.first && kind !== StepKind.interval;
}

/** The columns counting values by kind: missing records, estimated, substituted, corrected. */
export interface CountColumns {
  missing: Float64Array;
  estimated: Float64Array;
  substituted: Float64Array;
  corrected: Float64Array;
}

/** The count columns, zero everywhere. */
export function countColumns(size: number): CountColumns {
  return {
    missing: new Float64Array(size),
    estimated: new Float64Array(size),
    substituted: new Float64Array(size),
    corrected: new Float64Array(size),
  };
}

/** Counts a step's estimated, substituted and corrected values at `index` (when inside the columns). */
export function countFlags(counts: CountColumns, index: number, flags: number): void {
  if (index < 0 || index >= counts.estimated.length) return;
  if (flags & StepFlag.estimated) counts.estimated[index] = counts.estimated[index]! + 1;
  if (flags & StepFlag.substituted) counts.substituted[index] = counts.substituted[index]! + 1;
  if (flags & StepFlag.corrected) counts.corrected[index] = counts.corrected[index]! + 1;
}
