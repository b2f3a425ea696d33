import { lowerBound } from '@cm/contracts/sorted.ts';
import type { Granularity } from '@cm/contracts/check.ts';
import uPlot from 'uplot';
import { DAY_MS, localParts } from '@cm/contracts/zoned-time.ts';
import type { HatchedBar, PriceBand } from './chart-data.ts';

/*
 * The readings chart's uPlot options, built by a pure function outside React (Grafana's way):
 * the same spec gives an equal options object, so the React shell can rebuild the plot only
 * when the spec changes, and push new data with setData otherwise.
 *
 * Data layout (columns, x first; chart-data.ts): [end of each interval or bucket, consumption of
 * meter 1..n, register?]. Bars are drawn to the left of their x, so a bar covers exactly its
 * interval; energy lines (net, and consumption drawn as a line) put each value at its interval's
 * centre, over its bar; the register line sits at the instant the register was read.
 */

/** Colours of the chart; picked by the caller from the skin (light or dark). */
export interface ChartTheme {
  text: string;
  grid: string;
  axis: string;
  series: readonly string[];
  register: string;
  /** Net (import − export) line of a meter with an export channel. */
  net: string;
  /** Stripes over bars that hold estimated or substituted values. */
  hatch: string;
  gapFill: string;
  dst: string;
  /** Fill of a bucket (day, week, month) that has a clock change. */
  dstBand: string;
  /** Fills of the hours billed at the range's lowest and highest price (priceBands). */
  cheapBand: string;
  dearBand: string;
  /** Fill of a billing period across bucket edges (one energy, spread unknown). */
  periodBand: string;
  event: string;
  /** The price per kWh line (a tariff's price, interval by interval). */
  price: string;
  /** The peak demand's marker. */
  peak: string;
  selection: string;
}

/**
 * Light and dark themes (contrast ≥ 3:1 against the card for lines and text, and against the
 * card under each band's fill; tested).
 */
export const chartThemes: Record<'light' | 'dark', ChartTheme> = {
  light: {
    text: '#3b3f45',
    grid: 'rgba(0,0,0,0.08)',
    axis: 'rgba(0,0,0,0.25)',
    series: ['#1c64c4', '#c2410c', '#0f7b45', '#7e22ce', '#a16207', '#be185d', '#0e7490'],
    register: '#5b6470',
    net: '#7e22ce',
    hatch: 'rgba(255, 255, 255, 0.85)',
    gapFill: 'rgba(201, 42, 42, 0.10)',
    dst: '#a16207',
    dstBand: 'rgba(161, 98, 7, 0.12)',
    cheapBand: 'rgba(21, 128, 61, 0.10)',
    dearBand: 'rgba(185, 28, 28, 0.08)',
    periodBand: 'rgba(126, 34, 206, 0.10)',
    event: '#c92a2a',
    peak: '#0f7b45',
    price: '#b45309',
    selection: 'rgba(28, 100, 196, 0.15)',
  },
  dark: {
    text: '#d5d7db',
    grid: 'rgba(255,255,255,0.08)',
    axis: 'rgba(255,255,255,0.3)',
    series: ['#74a9f0', '#fb923c', '#4ade80', '#c084fc', '#facc15', '#f472b6', '#22d3ee'],
    register: '#b8bec7',
    net: '#c084fc',
    hatch: 'rgba(20, 21, 23, 0.8)',
    gapFill: 'rgba(255, 107, 107, 0.16)',
    dst: '#facc15',
    dstBand: 'rgba(250, 204, 21, 0.14)',
    cheapBand: 'rgba(74, 222, 128, 0.12)',
    dearBand: 'rgba(248, 113, 113, 0.12)',
    periodBand: 'rgba(192, 132, 252, 0.16)',
    event: '#ff8787',
    peak: '#4ade80',
    price: '#fbbf24',
    selection: 'rgba(116, 169, 240, 0.2)',
  },
};

/** Things drawn over the plot. They travel with the data, not the options, so new data never rebuilds the plot. */
export interface ChartMarkers {
  /**
   * Time zone offset changes (DST), with a short label ("23 h day"). In day, week and month views
   * `band` is the bucket that holds the change: the whole 23- or 25-hour bar is marked, not an
   * instant inside it; in hour and raw views the instant is a line.
   */
  dst: { at: number; label: string; from: number; to: number; band: { from: number; to: number } | null }[];
  /** Meter exchanges and rollovers, with a short label. */
  events: { at: number; label: string }[];
  /**
   * Bars are drawn inside this span only: the asked range up to its last data. A week still going
   * ends at its last reading, a first week that began before the range starts with the range.
   */
  barsWithin: { from: number; to: number };
  /** Missing data: shaded from → to. */
  gaps: { from: number; to: number }[];
  /** Bars that hold estimated or substituted values: hatched. */
  hatched: HatchedBar[];
  /** Billing periods across bucket edges: shaded from → to, labelled with their energy. */
  periods: { from: number; to: number; label: string }[];
  /** The range's peak demand: its interval [from, to), marked at its middle with a triangle, labelled with the kW. */
  peak: { from: number; to: number; label: string } | null;
  /** Hours the bill charged at the range's lowest and highest price (chart-data.ts priceBands): shaded. */
  prices: PriceBand[];
}

/** Everything the options depend on. */
export interface ChartSpec {
  width: number;
  height: number;
  timeZone: string;
  locale: string;
  granularity: Granularity;
  mode: 'bars' | 'line';
  /** One label per bar series: one per meter indicator, or import and export of one meter. */
  seriesLabels: readonly string[];
  /** The net line's label (one meter with an export channel), or null. */
  netLabel: string | null;
  /** Register line label, or null to leave it out. */
  registerLabel: string | null;
  /** Price line label (its axis: currency per kWh), or null to leave it out. */
  priceLabel: string | null;
  /** Energy unit on the left axis ("kWh"). */
  unit: string;
  theme: ChartTheme;
  /** Formats axis numbers in the interface language. */
  formatNumber: (value: number) => string;
  /** Formats the price axis (more decimals: a few cents per kWh). */
  formatPrice: (value: number) => string;
}

/** What the shell gives the builder: where to find the markers, and who to tell about the cursor and zoom. */
export interface ChartCallbacks {
  getMarkers: () => ChartMarkers;
  /** The hovered row (or null), with the cursor's position in CSS pixels inside the plot area. */
  onCursor?: (index: number | null, left: number, top: number) => void;
  /** The x range after a zoom or reset. */
  onZoom?: (min: number, max: number) => void;
  /** After every draw (the page marks it for the benchmark). */
  onDraw?: () => void;
}

const tickFormats = new Map<string, Intl.DateTimeFormat>();
function tickFormat(
  locale: string,
  timeZone: string,
  kind: 'time' | 'day' | 'month' | 'year',
): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}|${kind}`;
  let format = tickFormats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'time'
        ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
        : kind === 'day'
          ? { day: 'numeric', month: 'short' }
          : kind === 'month'
            ? { month: 'short', year: 'numeric' }
            : { year: 'numeric' };
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    tickFormats.set(key, format);
  }
  return format;
}

/**
 * A Date whose local fields (getHours, getDate, …) show the wall clock of the zone at `ms`, as
 * uPlot's tzDate must. uPlot's own asks Intl on every call (toLocaleString with a time zone, a
 * new formatter each time: milliseconds per axis layout); this reads the shared offset timeline.
 */
export function wallClockDate(ms: number, timeZone: string): Date {
  const p = localParts(ms, timeZone);
  return new Date(p.year, p.month - 1, p.day, p.hour, p.minute, p.second, p.millisecond);
}

/**
 * x axis labels in the location's zone: times for sub-day ticks (the date at local midnight),
 * days for day ticks, months and years above.
 */
export function formatTimeTicks(
  splits: readonly number[],
  incrementMs: number,
  locale: string,
  timeZone: string,
): string[] {
  return splits.map((ms) => {
    if (incrementMs < DAY_MS) {
      const p = localParts(ms, timeZone);
      return p.hour === 0 && p.minute === 0
        ? tickFormat(locale, timeZone, 'day').format(ms)
        : tickFormat(locale, timeZone, 'time').format(ms);
    }
    if (incrementMs < 28 * DAY_MS) return tickFormat(locale, timeZone, 'day').format(ms);
    if (incrementMs < 365 * DAY_MS) return tickFormat(locale, timeZone, 'month').format(ms);
    return tickFormat(locale, timeZone, 'year').format(ms);
  });
}

/** A marker label to place: its line's x, the text's width, and the space between line and text (canvas pixels). */
interface LabelRequest {
  x: number;
  width: number;
  gap: number;
}

/**
 * Where marker labels go: beside their line (right of it, or left when it would leave the
 * plot), in the first of `rows` text rows where it overlaps no label already placed; null when
 * no row has room (the line stays, the legend and the notes tell what it is).
 */
export function placeLabels(
  requests: readonly LabelRequest[],
  bounds: { left: number; right: number },
  rows: number,
): ({ x: number; row: number } | null)[] {
  const taken: { from: number; to: number }[][] = Array.from({ length: rows }, () => []);
  return requests.map(({ x, width, gap }) => {
    const right = x + gap;
    const textX = right + width <= bounds.right ? right : Math.max(bounds.left + gap / 2, x - gap - width);
    const span = { from: textX - gap, to: textX + width + gap };
    const row = taken.findIndex((row) =>
      row.every((other) => other.to <= span.from || other.from >= span.to),
    );
    if (row < 0) return null;
    taken[row]?.push(span);
    return { x: textX, row };
  });
}

const LABEL_ROWS = 3;

/**
 * Shades the buckets that hold a clock change, billing periods and the cheapest and dearest hours,
 * under the bars (drawn before the series).
 */
function drawDstBands(u: uPlot, markers: ChartMarkers, theme: ChartTheme): void {
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  ctx.save();
  const bands = [
    ...markers.dst.flatMap(({ band }) => (band ? [{ ...band, fill: theme.dstBand }] : [])),
    ...markers.periods.map((period) => ({ ...period, fill: theme.periodBand })),
    ...markers.prices.map((band) => ({
      ...band,
      fill: band.level === 'cheap' ? theme.cheapBand : theme.dearBand,
    })),
  ];
  for (const band of bands) {
    const x0 = Math.max(left, Math.round(u.valToPos(band.from, 'x', true)));
    const x1 = Math.min(left + width, Math.round(u.valToPos(band.to, 'x', true)));
    ctx.fillStyle = band.fill;
    if (x1 > x0) ctx.fillRect(x0, top, x1 - x0, height);
  }
  ctx.restore();
}

/** Share of a bucket left empty beside its bar, and the most that gap takes (CSS pixels). */
const BAR_GAP_SHARE = 0.14;
const BAR_GAP_MAX = 12;

/**
 * Where the bar of the interval or bucket [from, to) is drawn, in canvas pixels: over its own
 * span, cut to `within`, less a small gap (none when that would leave less than a pixel); null
 * when nothing of it is inside.
 */
function barSpan(u: uPlot, from: number, to: number, within: ChartMarkers['barsWithin']) {
  const start = Math.max(from, within.from);
  const end = Math.min(to, within.to);
  if (!(end > start)) return null;
  let x0 = u.valToPos(start, 'x', true);
  let x1 = u.valToPos(end, 'x', true);
  const gap = Math.min((x1 - x0) * BAR_GAP_SHARE, BAR_GAP_MAX * uPlot.pxRatio);
  if (x1 - x0 - gap >= 1) {
    x0 += gap / 2;
    x1 -= gap / 2;
  }
  return { x0, x1: Math.max(x1, x0 + 1) };
}

/**
 * Bars that each cover their own interval or bucket: x is each one's end, so the bar of point i
 * spans from point i − 1 to point i (uPlot's own bars are one width for all, drawn beside their x,
 * and a week still going would reach into the future).
 */
function spanBars(getWithin: () => ChartMarkers['barsWithin']): uPlot.Series.PathBuilder {
  return (u, seriesIdx, idx0, idx1) => {
    const xs = u.data[0];
    const ys = u.data[seriesIdx] ?? [];
    const within = getWithin();
    const zero = u.valToPos(0, 'energy', true);
    const fill = new Path2D();
    for (let i = Math.max(idx0, 1); i <= idx1; i += 1) {
      const y = ys[i];
      if (y === null || y === undefined) continue;
      const span = barSpan(u, Number(xs[i - 1]), Number(xs[i]), within);
      if (!span) continue;
      const top = u.valToPos(y, 'energy', true);
      fill.rect(span.x0, Math.min(top, zero), span.x1 - span.x0, Math.abs(zero - top));
    }
    return { stroke: null, fill, clip: null, band: null, flags: 0 };
  };
}

/**
 * The point whose interval or bucket lies under x (issue 34): point i ≥ 1 spans x[i − 1] … x[i],
 * so it is the first point at or after x, never the leading point 0 and never the nearest end
 * (over a bar's left half that is the bucket before). Null without a bucket.
 */
function pointUnder(xs: ArrayLike<number>, xValue: number): number | null {
  if (xs.length < 2 || !Number.isFinite(xValue)) return null;
  return Math.min(xs.length - 1, Math.max(1, lowerBound(xs, xValue)));
}

/** The middle of point i's interval or bucket, where an energy line puts its value. */
function bucketCentre(xs: ArrayLike<number | null | undefined>, i: number): number {
  const end = Number(xs[i]);
  return i > 0 ? (Number(xs[i - 1]) + end) / 2 : end;
}

const barUnderCursor: uPlot.Cursor.DataIdxRefiner = (u, _seriesIdx, closestIdx, xValue) =>
  pointUnder(u.data[0], xValue) ?? closestIdx;

/**
 * An energy line: each value at its interval's centre, so the line runs over the middle of its
 * bars (not half a bar to the right, at the bucket ends); unknown energy breaks it.
 */
/**
 * The runs of a price line: x is an interval's end, so each known value holds over (x[i-1], x[i]]
 * (the interval it was charged in), the first interval and the one after a gap included. A run is
 * the values of adjacent intervals; an unknown value ends it.
 */
export function priceRuns(
  xs: ArrayLike<number | null | undefined>,
  ys: ArrayLike<number | null | undefined>,
): { x: number; y: number }[][] {
  const runs: { x: number; y: number }[][] = [];
  let run: { x: number; y: number }[] | null = null;
  for (let i = 1; i < xs.length; i += 1) {
    const y = ys[i];
    const from = xs[i - 1];
    const to = xs[i];
    if (
      y === null ||
      y === undefined ||
      from === null ||
      from === undefined ||
      to === null ||
      to === undefined
    ) {
      run = null;
      continue;
    }
    if (!run) {
      run = [{ x: from, y }];
      runs.push(run);
    } else run.push({ x: from, y });
    run.push({ x: to, y });
  }
  return runs;
}

const priceSteps: uPlot.Series.PathBuilder = (u, seriesIdx) => {
  const scale = u.series[seriesIdx]?.scale ?? 'price';
  const stroke = new Path2D();
  for (const run of priceRuns(u.data[0], u.data[seriesIdx] ?? [])) {
    run.forEach((point, k) => {
      const x = u.valToPos(point.x, 'x', true);
      const y = u.valToPos(point.y, scale, true);
      if (k === 0) stroke.moveTo(x, y);
      else stroke.lineTo(x, y);
    });
  }
  return { stroke, fill: null, clip: null, band: null, flags: 0 };
};

const centreLine: uPlot.Series.PathBuilder = (u, seriesIdx, idx0, idx1) => {
  const xs = u.data[0];
  const ys = u.data[seriesIdx] ?? [];
  const scale = u.series[seriesIdx]?.scale ?? 'energy';
  const stroke = new Path2D();
  let isDrawing = false;
  for (let i = Math.max(idx0 - 1, 1); i <= Math.min(idx1 + 1, xs.length - 1); i += 1) {
    const y = ys[i];
    if (y === null || y === undefined) {
      isDrawing = false;
      continue;
    }
    const x = u.valToPos(bucketCentre(xs, i), 'x', true);
    const top = u.valToPos(y, scale, true);
    if (isDrawing) stroke.lineTo(x, top);
    else stroke.moveTo(x, top);
    isDrawing = true;
  }
  return { stroke, fill: null, clip: null, band: null, flags: 0 };
};

/** Size of the hover point on a line (CSS pixels). */
const HOVER_POINT = 8;

/** The hover point of a line series: on its value, at the centre of the bucket (the register: at its instant). */
const hoverPoint = (u: uPlot, seriesIdx: number) => {
  const idx = u.cursor.idxs?.[seriesIdx];
  const y = idx === null || idx === undefined ? null : u.data[seriesIdx]?.[idx];
  const scale = u.series[seriesIdx]?.scale ?? 'energy';
  if (idx === null || idx === undefined || y === null || y === undefined)
    return { left: -10, top: -10, width: 0, height: 0 };
  const x = scale === 'register' ? Number(u.data[0][idx]) : bucketCentre(u.data[0], idx);
  return {
    left: u.valToPos(x, 'x') - HOVER_POINT / 2,
    top: u.valToPos(y, scale) - HOVER_POINT / 2,
    width: HOVER_POINT,
    height: HOVER_POINT,
  };
};

/** Diagonal stripes over the bars of estimated or substituted values (as the legend shows them). */
function drawHatches(
  u: uPlot,
  bars: readonly HatchedBar[],
  within: ChartMarkers['barsWithin'],
  theme: ChartTheme,
): void {
  if (bars.length === 0) return;
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const ratio = uPlot.pxRatio;
  const step = 5 * ratio;
  const zero = u.valToPos(0, 'energy', true);
  ctx.save();
  ctx.beginPath();
  for (const bar of bars) {
    const span = barSpan(u, bar.from, bar.to, within);
    if (!span) continue;
    const x0 = Math.max(left, span.x0);
    const x1 = Math.min(left + width, span.x1);
    if (x1 <= x0) continue;
    const y = u.valToPos(bar.value, 'energy', true);
    ctx.rect(x0, Math.max(top, Math.min(y, zero)), x1 - x0, Math.min(height, Math.abs(zero - y)));
  }
  ctx.clip();
  ctx.strokeStyle = theme.hatch;
  ctx.lineWidth = ratio;
  ctx.beginPath();
  for (let x = left - height; x < left + width; x += step) {
    ctx.moveTo(x, top + height);
    ctx.lineTo(x + height, top);
  }
  ctx.stroke();
  ctx.restore();
}

function drawMarkers(u: uPlot, markers: ChartMarkers, theme: ChartTheme): void {
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const ratio = uPlot.pxRatio;
  const x = (ms: number) => Math.round(u.valToPos(ms, 'x', true));
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();
  ctx.fillStyle = theme.gapFill;
  // A gap is shaded at least 3 px wide: six hours in a year's view would be a fraction of a pixel.
  const minGap = 3 * ratio;
  for (const gap of markers.gaps) {
    const from = x(gap.from);
    const to = x(gap.to);
    const grow = Math.max(0, minGap - (to - from)) / 2;
    const x0 = Math.max(left, from - grow);
    const x1 = Math.min(left + width, to + grow);
    if (x1 <= x0) continue;
    ctx.fillRect(x0, top, x1 - x0, height);
    // Outlined, as in the legend, so a narrow band still shows.
    ctx.strokeStyle = theme.event;
    ctx.lineWidth = ratio;
    ctx.strokeRect(x0 + 0.5, top + 0.5, x1 - x0 - 1, height - 1);
  }
  ctx.font = `${Math.round(11 * ratio)}px system-ui, sans-serif`;
  ctx.textBaseline = 'top';
  // uPlot leaves its own alignment on the context after drawing the axes.
  ctx.textAlign = 'left';
  // A banded DST bucket gets its label at the band's start and no line.
  const lines = [
    ...markers.dst.map((dst) => ({
      at: x(dst.band?.from ?? dst.at),
      color: theme.dst,
      label: dst.label,
      dash: [4, 3],
      isLine: dst.band === null,
    })),
    ...markers.events.map((event) => ({
      at: x(event.at),
      color: theme.event,
      label: event.label,
      dash: [],
      isLine: true,
    })),
    ...markers.periods.map((period) => ({
      at: x(period.from),
      color: theme.net,
      label: period.label,
      dash: [],
      isLine: false,
    })),
    ...(markers.peak
      ? [
          {
            at: x((markers.peak.from + markers.peak.to) / 2),
            color: theme.peak,
            label: markers.peak.label,
            dash: [2, 2],
            isLine: true,
          },
        ]
      : []),
  ].filter((line) => line.at >= left && line.at <= left + width);
  const places = placeLabels(
    lines.map((line) => ({ x: line.at, width: ctx.measureText(line.label).width, gap: 4 * ratio })),
    { left, right: left + width },
    LABEL_ROWS,
  );
  lines.forEach((line, i) => {
    ctx.strokeStyle = line.color;
    ctx.fillStyle = line.color;
    ctx.lineWidth = ratio;
    if (line.isLine) {
      ctx.setLineDash(line.dash.map((d) => d * ratio));
      ctx.beginPath();
      ctx.moveTo(line.at + 0.5, top);
      ctx.lineTo(line.at + 0.5, top + height);
      ctx.stroke();
    }
    const place = places[i];
    if (place) ctx.fillText(line.label, place.x, top + (4 + place.row * 14) * ratio);
  });
  if (markers.peak) drawPeakTriangle(ctx, x((markers.peak.from + markers.peak.to) / 2), top, ratio, theme);
  ctx.restore();
}

/** A small triangle pointing down at the peak's line, at the plot's top: the peak is found at a glance. */
function drawPeakTriangle(
  ctx: CanvasRenderingContext2D,
  at: number,
  top: number,
  ratio: number,
  theme: ChartTheme,
): void {
  const half = 5 * ratio;
  ctx.fillStyle = theme.peak;
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.moveTo(at + 0.5 - half, top);
  ctx.lineTo(at + 0.5 + half, top);
  ctx.lineTo(at + 0.5, top + half * 1.6);
  ctx.closePath();
  ctx.fill();
}

/** Builds the uPlot options for a spec. Pure: no DOM reads, no React; tested on its own. */
export function buildChartOptions(spec: ChartSpec, callbacks: ChartCallbacks): uPlot.Options {
  const { theme, timeZone, locale } = spec;
  const barPaths = spanBars(() => callbacks.getMarkers().barsWithin);
  const isBars = spec.mode === 'bars';
  const hasRegister = spec.registerLabel !== null;
  const hasPrice = spec.priceLabel !== null;
  const axisFont = '12px system-ui, sans-serif';

  const consumption: uPlot.Series[] = spec.seriesLabels.map((label, i) => {
    const color = theme.series[i % theme.series.length] ?? '#1c64c4';
    return {
      label,
      scale: 'energy',
      stroke: color,
      width: isBars ? 0 : 1.5,
      fill: isBars ? color : undefined,
      // Unknown energy stays a hole: never joined across, never drawn as zero.
      spanGaps: false,
      points: { show: false },
      paths: isBars ? barPaths : centreLine,
    };
  });
  const net: uPlot.Series[] =
    spec.netLabel === null
      ? []
      : [
          {
            label: spec.netLabel,
            scale: 'energy',
            stroke: theme.net,
            width: 2,
            spanGaps: false,
            points: { show: false },
            paths: centreLine,
          },
        ];
  const register: uPlot.Series[] = hasRegister
    ? [
        {
          label: spec.registerLabel ?? '',
          scale: 'register',
          stroke: theme.register,
          width: 1.5,
          dash: [6, 3],
          spanGaps: false,
          points: { show: false },
        },
      ]
    : [];

  // A price holds over its whole interval: a step ending at each point's x (the interval's end).
  const price: uPlot.Series[] = hasPrice
    ? [
        {
          label: spec.priceLabel ?? '',
          scale: 'price',
          stroke: theme.price,
          width: 2,
          spanGaps: false,
          points: { show: false },
          paths: priceSteps,
        },
      ]
    : [];

  const axes: uPlot.Axis[] = [
    {
      stroke: theme.text,
      grid: { stroke: theme.grid, width: 1 },
      ticks: { stroke: theme.axis, width: 1 },
      font: axisFont,
      space: 70,
      values: (_u, splits, _axisIdx, _space, increment) =>
        formatTimeTicks(splits, increment, locale, timeZone),
    },
    {
      scale: 'energy',
      label: spec.unit,
      labelFont: axisFont,
      labelSize: 18,
      stroke: theme.text,
      grid: { stroke: theme.grid, width: 1 },
      ticks: { stroke: theme.axis, width: 1 },
      font: axisFont,
      size: 64,
      values: (_u, splits) => splits.map((v) => spec.formatNumber(v)),
    },
  ];
  if (hasRegister) {
    axes.push({
      scale: 'register',
      side: 1,
      label: spec.registerLabel ?? '',
      labelFont: axisFont,
      labelSize: 18,
      stroke: theme.register,
      grid: { show: false },
      ticks: { stroke: theme.axis, width: 1 },
      font: axisFont,
      size: 76,
      values: (_u, splits) => splits.map((v) => spec.formatNumber(v)),
    });
  }
  if (hasPrice) {
    axes.push({
      scale: 'price',
      side: 1,
      label: spec.priceLabel ?? '',
      labelFont: axisFont,
      labelSize: 18,
      stroke: theme.price,
      grid: { show: false },
      ticks: { stroke: theme.axis, width: 1 },
      font: axisFont,
      size: 76,
      values: (_u, splits) => splits.map((v) => spec.formatPrice(v)),
    });
  }

  return {
    width: spec.width,
    height: spec.height,
    // Epoch milliseconds (uPlot's default is seconds).
    ms: 1,
    // Ticks fall on local midnights and month starts of the location, not of the browser.
    tzDate: (ms) => wallClockDate(ms, timeZone),
    legend: { show: false },
    // Room on the right for the last time label (or the register axis).
    padding: [12, hasRegister || hasPrice ? 0 : 28, 0, 0],
    scales: {
      x: { time: true },
      // Bars start at zero so their heights compare; a register line never does.
      energy: {
        auto: true,
        range: (_u, min, max) => [min < 0 ? min * 1.08 : 0, max > 0 ? max * 1.08 : min < 0 ? 0 : 1],
      },
      register: { auto: true },
      price: { auto: true },
    },
    series: [{ label: 'time' }, ...consumption, ...net, ...register, ...price],
    axes,
    cursor: {
      // The interval or bucket under the cursor: the first point at or after it (x is each one's
      // end), not the nearest, which over a bar's left half is the bucket before.
      dataIdx: barUnderCursor,
      // Drag across to zoom in on x; double-click (or the reset button) zooms out.
      drag: { x: true, y: false, setScale: true },
      points: { show: !isBars, bbox: hoverPoint },
      y: false,
    },
    select: { show: true, left: 0, top: 0, width: 0, height: 0 },
    hooks: {
      drawClear: [(u) => drawDstBands(u, callbacks.getMarkers(), theme)],
      draw: [
        (u) => {
          const markers = callbacks.getMarkers();
          if (isBars) drawHatches(u, markers.hatched, markers.barsWithin, theme);
          drawMarkers(u, markers, theme);
          callbacks.onDraw?.();
        },
      ],
      setCursor: [
        (u) => {
          // uPlot's own cursor.idx is the nearest point, half a bucket off: the bucket under the
          // pointer is asked for by position.
          const left = u.cursor.left ?? -1;
          const index = left < 0 ? null : pointUnder(u.data[0], u.posToVal(left, 'x'));
          callbacks.onCursor?.(index, left, u.cursor.top ?? -1);
        },
      ],
      setScale: [
        (u, key) => {
          if (key !== 'x') return;
          const { min, max } = u.scales.x ?? {};
          if (min !== undefined && max !== undefined) callbacks.onZoom?.(min, max);
        },
      ],
    },
  };
}
