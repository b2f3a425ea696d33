// The readings engine's entry: the channels of one meter indicator (import, and export where the
// meter has one) computed over the same points or buckets, with the net series between them.
// Energies stay integers in millionths of the unit (mWh for kWh) until written as JSON.

import { COUNT_COLUMNS, type Channel, type Granularity } from '@cm/contracts/check.ts';
import { timeRuns } from '@cm/contracts/series-columns.ts';
import { HOUR_MS } from '@cm/contracts/zoned-time.ts';
import { NumberColumn, MillionthsColumn } from '../../../json-columns.ts';
import { m4Indices } from '../downsample.ts';
import { bucketEdges, localDaysCovered } from '../zoned-time.ts';
import type { PriceTimeline } from './cost.ts';
import { POINT_COLUMNS, type ChannelColumns } from './accumulation.ts';
import { computeChannel, type ChannelComputation, type MeterSegment } from './channel.ts';

export type { MeterSegment } from './channel.ts';

/** What to compute. Readings with fromMs ≤ t ≤ toMs are used: the one at `toMs` closes the last interval. */
export interface ComputeOptions {
  fromMs: number;
  toMs: number;
  timeZone: string;
  granularity: Granularity;
  /** Raw only: downsample (M4) when there are more points than this. */
  maxPoints?: number;
  /** Missing data is only reported up to now: the future is not missing. */
  nowMs: number;
  /** The channel `series` and `totals` are about; the other one (if any) comes beside it. */
  primary: Channel;
  /** Prices per channel (import charged, export credited); a channel without is not priced. */
  prices?: Partial<Record<Channel, PriceTimeline>>;
  /** The grid's carbon intensity: import's emissions, and export's avoided ones (an estimate). */
  carbon?: PriceTimeline;
  /** Keep each channel's intervals of known energy (to sum meters' demand per interval). */
  keepIntervals?: boolean;
  /**
   * Names the readings of every channel and the range (changes whenever they or a setting the
   * steps come from do): the priced walks are then remembered (channel.ts, `stepsKey`).
   */
  readingsKey?: string;
}

/** A channel's columns as written: millionths printed as units, NaN as null. */
export interface ChannelSeriesColumns {
  value: MillionthsColumn;
  consumption: MillionthsColumn;
  /** Each count column only where it is not 0 at every point. */
  missing?: NumberColumn;
  estimated?: NumberColumn;
  substituted?: NumberColumn;
  corrected?: NumberColumn;
  /** With prices: each point's energy cost (import) or credit (export) in the currency. */
  cost?: MillionthsColumn;
  /** With carbon: each point's emissions (import) or avoided emissions (export), kg CO2e. */
  emissions?: MillionthsColumn;
  /** kW (millionths written as units): each interval's average power (raw) or each bucket's peak; left out where every point is unknown. */
  demand?: MillionthsColumn;
  /** Buckets: each peak's interval start (epoch ms). */
  demandAt?: NumberColumn;
  /** Buckets: 1 where the peak is "at least"; left out where 0 at every bucket. */
  demandAtLeast?: NumberColumn;
}

/** The contract's series as typed columns (`JSON.stringify` or `jsonBytes` give its arrays). */
export interface SeriesColumns extends ChannelSeriesColumns {
  /** Each point's time as runs of equal steps (a few numbers: plain arrays). */
  tRuns: ReturnType<typeof timeRuns>;
  /** Raw only: the points whose span does not start at the previous point's t (spanStartsOf). */
  spanStarts?: { index: NumberColumn; from: NumberColumn };
  hours?: NumberColumn;
  /** The other channel (export beside import, or import beside export). */
  other?: ChannelSeriesColumns;
  /** Import minus export, point by point. */
  net?: MillionthsColumn;
}

export interface ComputedChannel extends Omit<ChannelComputation, 'columns'> {
  channel: Channel;
}

export interface ReadingsComputation {
  series: SeriesColumns;
  primary: ComputedChannel;
  other?: ComputedChannel;
  /** Local days with data, for averages per day. */
  coveredDays: number;
  /** The location's zone, in which the answer names local times (a peak's). */
  timeZone: string;
  downsampled: boolean;
}

/** Segments of each channel the meter indicator has (import always). */
export type ChannelSegments = Partial<Record<Channel, readonly MeterSegment[]>> & {
  import: readonly MeterSegment[];
};

export function computeReadings(input: ChannelSegments, options: ComputeOptions): ReadingsComputation {
  const { granularity } = options;
  const isRaw = granularity === 'raw';
  const edges =
    granularity === 'raw' ? [] : bucketEdges(options.fromMs, options.toMs, granularity, options.timeZone);
  const channelOptions = (channel: Channel) => ({
    fromMs: options.fromMs,
    toMs: options.toMs,
    edges,
    nowMs: options.nowMs,
    prices: options.prices?.[channel],
    carbon: options.carbon,
    keepIntervals: options.keepIntervals,
    stepsKey: options.readingsKey === undefined ? undefined : `${options.readingsKey}|${channel}`,
  });
  const otherChannel: Channel = options.primary === 'import' ? 'export' : 'import';
  const primarySegments = input[options.primary] ?? [];
  const otherSegments = input[otherChannel];
  const primary = computeChannel(primarySegments, channelOptions(options.primary));
  const other = otherSegments ? computeChannel(otherSegments, channelOptions(otherChannel)) : undefined;

  let a = primary.columns;
  let b = other?.columns;
  if (isRaw && b) [a, b] = alignRaw(a, b);
  let downsampled = false;
  if (isRaw && options.maxPoints !== undefined && a.t.length > options.maxPoints) {
    const kept = m4Indices(a.t, a.consumption, options.maxPoints);
    a = keepPoints(a, kept);
    if (b) b = keepPoints(b, kept);
    downsampled = true;
  }
  const series: SeriesColumns = {
    tRuns: timeRuns(a.t),
    ...(a.from ? { spanStarts: spanStartsOf(a.t, a.from) } : {}),
    ...(isRaw ? {} : { hours: new NumberColumn(hoursOf(edges)) }),
    ...channelColumns(a),
    ...(b ? { other: channelColumns(b), net: new MillionthsColumn(netOf(a, b, options.primary)) } : {}),
  };
  const dataEnd = Math.max(primary.totals.dataEndMs ?? -Infinity, other?.totals.dataEndMs ?? -Infinity);
  const coveredDays =
    Number.isFinite(dataEnd) && dataEnd > options.fromMs
      ? localDaysCovered(options.fromMs, Math.min(options.toMs, dataEnd), options.timeZone)
      : 0;
  const strip = ({ columns: _columns, ...rest }: ChannelComputation) => rest;
  return {
    series,
    primary: { channel: options.primary, ...strip(primary) },
    ...(other ? { other: { channel: otherChannel, ...strip(other) } } : {}),
    coveredDays,
    timeZone: options.timeZone,
    downsampled,
  };
}

function channelColumns(columns: ChannelColumns): ChannelSeriesColumns {
  const written: ChannelSeriesColumns = {
    value: new MillionthsColumn(columns.value),
    consumption: new MillionthsColumn(columns.consumption),
    ...(columns.cost ? { cost: new MillionthsColumn(columns.cost) } : {}),
    ...(columns.emissions ? { emissions: new MillionthsColumn(columns.emissions) } : {}),
  };
  if (!allNaN(columns.demand)) {
    written.demand = new MillionthsColumn(columns.demand);
    if (columns.demandAt) written.demandAt = new NumberColumn(columns.demandAt);
    if (columns.demandAtLeast && !allZero(columns.demandAtLeast))
      written.demandAtLeast = new NumberColumn(columns.demandAtLeast);
  }
  // A count column that is 0 at every point is left out (the contract's reading of it).
  for (const name of COUNT_COLUMNS)
    if (!allZero(columns[name])) written[name] = new NumberColumn(columns[name]);
  return written;
}

/** A plain loop: `some` with a callback costs a call per point (a year raw has 35,040 per column). */
function allZero(column: Float64Array): boolean {
  for (let i = 0; i < column.length; i++) if (column[i] !== 0) return false;
  return true;
}

function allNaN(column: Float64Array): boolean {
  for (let i = 0; i < column.length; i++) if (!Number.isNaN(column[i])) return false;
  return true;
}

function hoursOf(edges: readonly number[]): Float64Array {
  const hours = new Float64Array(Math.max(0, edges.length - 1));
  for (let k = 0; k < hours.length; k++) hours[k] = ((edges[k + 1] ?? 0) - (edges[k] ?? 0)) / HOUR_MS;
  return hours;
}

/** Import minus export at each point (NaN where either is unknown). */
function netOf(a: ChannelColumns, b: ChannelColumns, primary: Channel): Float64Array {
  const net = new Float64Array(a.t.length);
  const sign = primary === 'import' ? 1 : -1;
  for (let i = 0; i < net.length; i++)
    net[i] = sign * ((a.consumption[i] ?? NaN) - (b.consumption[i] ?? NaN));
  return net;
}

/** A plain loop: `every` with a callback costs a call per point. */
function sameTimes(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Both channels' raw points on the union of their instants (a point one channel lacks is unknown there). */
function alignRaw(a: ChannelColumns, b: ChannelColumns): [ChannelColumns, ChannelColumns] {
  if (sameTimes(a.t, b.t)) return [a, b];
  const t: number[] = [];
  for (let i = 0, j = 0; i < a.t.length || j < b.t.length;) {
    const ta = a.t[i] ?? Infinity;
    const tb = b.t[j] ?? Infinity;
    t.push(Math.min(ta, tb));
    if (ta <= tb) i++;
    if (tb <= ta) j++;
  }
  const spread = (source: ChannelColumns): ChannelColumns => {
    const n = t.length;
    const out: ChannelColumns = {
      t: Float64Array.from(t),
      from: new Float64Array(n).fill(Number.NaN),
      value: new Float64Array(n).fill(Number.NaN),
      consumption: new Float64Array(n).fill(Number.NaN),
      missing: new Float64Array(n),
      estimated: new Float64Array(n),
      substituted: new Float64Array(n),
      corrected: new Float64Array(n),
      demand: new Float64Array(n).fill(Number.NaN),
    };
    if (source.cost) out.cost = new Float64Array(n).fill(Number.NaN);
    if (source.emissions) out.emissions = new Float64Array(n).fill(Number.NaN);
    for (let i = 0, k = 0; i < source.t.length; i++) {
      while ((out.t[k] ?? Infinity) < (source.t[i] ?? 0)) k++;
      if (out.from) out.from[k] = source.from?.[i] ?? Number.NaN;
      for (const key of POINT_COLUMNS) out[key][k] = source[key][i] ?? Number.NaN;
      if (out.cost) out.cost[k] = source.cost?.[i] ?? Number.NaN;
      if (out.emissions) out.emissions[k] = source.emissions?.[i] ?? Number.NaN;
    }
    return out;
  };
  const left = spread(a);
  const right = spread(b);
  // One `from` column for both: the primary's, else the other's.
  if (left.from && right.from)
    for (let k = 0; k < t.length; k++)
      if (Number.isNaN(left.from[k] ?? NaN)) left.from[k] = right.from[k] ?? NaN;
  return [left, right];
}

/**
 * The points whose span start (`from`, NaN: none) is not the previous point's t, the first always:
 * a year of regular readings has one.
 */
export function spanStartsOf(t: Float64Array, from: Float64Array): SeriesColumns['spanStarts'] {
  const index: number[] = [];
  for (let i = 0; i < from.length; i++) if (i === 0 || from[i] !== t[i - 1]) index.push(i);
  return {
    index: new NumberColumn(Float64Array.from(index)),
    from: new NumberColumn(Float64Array.from(index, (i) => from[i] ?? Number.NaN)),
  };
}

// Keeps the chosen raw points. A dropped point's missing and quality counts move to the next kept
// point, which then tells how many intervals are missing (and values estimated) since the previous
// kept point, so no missing interval disappears from the chart.
function keepPoints(raw: ChannelColumns, kept: readonly number[]): ChannelColumns {
  const n = kept.length;
  const out: ChannelColumns = {
    t: new Float64Array(n),
    ...(raw.from ? { from: new Float64Array(n) } : {}),
    value: new Float64Array(n),
    consumption: new Float64Array(n),
    missing: new Float64Array(n),
    estimated: new Float64Array(n),
    substituted: new Float64Array(n),
    corrected: new Float64Array(n),
    ...(raw.cost ? { cost: new Float64Array(n) } : {}),
    ...(raw.emissions ? { emissions: new Float64Array(n) } : {}),
    demand: new Float64Array(n),
  };
  let from = 0;
  kept.forEach((index, k) => {
    for (let j = from; j <= index; j++) {
      out.missing[k] = (out.missing[k] ?? 0) + (raw.missing[j] ?? 0);
      out.estimated[k] = (out.estimated[k] ?? 0) + (raw.estimated[j] ?? 0);
      out.substituted[k] = (out.substituted[k] ?? 0) + (raw.substituted[j] ?? 0);
      out.corrected[k] = (out.corrected[k] ?? 0) + (raw.corrected[j] ?? 0);
    }
    from = index + 1;
    out.t[k] = raw.t[index] ?? 0;
    if (out.from) out.from[k] = raw.from?.[index] ?? Number.NaN;
    out.value[k] = raw.value[index] ?? Number.NaN;
    out.consumption[k] = raw.consumption[index] ?? Number.NaN;
    out.demand[k] = raw.demand[index] ?? Number.NaN;
    if (out.cost) out.cost[k] = raw.cost?.[index] ?? Number.NaN;
    if (out.emissions) out.emissions[k] = raw.emissions?.[index] ?? Number.NaN;
  });
  return out;
}
