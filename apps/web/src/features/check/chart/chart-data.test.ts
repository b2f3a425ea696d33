// @vitest-environment jsdom
import '@/test-support/uplot-env.ts';
import type { Granularity, MeterReadings } from '@cm/contracts/check.ts';
import { describe, expect, it } from 'vitest';
import {
  chartData,
  dstBand,
  dstLabelKey,
  fullXRange,
  hatchedBars,
  priceBands,
  pricePerKwh,
} from './chart-data.ts';
import { buildRows, rowsByEnd } from '../model/reading-rows.ts';
import { dailyReadings, edgeGapReadings, rawReadings, withExport } from '@/test-support/check-fixtures.ts';

const at = (iso: string) => Date.parse(iso);
const minutes = (base: string, list: number[]) => list.map((m) => at(base) + m * 60_000);

/** Two meters at one position: an exchange at 08:30 with a gap between the meters. */
function exchanged(): MeterReadings {
  const readings = rawReadings('2026-06-16T08:00:00Z', '2026-06-16T09:30:00Z', { skip: (i) => i === 3 });
  return {
    ...readings,
    meterNumbers: ['EM-10013', 'EM-10025'],
    events: [
      {
        type: 'meterExchange',
        channel: 'import',
        at: '2026-06-16T09:00:00.000Z',
        meterNumber: 'EM-10025',
        detail: '',
      },
    ],
  };
}

describe('chartData', () => {
  it('draws a meter with an export channel as import, export below zero and net', () => {
    const readings = withExport(
      rawReadings('2026-06-01T10:00:00Z', '2026-06-01T11:00:00Z', { skip: (i) => i === 2 }),
      0.1,
    );
    const data = chartData([readings], 'raw', at('2026-06-01T11:00:00Z'), true);
    expect(data).toHaveLength(5);
    // 10:00, 10:15, (10:30 missing) 10:45, 11:00: the gap stays a hole in all three.
    expect(data[1]).toEqual([null, 0.25, null, 0.25]);
    expect(data[2]).toEqual([null, -0.1, null, -0.1]);
    expect(data[3]).toEqual([null, 0.15, null, 0.15]);
    expect(data[4]).toBe(readings.series.value);
  });

  it('hatches the bars that hold estimated values, export below zero', () => {
    const readings = withExport(rawReadings('2026-06-01T10:00:00Z', '2026-06-01T10:45:00Z'), 0.1);
    readings.series.estimated[2] = 1;
    const other = readings.series.other;
    if (other) other.substituted[3] = 1;
    expect(hatchedBars(readings, 'raw', at('2026-06-01T10:45:00Z'))).toEqual([
      { from: at('2026-06-01T10:15:00Z'), to: at('2026-06-01T10:30:00Z'), value: 0.25 },
      { from: at('2026-06-01T10:30:00Z'), to: at('2026-06-01T10:45:00Z'), value: -0.1 },
    ]);
  });

  it('hatches a raw bar over its own span where the answer lists one', () => {
    const readings = rawReadings('2026-06-01T10:00:00Z', '2026-06-01T10:45:00Z');
    // An interval record that starts five minutes after the one before it ended.
    readings.series.spanStarts = { index: [0, 3], from: [null, at('2026-06-01T10:35:00Z')] };
    readings.series.estimated[3] = 1;
    readings.series.estimated[0] = 1;
    expect(hatchedBars(readings, 'raw', at('2026-06-01T10:45:00Z'))).toEqual([
      { from: at('2026-06-01T10:35:00Z'), to: at('2026-06-01T10:45:00Z'), value: 0.25 },
    ]);
  });

  it('draws a raw answer as it came: its own columns, reading instants as the interval ends', () => {
    const readings = rawReadings('2026-01-01T00:00:00Z', '2026-01-01T01:30:00Z', { skip: (i) => i === 3 });
    const data = chartData([readings], 'raw', at('2026-01-01T01:30:00Z'), true);
    expect(data[0]).toBe(readings.series.t);
    expect(data[1]).toBe(readings.series.consumption);
    expect(data[2]).toBe(readings.series.value);
    expect(data[0]).toEqual(minutes('2026-01-01T00:00:00Z', [0, 15, 30, 60, 75, 90]));
    // The gap (00:30–01:00) is a hole, never a zero.
    expect(data[1]).toEqual([null, 0.25, 0.25, null, 0.25, 0.25]);
    expect(fullXRange(data)).toEqual({ min: at('2026-01-01T00:00:00Z'), max: at('2026-01-01T01:30:00Z') });
  });

  it('adds a point without energy where missing data opens or closes the range', () => {
    const readings = edgeGapReadings();
    const data = chartData([readings], 'raw', at('2026-01-01T01:30:00Z'), true);
    expect(data[0]).toEqual(minutes('2026-01-01T00:00:00Z', [0, 30, 45, 75, 90]));
    expect(data[1]).toEqual([null, null, 0.25, null, null]);
    expect(data[2]).toEqual([null, 1000.5, 1000.75, 1001.25, null]);
  });

  it('puts bucket points at each bucket end (23 hours on the spring day) after the first start', () => {
    const readings = dailyReadings();
    const data = chartData([readings], 'day', at('2026-03-30T22:00:00Z'), true);
    expect(data[0]).toEqual([
      at('2026-03-27T23:00:00Z'),
      at('2026-03-28T23:00:00Z'),
      at('2026-03-29T22:00:00Z'),
      at('2026-03-30T22:00:00Z'),
    ]);
    expect(data[1]).toEqual([null, 20, 30, null]);
    expect(data[2]).toEqual([80, 100, 120, 150]);
  });

  it('joins several meters on x; a point a meter lacks is a hole', () => {
    const a = rawReadings('2026-01-01T00:00:00Z', '2026-01-01T00:30:00Z');
    const b = rawReadings('2026-01-01T00:00:00Z', '2026-01-01T00:30:00Z', { step: 1, skip: (i) => i === 1 });
    const data = chartData([a, b], 'raw', at('2026-01-01T00:30:00Z'), false);
    expect(data).toHaveLength(3);
    expect(data[1]).toEqual([null, 0.25, 0.25]);
    expect(data[2]).toEqual([null, undefined, null]);
  });

  it('has no points without readings', () => {
    const empty = rawReadings('2026-01-01T00:00:00Z', '2026-01-01T00:30:00Z', { skip: () => true });
    expect(chartData([empty], 'raw', at('2026-01-01T00:30:00Z'), false)).toEqual([[], []]);
    expect(chartData([], 'raw', 0, false)).toEqual([[]]);
  });
});

describe('the chart and the table show the same numbers', () => {
  const cases: [string, MeterReadings, Granularity, number][] = [
    [
      'raw with a gap',
      rawReadings('2026-03-28T23:00:00Z', '2026-03-29T22:00:00Z', { skip: (i) => i > 8 && i < 14 }),
      'raw',
      at('2026-03-29T22:00:00Z'),
    ],
    ['raw with gaps at both ends', edgeGapReadings(), 'raw', at('2026-01-01T01:30:00Z')],
    ['raw across a meter exchange', exchanged(), 'raw', at('2026-06-16T09:30:00Z')],
    ['days with a DST day and a gap', dailyReadings(), 'day', at('2026-03-30T22:00:00Z')],
  ];

  it.each(cases)(
    '%s: every point is the row ending at its x, and every row has its point',
    (_, readings, granularity, toMs) => {
      const data = chartData([readings], granularity, toMs, true);
      const rows = buildRows(readings, granularity, toMs);
      const byEnd = rowsByEnd(rows, granularity);
      const [x = [], consumption = [], register = []] = data;
      expect(byEnd.get(Number(x[0]))).toBeUndefined();
      for (let p = 1; p < x.length; p++) {
        const i = byEnd.get(Number(x[p]));
        if (i === undefined) throw new Error(`no row ends at point ${p}`);
        expect(consumption[p]).toBe(rows.kind[i] === 'gap' ? null : rows.consumption[i]);
        expect(register[p]).toBe(rows.register[i]);
      }
      const shownRows = rows.kind.filter((kind) => granularity === 'raw' || kind !== 'gap').length;
      expect(byEnd.size).toBe(shownRows);
      expect(x.length - 1).toBe(shownRows);
    },
  );
});

describe('the clock change label', () => {
  it('calls a day bar a 23-hour day, and says a week or month bar holds one', () => {
    // Issue 17.9: month bars on DST months were labelled "23 h day".
    expect(dstLabelKey('day')).toBe('check.chart.dst');
    expect(dstLabelKey('hour')).toBe('check.chart.dst');
    expect(dstLabelKey('week')).toBe('check.chart.dstInside');
    expect(dstLabelKey('month')).toBe('check.chart.dstInside');
  });
});

describe('the clock change band', () => {
  // Berlin months of 2026: March from 2026-02-28T23:00Z, April from 2026-03-31T22:00Z. The clocks
  // go forward at 2026-03-29T01:00Z: that local day runs 2026-03-28T23:00Z – 2026-03-29T22:00Z (23 h).
  const march = { from: at('2026-02-28T23:00:00Z'), to: at('2026-03-31T22:00:00Z') };
  const change = at('2026-03-29T01:00:00Z');

  it('shades the 23-hour day inside a month or week bar, not the whole bar (issue 34 low)', () => {
    const day = { from: at('2026-03-28T23:00:00Z'), to: at('2026-03-29T22:00:00Z') };
    expect(dstBand('month', change, march, 'Europe/Berlin')).toEqual(day);
    const week = { from: at('2026-03-22T23:00:00Z'), to: at('2026-03-29T22:00:00Z') };
    expect(dstBand('week', change, week, 'Europe/Berlin')).toEqual(day);
  });

  it('shades a day bar whole (it is the 23-hour day), and draws a line in raw and hour views', () => {
    const day = { from: at('2026-03-28T23:00:00Z'), to: at('2026-03-29T22:00:00Z') };
    expect(dstBand('day', change, day, 'Europe/Berlin')).toEqual(day);
    expect(dstBand('hour', change, day, 'Europe/Berlin')).toBeNull();
    expect(dstBand('raw', change, day, 'Europe/Berlin')).toBeNull();
    expect(dstBand('month', change, null, 'Europe/Berlin')).toBeNull();
  });
});

describe('cost mode', () => {
  it('draws what each bucket costs, export credit below zero and the net cost between', () => {
    const readings = withExport(dailyReadings(), 1);
    const priced = {
      ...readings,
      series: {
        ...readings.series,
        cost: [1.5, null, 2.25],
        other: readings.series.other ? { ...readings.series.other, cost: [0.1, 0.2, 0.3] } : undefined,
      },
    };
    const [x, charged, credited, net] = chartData(
      [priced],
      'day',
      Date.parse('2026-03-30T22:00:00Z'),
      false,
      'cost',
    );
    expect(x).toHaveLength(4);
    expect(charged).toEqual([null, 1.5, null, 2.25]);
    expect(credited).toEqual([null, -0.1, -0.2, -0.3]);
    // 1.5 − 0.1 and 2.25 − 0.3; unknown where the charge is unknown.
    expect(net).toEqual([null, 1.4, null, 1.95]);
  });

  it('has no bars to draw without a tariff', () => {
    const [, charged] = chartData(
      [dailyReadings()],
      'day',
      Date.parse('2026-03-30T22:00:00Z'),
      false,
      'cost',
    );
    expect(charged).toEqual([null, null, null, null]);
  });
});

describe('the price line', () => {
  it('reads each point’s price per kWh from its cost over its energy, none where either is unknown or zero', () => {
    // 0.5 kWh at 0.1452/kWh costs 0.0726; 2 kWh for 0.3 is 0.15/kWh; no energy, no price.
    expect(pricePerKwh({ consumption: [0.5, 2, 0, null, 1], cost: [0.0726, 0.3, 0, 0.1, null] })).toEqual([
      0.1452,
      0.15,
      null,
      null,
      null,
    ]);
    expect(pricePerKwh({ consumption: [1, 2] })).toEqual([null, null]);
  });

  it('draws the price after the energy and the register, one value per bucket', () => {
    const readings = dailyReadings();
    const consumption = readings.series.consumption;
    const priced = {
      ...readings,
      series: { ...readings.series, cost: consumption.map((kwh) => (kwh === null ? null : kwh * 0.25)) },
    };
    const data = chartData(
      [priced],
      'day',
      Date.parse('2026-03-30T22:00:00Z'),
      true,
      'energy',
      pricePerKwh(priced.series),
    );
    expect(data).toHaveLength(4);
    expect(data[3]).toEqual([null, ...consumption.map((kwh) => (kwh === null || kwh <= 0 ? null : 0.25))]);
  });
});

describe('priceBands', () => {
  /** Hour buckets from 00:00Z with these energies (kWh) and costs (the answer's, before tax). */
  function hourly(energy: (number | null)[], cost: (number | null)[] | undefined): MeterReadings {
    const base = dailyReadings();
    const t = energy.map((_, k) => at('2026-06-01T00:00:00Z') + k * 3_600_000);
    return {
      ...base,
      series: {
        ...base.series,
        t,
        hours: energy.map(() => 1),
        consumption: energy,
        ...(cost ? { cost } : {}),
      },
    };
  }
  const end = at('2026-06-02T00:00:00Z');
  const hour = (k: number) => at('2026-06-01T00:00:00Z') + k * 3_600_000;
  /** The bands from the price line's own column, as the chart panel draws them. */
  const bandsOf = (meter: MeterReadings, granularity: Granularity = 'hour') =>
    priceBands(meter, granularity, end, pricePerKwh(meter.series));

  it('shades the hours charged at the lowest price cheap and at the highest dear, joined when adjacent', () => {
    // Prices: 0.10, 0.10, 0.20, 0.30, 0.20 per kWh (cost ÷ energy: 0.05/0.5, 0.1/1, 0.4/2, 0.3/1, 0.2/1).
    const meter = hourly([0.5, 1, 2, 1, 1], [0.05, 0.1, 0.4, 0.3, 0.2]);
    expect(bandsOf(meter)).toEqual([
      { from: hour(0), to: hour(2), level: 'cheap' },
      { from: hour(3), to: hour(4), level: 'dear' },
    ]);
  });

  it('leaves unshaded an hour across two prices, and one whose energy or cost is unknown or zero', () => {
    // 0.10, then 0.15 (half at 0.10, half at 0.20: straddles a window), 0.20, unknown, zero energy.
    const meter = hourly([1, 2, 1, null, 0], [0.1, 0.3, 0.2, null, 0]);
    expect(bandsOf(meter)).toEqual([
      { from: hour(0), to: hour(1), level: 'cheap' },
      { from: hour(2), to: hour(3), level: 'dear' },
    ]);
  });

  it('reads one price where the cost to the millionth leaves a small hour a few millionths off', () => {
    // 0.123 kWh at 0.1452 costs 0.0178596, 0.017860 to the millionth: 0.145203… per kWh, still the
    // day price 0.1452 (not a third level); 0.0812 is the night price.
    const meter = hourly([1, 0.123, 1], [0.1452, 0.01786, 0.0812]);
    expect(bandsOf(meter)).toEqual([
      { from: hour(0), to: hour(2), level: 'dear' },
      { from: hour(2), to: hour(3), level: 'cheap' },
    ]);
  });

  it('shades raw intervals over their own spans', () => {
    // Readings at 00:00, 00:15, 00:30, 00:45, 01:00: 0.25 kWh each, at 0.10 then 0.20 per kWh.
    const raw = rawReadings('2026-06-01T00:00:00Z', '2026-06-01T01:00:00Z');
    const meter = { ...raw, series: { ...raw.series, cost: [null, 0.025, 0.025, 0.05, 0.05] } };
    expect(bandsOf(meter, 'raw')).toEqual([
      { from: at('2026-06-01T00:00:00Z'), to: at('2026-06-01T00:30:00Z'), level: 'cheap' },
      { from: at('2026-06-01T00:30:00Z'), to: at('2026-06-01T01:00:00Z'), level: 'dear' },
    ]);
  });

  it('shades nothing for one price, for prices that change every interval, without cost, or by day', () => {
    expect(bandsOf(hourly([1, 2], [0.25, 0.5]))).toEqual([]);
    // Seven prices: 0.01 … 0.07 per kWh, more than a time-of-use tariff has.
    const dynamic = hourly([1, 1, 1, 1, 1, 1, 1], [0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07]);
    expect(bandsOf(dynamic)).toEqual([]);
    // Six are still a time-of-use tariff's: 0.01 cheap, 0.06 dear.
    const six = hourly([1, 1, 1, 1, 1, 1], [0.01, 0.02, 0.03, 0.04, 0.05, 0.06]);
    expect(bandsOf(six)).toEqual([
      { from: hour(0), to: hour(1), level: 'cheap' },
      { from: hour(5), to: hour(6), level: 'dear' },
    ]);
    expect(bandsOf(hourly([1, 1], undefined))).toEqual([]);
    expect(bandsOf(hourly([1, 1], [0.1, 0.2]), 'day')).toEqual([]);
  });
});
