import type { Granularity, MeterReadings } from '@cm/contracts/check.ts';
import { HOUR_MS, localParts, startOfLocal } from '@cm/contracts/zoned-time.ts';
import { spanStartColumn } from '@cm/contracts/series-columns.ts';
import uPlot from 'uplot';

/*
 * The chart's columns, read straight from the answer's columns: no rows, and for raw readings
 * no copy at all (uPlot draws the answer's own arrays), so a year of 15-minute readings costs
 * nothing between the answer and the plot.
 *
 * x is the END of each interval or bucket, after a leading point at the first one's start without
 * energy: a bar (drawn to the left of its x) covers exactly its interval, and the register line
 * sits at the instant the register was read.
 * - raw: reading i closes the interval since reading i − 1, so the reading instants are the ends
 *   and the first reading is the leading point. A range that starts (ends) with missing data gets
 *   one point more at the gap's start (end), without energy.
 * - buckets: each bucket's end (its own length: 23 or 25 hours on DST days).
 * Energy not known interval by interval (a gap) is null there: a hole, never joined across.
 * The table's rows are built from the same columns, and point p ≥ 1 shows the row ending at x[p]
 * (see rowsByEnd; tested).
 */

/** What the chart draws: the energy, or what it costs (import charged, export credited). */
export type ChartMeasure = 'energy' | 'cost';

/** A channel's column of the measure. */
const columnOf = (
  columns: { consumption: (number | null)[]; cost?: (number | null)[] },
  measure: ChartMeasure,
) => (measure === 'cost' ? (columns.cost ?? columns.consumption.map(() => null)) : columns.consumption);

/** Import cost minus export credit, point by point. */
function netCost(meter: MeterReadings): (number | null)[] | undefined {
  const charged = meter.series.cost;
  const credited = meter.series.other?.cost;
  if (!charged || !credited) return undefined;
  const sign = meter.channel === 'import' ? 1 : -1;
  return charged.map((value, i) => {
    const credit = credited[i] ?? null;
    return value === null || credit === null ? null : Math.round(sign * (value - credit) * 1e6) / 1e6;
  });
}

/**
 * The price each point's energy was charged at, per kWh (import, before tax): its cost over its
 * energy. For an interval that is the tariff's price of that interval (a dynamic tariff's from its
 * series); for a bucket, the price averaged over the energy used. Null where either is unknown or
 * no energy was used (no price can be read from it).
 */
export function pricePerKwh(columns: {
  consumption: readonly (number | null)[];
  cost?: readonly (number | null)[];
}): (number | null)[] {
  const { consumption, cost } = columns;
  return consumption.map((energy, i) => {
    const charged = cost?.[i] ?? null;
    return energy === null || charged === null || energy <= 0
      ? null
      : Math.round((charged / energy) * 1e6) / 1e6;
  });
}

/** One meter's points. */
interface MeterPoints {
  x: number[];
  consumption: (number | null)[];
  /** The register as the meter shows it at x (null where no reading is). */
  register: (number | null)[];
  /** A meter with an export channel: the export, drawn below zero, and net = import − export. */
  exported: (number | null)[] | null;
  net: (number | null)[] | null;
  /** Price per kWh of each point (the caller's pricePerKwh column, placed on x); null: no price line. */
  price: (number | null)[] | null;
}

const negated = (column: readonly (number | null)[]) =>
  column.map((value) => (value === null || value === 0 ? value : -value));

function rawPoints(
  meter: MeterReadings,
  measure: ChartMeasure,
  prices: (number | null)[] | null,
): MeterPoints {
  const { t, value, other } = meter.series;
  const consumption = columnOf(meter.series, measure);
  const net = measure === 'cost' ? netCost(meter) : meter.series.net;
  const first = t[0];
  const last = t[t.length - 1];
  if (first === undefined || last === undefined)
    return { x: [], consumption: [], register: [], exported: null, net: null, price: prices && [] };
  const gaps = meter.gaps;
  const lead = gaps.find((gap) => Date.parse(gap.to) === first && Date.parse(gap.from) < first);
  const tail = gaps.findLast((gap) => Date.parse(gap.from) === last && Date.parse(gap.to) > last);
  const exported = other ? negated(columnOf(other, measure)) : null;
  if (!lead && !tail)
    return {
      x: t,
      consumption,
      register: value,
      exported,
      net: exported ? (net ?? null) : null,
      price: prices,
    };
  const before = lead ? [Date.parse(lead.from)] : [];
  const after = tail ? [Date.parse(tail.to)] : [];
  const pad = (column: readonly (number | null)[]) => [
    ...new Array<null>(before.length).fill(null),
    ...column,
    ...new Array<null>(after.length).fill(null),
  ];
  return {
    x: [...before, ...t, ...after],
    consumption: pad(consumption),
    register: pad(value),
    exported: exported ? pad(exported) : null,
    net: exported && net ? pad(net) : null,
    price: prices ? pad(prices) : null,
  };
}

function bucketPoints(
  meter: MeterReadings,
  rangeEndMs: number,
  measure: ChartMeasure,
  prices: (number | null)[] | null,
): MeterPoints {
  const { t, value, hours, other } = meter.series;
  const consumption = columnOf(meter.series, measure);
  const net = measure === 'cost' ? netCost(meter) : meter.series.net;
  const n = t.length;
  if (n === 0)
    return { x: [], consumption: [], register: [], exported: null, net: null, price: prices && [] };
  const x = new Array<number>(n + 1);
  x[0] = t[0] ?? 0;
  for (let k = 0; k < n; k++) x[k + 1] = bucketEndAt(t, hours, k, rangeEndMs);
  return {
    x,
    consumption: [null, ...consumption],
    // The register at the range start, then each bucket's last one.
    register: [meter.totals.registerStart, ...value],
    exported: other ? [null, ...negated(columnOf(other, measure))] : null,
    net: other && net ? [null, ...net] : null,
    price: prices ? [null, ...prices] : null,
  };
}

function bucketEndAt(
  t: readonly number[],
  hours: readonly number[] | undefined,
  k: number,
  rangeEndMs: number,
) {
  const length = hours?.[k];
  return length === undefined ? (t[k + 1] ?? rangeEndMs) : (t[k] ?? 0) + length * HOUR_MS;
}

function pointsOf(
  meter: MeterReadings,
  granularity: Granularity,
  rangeEndMs: number,
  measure: ChartMeasure,
  prices: (number | null)[] | null = null,
): MeterPoints {
  return granularity === 'raw'
    ? rawPoints(meter, measure, prices)
    : bucketPoints(meter, rangeEndMs, measure, prices);
}

/**
 * The chart's columns: x, then the consumption of each meter, then (one meter, when asked) its
 * register and its price per kWh. One meter with an export channel: x, import, export (negative:
 * drawn below zero), net, register?, price?. Several meters share the bucket edges of the location's zone but may differ in
 * gaps, so they are joined on x; a point a meter lacks is a hole, never a zero.
 * `prices` is the meter's pricePerKwh column, point by point (the one the cheap and dear hours
 * are shaded from), or null for no price line.
 */
export function chartData(
  meters: readonly MeterReadings[],
  granularity: Granularity,
  rangeEndMs: number,
  withRegister: boolean,
  measure: ChartMeasure = 'energy',
  prices: (number | null)[] | null = null,
): uPlot.AlignedData {
  const [only] = meters;
  if (!only) return [[]];
  if (meters.length === 1) {
    const points = pointsOf(only, granularity, rangeEndMs, measure, prices);
    const channels =
      points.exported && points.net
        ? [points.consumption, points.exported, points.net]
        : [points.consumption];
    return [
      points.x,
      ...channels,
      ...(withRegister ? [points.register] : []),
      ...(points.price ? [points.price] : []),
    ];
  }
  return uPlot.join(
    meters.map((meter) => {
      const points = pointsOf(meter, granularity, rangeEndMs, measure);
      return [points.x, points.consumption];
    }),
  );
}

/** A uPlot x range covering the data, for the reset button. */
export function fullXRange(data: uPlot.AlignedData): { min: number; max: number } | null {
  const x = data[0];
  if (!x || x.length === 0) return null;
  const min = Number(x[0]);
  const max = Number(x[x.length - 1]);
  return min === max ? { min: min - HOUR_MS, max: max + HOUR_MS } : { min, max };
}

/** A bar drawn hatched: its span and height (export below zero). */
export interface HatchedBar {
  from: number;
  to: number;
  value: number;
}

/**
 * The bars of one meter that hold estimated or substituted values, hatched over their fill so the
 * chart says which energies are not measured ones (import above zero, export below).
 */
export function hatchedBars(
  meter: MeterReadings,
  granularity: Granularity,
  rangeEndMs: number,
  measure: ChartMeasure = 'energy',
): HatchedBar[] {
  const { t, hours } = meter.series;
  const from = granularity === 'raw' ? spanStartColumn(meter.series) : [];
  const bars: HatchedBar[] = [];
  const channels = [
    { columns: meter.series, sign: 1 },
    ...(meter.series.other ? [{ columns: meter.series.other, sign: -1 }] : []),
  ];
  for (const { columns, sign } of channels) {
    const values = columnOf(columns, measure);
    for (let i = 0; i < t.length; i++) {
      if ((columns.estimated[i] ?? 0) + (columns.substituted[i] ?? 0) === 0) continue;
      const value = values[i] ?? null;
      if (value === null) continue;
      const span =
        granularity === 'raw'
          ? { from: from[i] ?? null, to: t[i] ?? 0 }
          : { from: t[i] ?? 0, to: bucketEndAt(t, hours, i, rangeEndMs) };
      if (span.from !== null) bars.push({ from: span.from, to: span.to, value: sign * value });
    }
  }
  return bars;
}

/**
 * How a clock change is labelled: a day bar is the 23- or 25-hour day itself; a week or month bar
 * only holds one ("clock change: 23 h day"), and is not a 23-hour month.
 */
export function dstLabelKey(granularity: Granularity): 'check.chart.dst' | 'check.chart.dstInside' {
  return granularity === 'week' || granularity === 'month' ? 'check.chart.dstInside' : 'check.chart.dst';
}

/** A stretch of the chart shaded by what the bill charged for its energy (issue 34). */
export interface PriceBand {
  from: number;
  to: number;
  level: 'cheap' | 'dear';
}

/**
 * The most distinct prices a range's hours may have for some to be called cheap and dear: a
 * time-of-use tariff has a few (night, day, peak); prices that change every interval (a dynamic
 * tariff) have many, and are not shaded.
 */
const MAX_PRICE_LEVELS = 6;

/**
 * Hours (and raw intervals) shaded by the price the bill charged for them: `prices` is the price
 * line's own column (pricePerKwh: each point's cost ÷ its energy, both from the answer, so the
 * server's one price rule with no copy of it here), compared to 1/10,000 of the currency per kWh
 * so that the cost's rounding to the millionth does not split one price in two. Points at the
 * range's lowest price are cheap, at its highest dear; a point that straddles two prices (a window
 * starting at :30) is neither, nor is one without a price (energy or cost unknown or zero). Only
 * for hour and raw views, and only when the range has between 2 and MAX_PRICE_LEVELS prices;
 * adjacent points of a level are one band.
 */
export function priceBands(
  meter: MeterReadings,
  granularity: Granularity,
  rangeEndMs: number,
  prices: readonly (number | null)[],
): PriceBand[] {
  if (granularity !== 'hour' && granularity !== 'raw') return [];
  const { t, hours } = meter.series;
  // A raw point's span ends at its time (where it starts, the answer says); a bucket starts at its time.
  const starts = granularity === 'raw' ? spanStartColumn(meter.series) : null;
  const fromOf = (k: number) => (starts ? (starts[k] ?? null) : (t[k] ?? null));
  const toOf = (k: number) => (starts ? (t[k] ?? null) : bucketEndAt(t, hours, k, rangeEndMs));
  // Each point's level (NaN: none) in a typed column, not an object per point (a year raw is 35k
  // points); a tariff with more levels than a time-of-use one has (dynamic prices) stops the walk.
  const levelOf = new Float64Array(t.length).fill(Number.NaN);
  const levels = new Set<number>();
  for (let k = 0; k < t.length; k++) {
    const price = prices[k] ?? null;
    if (price === null || fromOf(k) === null || toOf(k) === null) continue;
    const level = Math.round(price * 10_000);
    levelOf[k] = level;
    levels.add(level);
    if (levels.size > MAX_PRICE_LEVELS) return [];
  }
  if (levels.size < 2) return [];
  const cheapest = Math.min(...levels);
  const dearest = Math.max(...levels);
  const bands: PriceBand[] = [];
  for (let k = 0; k < t.length; k++) {
    const level = levelOf[k] === cheapest ? 'cheap' : levelOf[k] === dearest ? 'dear' : null;
    if (level === null) continue;
    const from = fromOf(k) ?? 0;
    const to = toOf(k) ?? 0;
    const last = bands[bands.length - 1];
    if (last?.level === level && last.to === from) last.to = to;
    else bands.push({ from, to, level });
  }
  return bands;
}

/**
 * What a clock change shades under the bars: none in raw and hour views (a line at the instant);
 * the bar itself in a day view (the 23- or 25-hour day); in a week or month view only the local
 * day of the change inside its bar, not the whole bar (issue 34: March and October were shaded
 * whole). `bucket` is the bar the change falls in (null: none).
 */
export function dstBand(
  granularity: Granularity,
  at: number,
  bucket: { from: number; to: number } | null,
  timeZone: string,
): { from: number; to: number } | null {
  if (bucket === null || granularity === 'raw' || granularity === 'hour') return null;
  if (granularity === 'day') return bucket;
  const { year, month, day } = localParts(at, timeZone);
  const from = startOfLocal({ year, month, day }, timeZone);
  // The next local day, by calendar arithmetic on a UTC date.
  const next = new Date(Date.UTC(year, month - 1, day + 1));
  const to = startOfLocal(
    { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() },
    timeZone,
  );
  return { from: Math.max(from, bucket.from), to: Math.min(to, bucket.to) };
}
