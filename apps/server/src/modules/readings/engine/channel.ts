// One channel of one meter indicator (the physical meters that held it, oldest first) from steps
// to points or calendar buckets, totals, gaps, periods and events. Pure: no database, no HTTP, no
// Date or Intl per reading.
//
// Rules (docs/readings-model.md):
// - a meter's consumption comes from its interval records wherever it has any in the range, else
//   from its register: register differences × the CT multiplier;
// - an interval record belongs to the bucket it lies inside; across bucket edges (a billing period)
//   it is in no bucket but in `periods` and the totals, drawn as one period, never as a spike;
// - two register readings at most 1.5 nominal intervals apart belong to the bucket holding the
//   first; further apart (a gap) only to a bucket the gap lies inside, else to `gaps` and the totals;
// - the energy of missing interval records is unknown: never given to a neighbour;
// - a bucket's register is the one at its end.

import { LATE_GRACE_INTERVALS } from '@cm/contracts/check-limits.ts';
import { lowerBound, upperBound } from '@cm/contracts/sorted.ts';
import { StepFlag, StepKind, Steps, intervalSteps, recordCadence, registerSteps } from './steps.ts';
import { carbonTotals, type CarbonTotals } from './carbon.ts';
import { Costing, CostingScratch, type CostTotals, type PriceTimeline } from './cost.ts';
import {
  PeakTracker,
  averagePower,
  knownIntervals,
  mapIntervals,
  type KnownIntervals,
  type Peak,
  type PeakColumns,
} from './demand.ts';
import type { IntervalColumns, RegisterColumns, StepEvent } from './steps.ts';
import type { ChannelColumns, GapSpan, PeriodSpan, StepFigures } from './accumulation.ts';
import { calendarBuckets } from './calendar-buckets.ts';
import { rawPoints } from './raw-points.ts';
import { RememberedWalks } from './remembered-walks.ts';

/** One physical meter's stay on the meter indicator, with its readings of one channel in the asked range. */
export interface MeterSegment {
  meterNumber: string;
  /** CT ratio: energy = register difference × multiplier (interval records are energies already). */
  multiplier: number;
  /** The register wraps to 0 at 10^registerDigits units. */
  registerDigits: number;
  /** Nominal time between readings. */
  intervalMs: number;
  registers: RegisterColumns;
  intervals: IntervalColumns;
}

/** What to compute: readings with fromMs ≤ t ≤ toMs (records starting in [fromMs, toMs)). */
export interface ChannelOptions {
  fromMs: number;
  toMs: number;
  /** Bucket edges (empty for raw): bucket k is [edges[k], edges[k+1]). */
  edges: readonly number[];
  /** Missing data is only reported up to now: the future is not missing. */
  nowMs: number;
  /** Prices of this channel's energy (a charge for import, a credit for export); none: no cost. */
  prices?: PriceTimeline | undefined;
  /** The grid's carbon intensity (mg CO2e/kWh per interval, cost.ts's shape); none: no emissions. */
  carbon?: PriceTimeline | undefined;
  /** Keep the intervals of known energy (`intervals`), to sum them with other meters' (demand.ts). */
  keepIntervals?: boolean | undefined;
  /**
   * Names the steps: the segments' readings and every setting the steps come from, and the range
   * (the caller's key; changes whenever one of them does). With it, the walks over prices and
   * carbon are remembered (remembered-walks.ts) for a range that "now" does not shape.
   */
  stepsKey?: string | undefined;
}

export interface ChannelEvent {
  atMs: number;
  type: 'rollover' | 'meterExchange' | 'estimated' | 'substituted' | 'corrected' | 'registerDecrease';
  meterNumber: string;
  /** Exchanges: the meter replaced. */
  previousMeterNumber?: string;
  /** Rollover/decrease: registers before and after; exchange: last and first registers; runs: count and last instant. */
  a: number;
  b: number;
}

/** Totals of one channel, millionths after the multiplier (registers before it). */
export interface ChannelTotals {
  consumption: number | null;
  registerStart: number | null;
  registerEnd: number | null;
  registerDifference: number | null;
  intervalSum: number;
  gapConsumption: number;
  /** Energy from estimated or substituted values. */
  estimatedConsumption: number;
  /** Register difference minus the energy the intervals between those registers hold; 0 when they agree or cannot be compared. */
  disagreement: number;
  agrees: boolean;
  peak: { energy: number; atMs: number } | null;
  /** The highest average power of one interval in the range (demand.ts). */
  demand: Peak | null;
  readings: number;
  missingIntervals: number;
  /** Last instant with data (for the average per day). */
  dataEndMs: number | null;
}

export interface ChannelComputation {
  columns: ChannelColumns;
  totals: ChannelTotals;
  gaps: GapSpan[];
  periods: PeriodSpan[];
  events: ChannelEvent[];
  /** With prices: the exact cost totals. */
  cost?: CostTotals;
  /** With carbon: the exact emissions totals. */
  carbon?: CarbonTotals;
  /** Buckets: each bucket's peak demand, with its interval. */
  bucketPeaks?: PeakColumns;
  /** Asked with `keepIntervals`: the intervals of known energy. */
  intervals?: KnownIntervals;
}

const EMPTY_INTERVALS: IntervalColumns = { start: [], end: [], micro: [], quality: [], revised: [] };

// A channel's steps live only while computeChannel runs, which is synchronous: one set of columns
// serves every call up to this many steps (a few years of 15-minute data) instead of megabytes
// allocated and cleared per request; longer walks get their own.
const REUSED_STEPS = 200_000;
const reusedSteps = new Steps(1024);
let reusedFigures: StepFigures = {
  cost: new Float64Array(0),
  emitted: new Float64Array(0),
  power: new Float64Array(0),
};

const priceScratch = new CostingScratch();
const carbonScratch = new CostingScratch();
const rememberedWalks = new RememberedWalks();

/** Columns for each step's figures: the reused ones up to REUSED_STEPS, as for the steps. */
function stepFigures(count: number): StepFigures {
  if (count > REUSED_STEPS)
    return {
      cost: new Float64Array(count),
      emitted: new Float64Array(count),
      power: new Float64Array(count),
    };
  if (reusedFigures.cost.length < count) {
    const size = Math.max(count, 2 * reusedFigures.cost.length);
    reusedFigures = {
      cost: new Float64Array(size),
      emitted: new Float64Array(size),
      power: new Float64Array(size),
    };
  }
  return reusedFigures;
}

/** Steps of every segment in time order, with the holes before, between and after them. */
function stepAll(segments: readonly MeterSegment[], options: ChannelOptions) {
  // One step per reading and a few holes: sized once, never grown.
  let capacity = 16;
  for (const segment of segments)
    capacity += segment.registers.t.length + 2 * segment.intervals.start.length + 2;
  const steps = capacity <= REUSED_STEPS ? reusedSteps.reset(capacity) : new Steps(capacity);
  const events: ChannelEvent[] = [];
  let registerDifference: number | null = null;
  let registerStart: number | null = null;
  let registerEnd: number | null = null;
  let consumption = 0;
  let disagreement = 0;
  let hasRecords = false;
  let lastT = Number.NEGATIVE_INFINITY;
  let lastValue = Number.NaN;
  let lastIntervalMs = 0;
  let lastMeterNumber = '';
  let hasData = false;
  const noteRegisters = (first: number, last: number, difference: number) => {
    registerStart ??= first;
    registerEnd = last;
    registerDifference = (registerDifference ?? 0) + difference;
  };
  for (const segment of segments) {
    if (!(segment.intervalMs > 0))
      throw new RangeError(`Meter ${segment.meterNumber}: intervalMs must be positive.`);
    const fromMs = hasData ? Math.max(options.fromMs, lastT) : options.fromMs;
    const { start } = segment.intervals;
    const firstRecord = lowerBound(start, fromMs);
    const stopRecord = lowerBound(start, options.toMs, firstRecord);
    const usesRecords = firstRecord < stopRecord;
    const before = steps.length;
    let intervalMs = segment.intervalMs;
    if (usesRecords) {
      intervalMs = recordCadence(segment.intervals, firstRecord, stopRecord, segment.intervalMs);
      const walk = intervalSteps(
        {
          intervals: segment.intervals,
          registers: segment.registers,
          fromMs,
          toMs: options.toMs,
          expectFromMs: hasData ? lastT : options.fromMs,
          intervalMs,
        },
        steps,
      );
      if (hasData) {
        const first = steps.kind[before] === StepKind.unknown ? steps.end[before] : steps.start[before];
        events.push({
          atMs: first ?? 0,
          type: 'meterExchange',
          meterNumber: segment.meterNumber,
          previousMeterNumber: lastMeterNumber,
          a: lastValue,
          b: Number.NaN,
        });
      }
      hasRecords = true;
      consumption += walk.energy;
      // The register, where the meter has one too, is checked against the records between its readings.
      const check = registersBesideRecords(segment, fromMs, options.toMs);
      if (check) {
        noteRegisters(check.first, check.last, check.difference);
        disagreement += check.difference - recordEnergyBetween(segment.intervals, check.firstT, check.lastT);
        for (const event of check.events) events.push(toEvent(event, segment.meterNumber));
      }
      hasData = true;
      lastT = walk.coveredUntil;
      lastValue = Number.NaN;
    } else {
      const { t, micro } = segment.registers;
      const begin = lowerBound(t, fromMs);
      if (begin >= upperBound(t, options.toMs, begin)) continue;
      const firstT = t[begin] ?? 0;
      // Time before this meter's first reading: data starting late, or the time between two meters.
      const missing = hasData
        ? Math.round((firstT - lastT) / segment.intervalMs)
        : Math.floor((firstT - options.fromMs) / segment.intervalMs);
      if (missing > 0) {
        const holeFrom = hasData ? lastT : options.fromMs;
        const slotFrom = hasData ? lastT : firstT - missing * segment.intervalMs;
        steps.push(
          StepKind.unknown,
          holeFrom,
          firstT,
          Number.NaN,
          Number.NaN,
          missing,
          slotFrom,
          segment.intervalMs,
          0,
          0,
        );
      }
      if (hasData) {
        events.push({
          atMs: firstT,
          type: 'meterExchange',
          meterNumber: segment.meterNumber,
          previousMeterNumber: lastMeterNumber,
          a: lastValue,
          b: micro[begin] ?? Number.NaN,
        });
      }
      const firstStep = steps.length;
      const walk = registerSteps(
        {
          registers: segment.registers,
          fromMs,
          toMs: options.toMs,
          multiplier: segment.multiplier,
          registerDigits: segment.registerDigits,
          intervalMs: segment.intervalMs,
        },
        steps,
      );
      let known = 0;
      for (let i = firstStep; i < steps.length; i++)
        if (!Number.isNaN(steps.energy[i] ?? Number.NaN)) known += steps.energy[i] ?? 0;
      noteRegisters(micro[begin] ?? 0, steps.value[steps.length - 1] ?? 0, walk.difference);
      consumption += walk.difference;
      disagreement += walk.difference - known;
      for (const event of walk.events) events.push(toEvent(event, segment.meterNumber));
      hasData = true;
      lastT = steps.end[steps.length - 1] ?? lastT;
      lastValue = steps.value[steps.length - 1] ?? Number.NaN;
    }
    lastIntervalMs = intervalMs;
    lastMeterNumber = segment.meterNumber;
  }
  // Data stopping early (or absent): whole intervals up to the range end, but not the future, nor
  // the last interval before now: a reading due a few minutes ago is late, not missing (a meter or
  // its Cube sends each reading some time after the interval it closes).
  const tailFrom = hasData ? lastT : options.fromMs;
  const tailInterval = hasData ? lastIntervalMs : (segments[0]?.intervalMs ?? 0);
  const dueBy = Math.min(options.toMs, options.nowMs - LATE_GRACE_INTERVALS * tailInterval);
  if (tailInterval > 0 && dueBy > tailFrom) {
    const missing = Math.floor((dueBy - tailFrom) / tailInterval);
    // A range that ended long ago misses everything up to its end; one still going, whole intervals.
    const until = dueBy === options.toMs ? options.toMs : tailFrom + missing * tailInterval;
    if (missing > 0)
      steps.push(
        StepKind.unknown,
        tailFrom,
        until,
        Number.NaN,
        Number.NaN,
        missing,
        tailFrom,
        tailInterval,
        0,
        0,
      );
  }
  return {
    steps,
    events,
    registerDifference,
    registerStart,
    registerEnd,
    consumption: hasData ? consumption : null,
    disagreement,
    hasRecords,
    dataEndMs: hasData ? lastT : null,
    // Whether the range's last intervals were judged by "now" (due, or only late): steps of
    // the same readings may then differ from one moment to the next.
    shapedByNow: dueBy < options.toMs,
  };
}

function toEvent(event: StepEvent, meterNumber: string): ChannelEvent {
  return { atMs: event.atMs, type: event.type, meterNumber, a: event.fromMicro, b: event.toMicro };
}

/** A segment's registers beside its interval records: their difference and where they start and end. */
function registersBesideRecords(segment: MeterSegment, fromMs: number, toMs: number) {
  const scratch = new Steps(16);
  const walk = registerSteps(
    {
      registers: segment.registers,
      fromMs,
      toMs,
      multiplier: segment.multiplier,
      registerDigits: segment.registerDigits,
      intervalMs: segment.intervalMs,
    },
    scratch,
  );
  if (scratch.length === 0) return undefined;
  return {
    first: scratch.value[0] ?? 0,
    last: scratch.value[scratch.length - 1] ?? 0,
    firstT: scratch.start[0] ?? 0,
    lastT: scratch.end[scratch.length - 1] ?? 0,
    difference: walk.difference,
    events: walk.events,
  };
}

/** Energy of the records lying within [fromMs, toMs]. */
function recordEnergyBetween(intervals: IntervalColumns, fromMs: number, toMs: number): number {
  let energy = 0;
  for (let i = lowerBound(intervals.start, fromMs); i < intervals.start.length; i++) {
    if ((intervals.end[i] ?? Infinity) > toMs) break;
    energy += intervals.micro[i] ?? 0;
  }
  return energy;
}

/** What sumSteps adds up. */
class StepSums {
  readonly runs = new RunTracker();
  intervalSum = 0;
  gapSum = 0;
  estimatedSum = 0;
  missingTotal = 0;
  readings = 0;
  peak = -1;
  peakAt = 0;
  /** How many intervals were kept (`keepIntervals`). */
  kept = 0;
}

/**
 * The walk's totals (into `sums`) and each interval's average power, in one pass. A function of its
 * own that returns right after its loop, as every hot loop of the engine (accumulation.ts, "Hot
 * loops"); the sums are kept in `sums` as they go, for the same reason: nothing follows the loop.
 */
function sumSteps(
  steps: Steps,
  segments: readonly MeterSegment[],
  figures: StepFigures,
  kept: KnownIntervals | undefined,
  events: ChannelEvent[],
  sums: StepSums,
): void {
  const { runs } = sums;

  for (let i = 0; i < steps.length; i++) {
    const kind = steps.kind[i] as StepKind;
    const start = steps.start[i] ?? 0;
    const end = steps.end[i] ?? 0;
    const energy = steps.energy[i] ?? Number.NaN;
    const missing = steps.missing[i] ?? 0;
    const flags = steps.flags[i] ?? 0;
    const stepReadings = steps.readings[i] ?? 0;
    const fromRecord = (flags & StepFlag.record) !== 0;
    sums.readings += stepReadings;
    sums.missingTotal += missing;
    if (stepReadings > 0 && ((flags & QUALITY_FLAGS) !== 0 || runs.isOpen))
      runs.note(
        flags,
        fromRecord || kind === StepKind.first ? start : end,
        (event) => events.push(event),
        currentMeter(segments, start),
      );

    const isKnown = !Number.isNaN(energy);
    if (isKnown) {
      if (flags & (StepFlag.estimated | StepFlag.substituted)) sums.estimatedSum += energy;
      if (kind === StepKind.registerGap) sums.gapSum += energy;
      else sums.intervalSum += energy;
      if (kind === StepKind.interval && energy > sums.peak) {
        sums.peak = energy;
        sums.peakAt = end;
      }
    }
    // Demand: each interval's average power. A known energy over a longer span (a gap between
    // registers, a billing period) has an average power too, which its intervals' peak is at least:
    // it counts as a lower bound, and its time (like a missing record's) leaves the peak "at least".
    const power = isKnown ? averagePower(energy, start, end) : Number.NaN;
    if (kept && !Number.isNaN(power) && kind === StepKind.interval) {
      const k = sums.kept++;
      kept.start[k] = start;
      kept.energy[k] = energy;
      kept.nominal[k] = steps.slotMs[i] ?? 0;
    }
    figures.power[i] = power;
  }
}

/** Computes one channel of one meter indicator: raw points without edges, else calendar buckets. */
export function computeChannel(
  segments: readonly MeterSegment[],
  options: ChannelOptions,
): ChannelComputation {
  const walked = stepAll(
    segments.map((segment) => ({
      ...segment,
      intervals: segment.intervals.start.length > 0 ? segment.intervals : EMPTY_INTERVALS,
    })),
    options,
  );
  const { steps } = walked;
  const isRaw = options.edges.length === 0;
  const peaks = new PeakTracker(Math.max(0, options.edges.length - 1));
  const needs = { prices: options.prices !== undefined, carbon: options.carbon !== undefined };
  const figures = stepFigures(steps.length);
  const kept: KnownIntervals | undefined = options.keepIntervals ? knownIntervals(steps.length) : undefined;
  // Cost and emissions first, each in one pass over the steps (cost.ts), or as remembered.
  // Remembered only for steps "now" did not shape (LATE_GRACE_INTERVALS: stepAll).
  const stepsKey = walked.shapedByNow ? undefined : options.stepsKey;
  const priced = <T>(timeline: PriceTimeline, out: Float64Array, walk: () => T) =>
    stepsKey === undefined ? walk() : rememberedWalks.priced(stepsKey, timeline, steps.length, out, walk);
  const { prices, carbon } = options;
  const cost = prices
    ? priced(prices, figures.cost, () => {
        const costing = new Costing(prices, priceScratch);
        costing.priceSteps(steps, figures.cost);
        return costing.totals();
      })
    : undefined;
  if (!prices) figures.cost.fill(Number.NaN, 0, steps.length);
  const emissions = carbon
    ? priced(carbon, figures.emitted, () => {
        const costing = new Costing(carbon, carbonScratch);
        const unknownSteps = costing.priceSteps(steps, figures.emitted);
        return carbonTotals(costing, carbon, options.fromMs, options.toMs, unknownSteps);
      })
    : undefined;
  if (!carbon) figures.emitted.fill(Number.NaN, 0, steps.length);
  const sums = new StepSums();
  sumSteps(steps, segments, figures, kept, walked.events, sums);
  sums.runs.flush((event) => walked.events.push(event));
  const gathered = isRaw
    ? rawPointsOf(steps, figures, peaks, stepsKey, options)
    : calendarBuckets(steps, figures, options.edges, needs, peaks);

  const { registerDifference, consumption, disagreement } = walked;
  walked.events.sort((a, b) => a.atMs - b.atMs);
  return {
    columns: gathered.columns,
    totals: {
      consumption,
      registerStart: walked.registerStart,
      registerEnd: walked.registerEnd,
      registerDifference,
      intervalSum: sums.intervalSum,
      gapConsumption: sums.gapSum,
      estimatedConsumption: sums.estimatedSum,
      disagreement,
      agrees: disagreement === 0,
      peak: sums.peak < 0 ? null : { energy: sums.peak, atMs: sums.peakAt },
      demand: peaks.peak(),
      readings: sums.readings,
      missingIntervals: sums.missingTotal,
      dataEndMs: walked.dataEndMs,
    },
    gaps: gathered.gaps,
    periods: gathered.periods,
    events: walked.events,
    ...(cost ? { cost } : {}),
    ...(emissions ? { carbon: emissions } : {}),
    ...(isRaw ? {} : { bucketPeaks: peaks.buckets }),
    ...(kept ? { intervals: mapIntervals(kept, (column) => column.subarray(0, sums.kept)) } : {}),
  };
}

/**
 * The raw points; their cost and emissions columns, for remembered walks, as the first raw answer
 * of those walks gathered them (the same steps give the same points), else gathered and kept.
 */
function rawPointsOf(
  steps: Steps,
  figures: StepFigures,
  peaks: PeakTracker,
  stepsKey: string | undefined,
  { prices, carbon }: ChannelOptions,
): ReturnType<typeof rawPoints> {
  const points = (timeline: PriceTimeline | undefined) =>
    stepsKey !== undefined && timeline ? rememberedWalks.points(stepsKey, timeline, steps.length) : undefined;
  let cost = points(prices);
  let emissions = points(carbon);
  const gathered = rawPoints(
    steps,
    figures,
    { prices: prices !== undefined && !cost, carbon: carbon !== undefined && !emissions },
    peaks,
  );
  const { columns } = gathered;
  // The same steps give as many points; anything else (never seen) is gathered again, in full.
  const count = columns.t.length;
  if ((cost && cost.length !== count) || (emissions && emissions.length !== count)) {
    const again = rawPoints(
      steps,
      figures,
      { prices: prices !== undefined, carbon: carbon !== undefined },
      new PeakTracker(0),
    );
    cost = again.columns.cost;
    emissions = again.columns.emissions;
  }
  if (cost) columns.cost = cost;
  if (emissions) columns.emissions = emissions;
  if (stepsKey !== undefined) {
    if (prices && columns.cost) rememberedWalks.keepPoints(stepsKey, prices, steps.length, columns.cost);
    if (carbon && columns.emissions)
      rememberedWalks.keepPoints(stepsKey, carbon, steps.length, columns.emissions);
  }
  return gathered;
}

function firstInstant(segment: MeterSegment | undefined): number | undefined {
  if (!segment) return undefined;
  const r = segment.registers.t[0];
  const s = segment.intervals.start[0];
  return r === undefined ? s : s === undefined ? r : Math.min(r, s);
}

function currentMeter(segments: readonly MeterSegment[], ms: number): string {
  let name = segments[0]?.meterNumber ?? '';
  for (const segment of segments) {
    const first = firstInstant(segment);
    if (first !== undefined && first <= ms) name = segment.meterNumber;
  }
  return name;
}

/** Runs of consecutive estimated, substituted or corrected values, each reported once. */
const QUALITY_FLAGS = StepFlag.estimated | StepFlag.substituted | StepFlag.corrected;

class RunTracker {
  private readonly open = new Map<
    ChannelEvent['type'],
    { start: number; last: number; count: number; meter: string }
  >();

  /** Some run is open: values without a flag end it. */
  get isOpen(): boolean {
    return this.open.size > 0;
  }

  note(flags: number, atMs: number, emit: (event: ChannelEvent) => void, meterNumber: string): void {
    this.track('estimated', (flags & StepFlag.estimated) !== 0, atMs, emit, meterNumber);
    this.track('substituted', (flags & StepFlag.substituted) !== 0, atMs, emit, meterNumber);
    this.track('corrected', (flags & StepFlag.corrected) !== 0, atMs, emit, meterNumber);
  }

  flush(emit: (event: ChannelEvent) => void): void {
    for (const type of [...this.open.keys()]) this.close(type, emit);
  }

  private track(
    type: ChannelEvent['type'],
    isOn: boolean,
    atMs: number,
    emit: (event: ChannelEvent) => void,
    meterNumber: string,
  ) {
    const run = this.open.get(type);
    if (isOn && run && run.meter === meterNumber) {
      run.last = atMs;
      run.count++;
    } else if (isOn) {
      if (run) this.close(type, emit);
      this.open.set(type, { start: atMs, last: atMs, count: 1, meter: meterNumber });
    } else if (run) this.close(type, emit);
  }

  private close(type: ChannelEvent['type'], emit: (event: ChannelEvent) => void) {
    const run = this.open.get(type);
    if (!run) return;
    this.open.delete(type);
    emit({ atMs: run.start, type, meterNumber: run.meter, a: run.count, b: run.last });
  }
}
