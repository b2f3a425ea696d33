// @vitest-environment jsdom
import '@/test-support/uplot-env.ts';
import type uPlot from 'uplot';
import { describe, expect, it } from 'vitest';
import {
  buildChartOptions,
  chartThemes,
  formatTimeTicks,
  placeLabels,
  priceRuns,
  wallClockDate,
  type ChartCallbacks,
  type ChartMarkers,
  type ChartSpec,
} from './chart-options.ts';

const spec: ChartSpec = {
  width: 800,
  height: 320,
  timeZone: 'Europe/Berlin',
  locale: 'en',
  granularity: 'raw',
  mode: 'bars',
  seriesLabels: ['Consumption (kWh)'],
  netLabel: null,
  registerLabel: null,
  priceLabel: null,
  unit: 'kWh',
  theme: chartThemes.light,
  formatNumber: (value) => String(value),
  formatPrice: (value) => String(value),
};
const callbacks = {
  getMarkers: () => ({
    dst: [],
    events: [],
    gaps: [],
    hatched: [],
    periods: [],
    peak: null,
    prices: [],
    barsWithin: { from: 0, to: Number.POSITIVE_INFINITY },
  }),
};

describe('buildChartOptions', () => {
  it('draws epoch milliseconds on a time axis, in the location zone', () => {
    const options = buildChartOptions(spec, callbacks);
    expect(options.ms).toBe(1);
    expect(options.scales?.x?.time).toBe(true);
    const local = options.tzDate?.(Date.parse('2026-03-29T01:00:00Z'));
    // uPlot reads the tz date's wall-clock fields: 03:00 in Berlin after the spring change.
    expect(local?.getHours()).toBe(3);
  });

  it('has one consumption series per meter, and a register line on its own axis only when asked', () => {
    expect(buildChartOptions(spec, callbacks).series).toHaveLength(2);
    const withRegister = buildChartOptions({ ...spec, registerLabel: 'Register' }, callbacks);
    expect(withRegister.series).toHaveLength(3);
    expect(withRegister.series[2]?.scale).toBe('register');
    expect(withRegister.axes?.map((axis) => axis.scale ?? 'x')).toEqual(['x', 'energy', 'register']);
    expect(buildChartOptions({ ...spec, seriesLabels: ['1', '2', '3'] }, callbacks).series).toHaveLength(4);
  });

  it('draws the price per kWh as a stepped line on its own axis, after the register', () => {
    const both = buildChartOptions({ ...spec, registerLabel: 'Register', priceLabel: 'EUR/kWh' }, callbacks);
    expect(both.series.map((series) => series.scale ?? 'x')).toEqual(['x', 'energy', 'register', 'price']);
    expect(both.axes?.map((axis) => axis.scale ?? 'x')).toEqual(['x', 'energy', 'register', 'price']);
    expect(both.series[3]?.paths).toBeTypeOf('function');
  });

  it('holds each price over the interval it was charged in, the first one and the one after a gap too', () => {
    // Hour buckets: x[0] is the first hour's start, x[k] the end of hour k − 1 (chart-data.ts).
    const xs = [0, 1, 2, 3, 4, 5];
    const ys = [null, 0.2, 0.3, null, 0.1, 0.1];
    expect(priceRuns(xs, ys)).toEqual([
      [
        { x: 0, y: 0.2 },
        { x: 1, y: 0.2 },
        { x: 1, y: 0.3 },
        { x: 2, y: 0.3 },
      ],
      [
        { x: 3, y: 0.1 },
        { x: 4, y: 0.1 },
        { x: 4, y: 0.1 },
        { x: 5, y: 0.1 },
      ],
    ]);
  });

  it('never joins across unknown energy, bars or line', () => {
    for (const mode of ['bars', 'line'] as const) {
      const series = buildChartOptions({ ...spec, mode }, callbacks).series[1];
      expect(series?.spanGaps).toBe(false);
      // Both drawn by the chart's own paths: bars over their buckets, a line through their centres.
      expect(typeof series?.paths).toBe('function');
    }
  });

  it('starts the energy axis at zero', () => {
    const range = buildChartOptions(spec, callbacks).scales?.energy?.range;
    expect(typeof range).toBe('function');
    if (typeof range === 'function') {
      // uPlot passes itself first; this range function does not read it.
      const result = range(Object.create(null), 3, 10, 'energy');
      expect(result[0]).toBe(0);
      expect(result[1]).toBeGreaterThan(10);
      // Export bars go below zero, and the axis follows them there.
      const withExport = range(Object.create(null), -4, 10, 'energy');
      expect(withExport[0]).toBeLessThan(-4);
      expect(withExport[1]).toBeGreaterThan(10);
    }
  });

  it('draws import and export bars of one meter and its net as a line on the energy axis', () => {
    const options = buildChartOptions(
      {
        ...spec,
        seriesLabels: ['Import (kWh)', 'Export (kWh)'],
        netLabel: 'Net (kWh)',
        registerLabel: 'Register',
      },
      callbacks,
    );
    expect(options.series.map((series) => series.label)).toEqual([
      'time',
      'Import (kWh)',
      'Export (kWh)',
      'Net (kWh)',
      'Register',
    ]);
    expect(options.series[3]?.scale).toBe('energy');
    // Net through the buckets' centres; the register at its instants (uPlot's own line).
    expect(typeof options.series[3]?.paths).toBe('function');
    expect(options.series[4]?.scale).toBe('register');
    expect(options.series[4]?.paths).toBeUndefined();
  });

  it('shades a whole DST bucket under the bars, and no band for a DST instant of a raw view', () => {
    const dst = (band: { from: number; to: number } | null) => ({
      getMarkers: () => ({
        dst: [{ at: 130, label: '25 h day', from: 120, to: 60, band }],
        events: [],
        gaps: [],
        hatched: [],
        periods: [],
        peak: null,
        prices: [] as ChartMarkers['prices'],
        barsWithin: { from: 0, to: Number.POSITIVE_INFINITY },
      }),
    });
    const drawn: { style: unknown; rect: number[] }[] = [];
    const ctx = {
      fillStyle: '' as unknown,
      save() {},
      restore() {},
      fillRect(...rect: number[]) {
        drawn.push({ style: this.fillStyle, rect });
      },
    };
    const plot = {
      ctx,
      bbox: { left: 0, top: 10, width: 1000, height: 300 },
      valToPos: (value: number) => value,
    };
    const drawClear = (markers: ReturnType<typeof dst>) =>
      buildChartOptions({ ...spec, granularity: 'day' }, markers).hooks?.drawClear?.[0]?.(
        plot as unknown as Parameters<NonNullable<NonNullable<uPlot.Hooks.Arrays['drawClear']>[0]>>[0],
      );
    drawClear(dst({ from: 100, to: 200 }));
    expect(drawn).toEqual([{ style: chartThemes.light.dstBand, rect: [100, 10, 100, 300] }]);
    drawn.length = 0;
    drawClear(dst(null));
    expect(drawn).toEqual([]);
    // Cheap and dear hours (chart-data.ts priceBands) are shaded the same way, each in its colour.
    const priced = dst(null);
    drawn.length = 0;
    drawClear({
      getMarkers: () => ({
        ...priced.getMarkers(),
        prices: [
          { from: 300, to: 400, level: 'cheap' as const },
          { from: 600, to: 650, level: 'dear' as const },
        ],
      }),
    });
    expect(drawn).toEqual([
      { style: chartThemes.light.cheapBand, rect: [300, 10, 100, 300] },
      { style: chartThemes.light.dearBand, rect: [600, 10, 50, 300] },
    ]);
  });

  it('drag zooms on x only', () => {
    const options = buildChartOptions(spec, callbacks);
    expect(options.cursor?.drag).toEqual({ x: true, y: false, setScale: true });
  });

  it('is pure: the same spec gives options that behave the same, functions included', () => {
    const a = observe((recorder) => buildChartOptions(spec, recorder));
    const b = observe((recorder) => buildChartOptions(spec, recorder));
    expect(a).toEqual(b);
    // The observation reaches what JSON drops: the hooks drew, the formatters wrote labels.
    expect(a.hooks.draw.length).toBeGreaterThan(0);
    expect(a.axes[1]).toEqual([
      ['1', '2.5', '10'],
      ['1', '2.5', '10'],
    ]);
  });

  it('tells apart specs that differ only in a function or in what the hooks draw', () => {
    const base = observe((recorder) => buildChartOptions(spec, recorder));
    const otherFormat = observe((recorder) =>
      buildChartOptions({ ...spec, formatNumber: (value) => value.toFixed(2) }, recorder),
    );
    // JSON.stringify, the old comparison, cannot see the difference.
    expect(
      JSON.stringify(buildChartOptions({ ...spec, formatNumber: (value) => value.toFixed(2) }, callbacks)),
    ).toBe(JSON.stringify(buildChartOptions(spec, callbacks)));
    expect(otherFormat).not.toEqual(base);
    const otherMarkers = observe((recorder) => buildChartOptions(spec, recorder), {
      ...MARKERS,
      gaps: [{ from: 2_000, to: 9_000 }],
    });
    expect(otherMarkers.hooks).not.toEqual(base.hooks);
  });
});

describe('peak marker', () => {
  it('draws a line and a triangle at the middle of the peak interval, labelled with its kW', () => {
    // Fake plot: 1 px per 100 ms, bbox from x = 0. The peak interval 50,000–50,200 ms has its
    // middle at 50,100 ms = 501 px; the line is drawn at 501.5 (half a pixel in, crisp), the
    // triangle's tip under it 5 px × 1.6 = 8 px below the top (10), its base 5 px either side.
    const drawn = observe((recorder) => buildChartOptions(spec, recorder)).hooks.draw.flat() as unknown[][];
    expect(drawn).toContainEqual(['fillText', 'Peak 3.2 kW', expect.any(Number), expect.any(Number)]);
    expect(drawn).toContainEqual(['moveTo', 501.5, 10]);
    expect(drawn).toContainEqual(['lineTo', 501.5, 310]);
    expect(drawn).toContainEqual(['moveTo', 496.5, 10]);
    expect(drawn).toContainEqual(['lineTo', 501.5, 18]);
    const withoutPeak = observe((recorder) => buildChartOptions(spec, recorder), { ...MARKERS, peak: null });
    expect(withoutPeak.hooks.draw.flat()).not.toContainEqual(['lineTo', 501.5, 18]);
  });
});

/** Markers with one of each kind, on the fake plot's x scale (1 px per 100 ms). */
const MARKERS: ChartMarkers = {
  dst: [{ at: 4_000, label: '23 h day', from: 0, to: 0, band: { from: 3_000, to: 5_000 } }],
  events: [{ at: 6_000, label: 'Meter exchange' }],
  gaps: [{ from: 7_000, to: 7_100 }],
  hatched: [{ from: 2_000, to: 2_500, value: 1 }],
  periods: [{ from: 8_000, to: 9_000, label: 'Billing period 12.5 kWh' }],
  peak: { from: 50_000, to: 50_200, label: 'Peak 3.2 kW' },
  prices: [
    { from: 10_000, to: 11_000, level: 'cheap' },
    { from: 12_000, to: 13_000, level: 'dear' },
  ],
  barsWithin: { from: 0, to: Number.POSITIVE_INFINITY },
};

/**
 * What uPlot gets out of options on a fixed plot: their plain values, and the results of every
 * function in them (tick and value formatters, the energy range, the time zone date) and every
 * hook (the canvas calls it makes and the callbacks it calls), so that two options objects
 * compare equal only when they behave the same.
 */
function observe(build: (recorder: ChartCallbacks) => uPlot.Options, markers: ChartMarkers = MARKERS) {
  const calls: unknown[] = [];
  const recorder: ChartCallbacks = {
    getMarkers: () => markers,
    onCursor: (...args) => calls.push(['onCursor', ...args]),
    onZoom: (...args) => calls.push(['onZoom', ...args]),
    onDraw: () => calls.push(['onDraw']),
  };
  const options = build(recorder);
  const ctx = new Proxy<Record<string, unknown>>(
    {},
    {
      get: (target, name: string) =>
        name in target
          ? target[name]
          : (...args: unknown[]) => {
              calls.push([name, ...args]);
              return { width: String(args[0]).length * 6 };
            },
      set: (target, name: string, value: unknown) => {
        calls.push([`${name}=`, value]);
        target[name] = value;
        return true;
      },
    },
  );
  const plot = {
    ctx,
    bbox: { left: 0, top: 10, width: 1000, height: 300 },
    valToPos: (value: number) => value / 100,
    posToVal: (px: number) => px * 100,
    data: [[0, 1_000, 2_000, 3_000, 4_000, 5_000]],
    cursor: { idx: 3, left: 40, top: 12 },
    scales: { x: { min: 1_000, max: 9_000 } },
  } as unknown as uPlot;
  const hookResults = (name: keyof uPlot.Hooks.Arrays) =>
    (options.hooks?.[name] ?? []).map((hook) => {
      calls.length = 0;
      (hook as (u: uPlot, key: string) => void)(plot, 'x');
      return [...calls];
    });
  const splits = [1, 2.5, 10];
  const instants = [Date.parse('2026-03-29T00:30:00Z'), Date.parse('2026-03-29T01:30:00Z')];
  const energy = options.scales?.energy?.range;
  return {
    plain: JSON.parse(JSON.stringify(options)) as unknown,
    axes: (options.axes ?? []).map((axis) =>
      [3_600_000, 86_400_000].map((increment) =>
        typeof axis.values === 'function' ? axis.values(plot, splits, 0, 50, increment) : axis.values,
      ),
    ),
    energyRange:
      typeof energy === 'function' ? [energy(plot, 3, 10, 'energy'), energy(plot, -2, 0, 'energy')] : null,
    paths: options.series.map((series) => typeof series.paths),
    tzDate: instants.map((ms) => {
      const date = options.tzDate?.(ms);
      return date ? [date.getDate(), date.getHours(), date.getMinutes()] : null;
    }),
    hooks: {
      drawClear: hookResults('drawClear'),
      draw: hookResults('draw'),
      setCursor: hookResults('setCursor'),
      setScale: hookResults('setScale'),
    },
  };
}

describe('wallClockDate', () => {
  it("shows the zone's wall clock in the Date's local fields, as uPlot reads them", () => {
    const cases: [string, string, number[]][] = [
      ['2026-03-29T00:59:00Z', 'Europe/Berlin', [2026, 2, 29, 1, 59]],
      ['2026-03-29T01:00:00Z', 'Europe/Berlin', [2026, 2, 29, 3, 0]],
      // The repeated hour of autumn, twice.
      ['2026-10-25T00:30:00Z', 'Europe/Berlin', [2026, 9, 25, 2, 30]],
      ['2026-10-25T01:30:00Z', 'Europe/Berlin', [2026, 9, 25, 2, 30]],
      ['2026-12-31T20:00:00Z', 'Asia/Kathmandu', [2027, 0, 1, 1, 45]],
      ['2026-07-01T03:00:00Z', 'America/New_York', [2026, 5, 30, 23, 0]],
    ];
    for (const [instant, zone, fields] of cases) {
      const date = wallClockDate(Date.parse(instant), zone);
      expect([
        date.getFullYear(),
        date.getMonth(),
        date.getDate(),
        date.getHours(),
        date.getMinutes(),
      ]).toEqual(fields);
    }
  });
});

describe('placeLabels', () => {
  const bounds = { left: 0, right: 300 };

  it('puts a label right of its line, or left of it at the right edge', () => {
    expect(placeLabels([{ x: 10, width: 50, gap: 4 }], bounds, 3)).toEqual([{ x: 14, row: 0 }]);
    expect(placeLabels([{ x: 280, width: 50, gap: 4 }], bounds, 3)).toEqual([{ x: 226, row: 0 }]);
  });

  it('moves a label that would overlap another to the next row, and leaves it out when no row has room', () => {
    // A phone-width plot: the spring change, a meter exchange and the autumn change crowd together.
    const crowded = [
      { x: 100, width: 70, gap: 4 },
      { x: 150, width: 120, gap: 4 },
      { x: 260, width: 70, gap: 4 },
      { x: 120, width: 60, gap: 4 },
      { x: 130, width: 60, gap: 4 },
    ];
    const places = placeLabels(crowded, bounds, 3);
    // The third fits left of its line, beside the first; the fourth needs the third row; the fifth finds none.
    expect(places.map((place) => place?.row ?? null)).toEqual([0, 1, 0, 2, null]);
    // Text never leaves the plot.
    for (const [i, place] of places.entries())
      if (place) expect(place.x + (crowded[i]?.width ?? 0)).toBeLessThanOrEqual(bounds.right);
    // Labels far apart share the first row.
    expect(
      placeLabels(
        [
          { x: 10, width: 50, gap: 4 },
          { x: 200, width: 50, gap: 4 },
        ],
        bounds,
        3,
      ).map((place) => place?.row),
    ).toEqual([0, 0]);
  });
});

describe('time ticks', () => {
  it('labels hours, and the date at local midnight, in the location zone', () => {
    const midnight = Date.parse('2026-03-28T23:00:00Z');
    const labels = formatTimeTicks(
      [midnight, midnight + 3 * 3_600_000],
      3 * 3_600_000,
      'en',
      'Europe/Berlin',
    );
    // Three hours after midnight on the spring day is 04:00: the hour 02:00–03:00 does not exist.
    expect(labels).toEqual(['Mar 29', '04:00']);
    expect(formatTimeTicks([midnight], 86_400_000, 'de', 'Europe/Berlin')).toEqual(['29. März']);
    expect(
      formatTimeTicks([Date.parse('2026-02-28T23:00:00Z')], 31 * 86_400_000, 'fr', 'Europe/Berlin'),
    ).toEqual(['mars 2026']);
  });

  it('draws each bar over its own bucket, from the range start up to the last data, never beyond', () => {
    // Issue 17.2: eight daily bars on 800 px are ~100 px wide; uPlot's bars were at most 64 px and
    // hugged the bucket's end, so 1 September stood at the "2 September" tick; a week still going
    // reached into the future.
    class RecordingPath {
      readonly rects: number[][] = [];
      rect(x: number, y: number, w: number, h: number) {
        this.rects.push([x, y, w, h]);
      }
    }
    const saved = globalThis.Path2D;
    globalThis.Path2D = RecordingPath as unknown as typeof Path2D;
    try {
      const DAY = 86_400_000;
      // x: the first bucket's start, then each bucket's end (days 0 … 8); the last day is still going.
      const xs = Array.from({ length: 9 }, (_, i) => i * DAY);
      const ys = [null, 1, 2, 3, 4, 5, 6, 7, 8];
      const within = { from: 0.5 * DAY, to: 7.25 * DAY };
      const markers = { ...callbacks.getMarkers(), barsWithin: within };
      const options = buildChartOptions(spec, { getMarkers: () => markers });
      const paths = options.series[1]?.paths;
      if (typeof paths !== 'function') throw new Error('no bar paths');
      const pxPerDay = 100;
      const u = {
        data: [xs, ys],
        valToPos: (value: number, scale: string) =>
          scale === 'x' ? (value / DAY) * pxPerDay : 300 - value * 10,
      } as unknown as uPlot;
      const drawn = paths(u, 1, 0, xs.length - 1) as unknown as { fill: RecordingPath };
      const rects = drawn.fill.rects;
      // Day 1 starts at the range start (half a day in), days 2 … 7 whole, day 8 a quarter (up to
      // the last data), nothing after it.
      expect(rects).toHaveLength(8);
      const [first, second, , , , , , last] = rects;
      expect(first?.[0]).toBeGreaterThanOrEqual(50);
      expect((first?.[0] ?? 0) + (first?.[2] ?? 0)).toBeLessThanOrEqual(100);
      // A whole day: inside [100, 200), at least 86 % of it, centred.
      expect(second?.[0]).toBeGreaterThan(100);
      expect((second?.[0] ?? 0) + (second?.[2] ?? 0)).toBeLessThan(200);
      expect(second?.[2]).toBeGreaterThanOrEqual(86);
      expect((second?.[0] ?? 0) - 100).toBeCloseTo(200 - ((second?.[0] ?? 0) + (second?.[2] ?? 0)));
      expect((last?.[0] ?? 0) + (last?.[2] ?? 0)).toBeLessThanOrEqual(725);
      expect(last?.[0]).toBeGreaterThanOrEqual(700);
      // Heights from zero (y = 300) to the value.
      expect([second?.[1], second?.[3]]).toEqual([280, 20]);
    } finally {
      globalThis.Path2D = saved;
    }
  });

  it('points at the bar under the cursor, not at the nearest bucket end', () => {
    const dataIdx = buildChartOptions(spec, callbacks).cursor?.dataIdx;
    if (!dataIdx) throw new Error('no dataIdx');
    const u = { data: [[0, 100, 200, 300]] } as unknown as uPlot;
    // 120 is nearest to 100 (the end of the first bar), but lies in the second bar (100–200).
    expect(dataIdx(u, 1, 1, 120)).toBe(2);
    expect(dataIdx(u, 1, 2, 199)).toBe(2);
    expect(dataIdx(u, 1, 0, 0)).toBe(1);
    expect(dataIdx(u, 1, 3, 300)).toBe(3);
    // A line's values sit at their buckets' centres: the same bucket is under the cursor.
    const lineIdx = buildChartOptions({ ...spec, mode: 'line' }, callbacks).cursor?.dataIdx;
    expect(lineIdx?.(u, 1, 1, 120)).toBe(2);
  });

  it('tells the tooltip the bucket under the pointer, not the nearest bucket end (issue 34)', () => {
    // Sep 1–3 by day (UTC for the arithmetic): x = Sep 1 00:00, then the ends Sep 2, 3 and 4 00:00,
    // one pixel per hour. The Sep 2 bar spans pixels 24–48: at 30 (Sep 2 06:00) the nearest end is
    // Sep 2 00:00 (point 1, Sep 1's), but the bar is point 2's. Pixel 6, in the first half of the
    // first bar, is nearest to the leading point 0 (no row), but lies in Sep 1 (point 1).
    const HOUR = 3_600_000;
    const start = Date.parse('2026-09-01T00:00:00Z');
    const xs = [0, 24, 48, 72].map((hours) => start + hours * HOUR);
    const seen: (number | null)[] = [];
    const options = buildChartOptions(
      { ...spec, granularity: 'day' },
      { ...callbacks, onCursor: (index) => seen.push(index) },
    );
    const [setCursor] = options.hooks?.setCursor ?? [];
    if (!setCursor) throw new Error('no setCursor hook');
    const hover = (left: number, nearest: number) =>
      setCursor({
        data: [xs, [null, 7.567, 8, 9]],
        cursor: { idx: nearest, left, top: 10 },
        posToVal: (px: number) => start + px * HOUR,
      } as unknown as uPlot);
    hover(30, 1);
    hover(6, 0);
    hover(47, 2);
    hover(-10, 0);
    expect(seen).toEqual([2, 1, 2, null]);
  });

  it('draws the net line (and energy drawn as a line) through the centres of the buckets (issue 34)', () => {
    class RecordingPath {
      readonly moves: [string, number, number][] = [];
      moveTo(x: number, y: number) {
        this.moves.push(['M', x, y]);
      }
      lineTo(x: number, y: number) {
        this.moves.push(['L', x, y]);
      }
    }
    const saved = globalThis.Path2D;
    globalThis.Path2D = RecordingPath as unknown as typeof Path2D;
    try {
      // Buckets 0–100, 100–200, 200–300, 300–400 (x = each end after the leading 0), a hole in the
      // third: centres 50, 150 | 350; y is drawn at 100 − value.
      const xs = [0, 100, 200, 300, 400];
      const net = [null, 1, 2, null, 4];
      const u = {
        data: [xs, net, net],
        series: [{}, { scale: 'energy' }, { scale: 'energy' }],
        valToPos: (value: number, scale: string) => (scale === 'x' ? value : 100 - value),
      } as unknown as uPlot;
      const withNet = buildChartOptions({ ...spec, granularity: 'day', netLabel: 'Net' }, callbacks);
      const line = buildChartOptions({ ...spec, granularity: 'day', mode: 'line' }, callbacks);
      for (const paths of [withNet.series[2]?.paths, line.series[1]?.paths]) {
        if (typeof paths !== 'function') throw new Error('no line paths');
        const drawn = paths(u, paths === line.series[1]?.paths ? 1 : 2, 0, 4) as unknown as {
          stroke: RecordingPath;
        };
        expect(drawn.stroke.moves).toEqual([
          ['M', 50, 99],
          ['L', 150, 98],
          ['M', 350, 96],
        ]);
      }
    } finally {
      globalThis.Path2D = saved;
    }
  });
});

describe('chart colours', () => {
  type Rgb = number[];
  const hex = (text: string): Rgb => [1, 3, 5].map((i) => parseInt(text.slice(i, i + 2), 16));
  /** `rgba(r, g, b, a)` laid over `under`. */
  const over = (fill: string, under: Rgb): Rgb => {
    const [r = 0, g = 0, b = 0, a = 1] = (fill.match(/[\d.]+/g) ?? []).map(Number);
    return [r, g, b].map((c, i) => c * a + (under[i] ?? 0) * (1 - a));
  };
  const luminance = (rgb: Rgb) => {
    const [r = 0, g = 0, b = 0] = rgb.map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a: Rgb, b: Rgb) => {
    const [hi = 0, lo = 0] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  /** The card: white in the light skin, Mantine's dark-7 (app.css --cm-surface) in the dark one. */
  const cards = { light: [255, 255, 255], dark: [0x1f, 0x1f, 0x1f] };

  it('keep the bars and lines of one meter at 3:1 over the cheap and dear hours, light and dark (issue 34)', () => {
    for (const skin of ['light', 'dark'] as const) {
      const theme = chartThemes[skin];
      for (const band of ['cheapBand', 'dearBand'] as const) {
        const under = over(theme[band], cards[skin]);
        // Import, export, net, register, price, peak, events, clock changes, axis text.
        const drawn = {
          import: theme.series[0] ?? '',
          export: theme.series[1] ?? '',
          net: theme.net,
          register: theme.register,
          price: theme.price,
          peak: theme.peak,
          event: theme.event,
          dst: theme.dst,
          text: theme.text,
        };
        for (const [name, colour] of Object.entries(drawn))
          expect(contrast(hex(colour), under), `${name} on ${band}, ${skin}`).toBeGreaterThanOrEqual(3);
        // A tint, yet one the eye can tell from the card.
        expect(contrast(under, cards[skin]), `${band}, ${skin}`).toBeGreaterThan(1.1);
      }
    }
  });
});
