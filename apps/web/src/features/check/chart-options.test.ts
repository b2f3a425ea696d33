import { describe, expect, it, vi } from 'vitest';

// uPlot reads the device pixel ratio through matchMedia when it loads; jsdom has none.
vi.hoisted(() => {
  window.matchMedia ??= (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
});
import {
  buildChartData,
  buildChartOptions,
  chartThemes,
  formatTimeTicks,
  fullXRange,
  type ChartSpec,
} from './chart-options.ts';
import { buildRows } from './reading-rows.ts';
import { rawReadings } from './test-fixtures.ts';

const spec: ChartSpec = {
  width: 800,
  height: 320,
  timeZone: 'Europe/Berlin',
  locale: 'en',
  granularity: 'raw',
  mode: 'bars',
  seriesLabels: ['Consumption (kWh)'],
  registerLabel: null,
  unit: 'kWh',
  theme: chartThemes.light,
  formatNumber: (value) => String(value),
};
const callbacks = { getMarkers: () => ({ dst: [], events: [], gaps: [] }) };

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

  it('never joins across unknown energy, bars or line', () => {
    for (const mode of ['bars', 'line'] as const) {
      const series = buildChartOptions({ ...spec, mode }, callbacks).series[1];
      expect(series?.spanGaps).toBe(false);
      expect(typeof series?.paths === 'function').toBe(mode === 'bars');
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
    }
  });

  it('drag zooms on x only', () => {
    const options = buildChartOptions(spec, callbacks);
    expect(options.cursor?.drag).toEqual({ x: true, y: false, setScale: true });
  });

  it('is pure: the same spec gives equal options', () => {
    const a = buildChartOptions(spec, callbacks);
    const b = buildChartOptions(spec, callbacks);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
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
});

describe('buildChartData', () => {
  it('keeps x growing when a bucketed gap row ends after the next bucket', () => {
    const hour = 3_600_000;
    const t0 = Date.parse('2026-09-04T00:00:00Z');
    const block = {
      start: [t0, t0 + 0.75 * hour, t0 + hour, t0 + 2 * hour],
      end: [t0 + hour, t0 + 7 * hour, t0 + 2 * hour, t0 + 3 * hour],
      consumption: [1, null, 2, 3],
      kind: ['interval', 'gap', 'interval', 'interval'],
      register: [1, null, 3, 6],
    };
    const { data, rowOf } = buildChartData([block], null);
    expect(data[0]).toEqual([t0, t0 + hour, t0 + 2 * hour, t0 + 3 * hour]);
    expect(Array.from(rowOf ?? [])).toEqual([-1, 0, 2, 3]);
  });

  it('puts x at each row end after a leading point at the first start; a gap is a hole', () => {
    const readings = rawReadings('2026-01-01T00:00:00Z', '2026-01-01T01:30:00Z', { skip: (i) => i === 3 });
    const rows = buildRows(readings, 'raw', Date.parse('2026-01-01T01:30:00Z'));
    const { data, rowOf } = buildChartData([rows], { opening: readings.totals.registerStart });
    expect(Array.from(rowOf ?? [])).toEqual([-1, 0, 1, 2, 3, 4]);
    expect(data[0]).toEqual(
      [0, 15, 30, 60, 75, 90].map((m) => Date.parse('2026-01-01T00:00:00Z') + m * 60_000),
    );
    expect(data[1]).toEqual([null, 0.25, 0.25, null, 0.25, 0.25]);
    expect(data[2]?.[0]).toBe(1000);
    expect(fullXRange(data)).toEqual({
      min: Date.parse('2026-01-01T00:00:00Z'),
      max: Date.parse('2026-01-01T01:30:00Z'),
    });
  });

  it('joins several meters on x', () => {
    const a = buildRows(rawReadings('2026-01-01T00:00:00Z', '2026-01-01T00:30:00Z'), 'raw', 0);
    const b = buildRows(rawReadings('2026-01-01T00:00:00Z', '2026-01-01T00:30:00Z', { step: 1 }), 'raw', 0);
    const { data } = buildChartData([a, b], null);
    expect(data).toHaveLength(3);
    expect(data[2]).toEqual([null, 1, 1]);
  });
});
