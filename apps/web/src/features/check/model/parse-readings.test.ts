import { locationReadingsSchema, type MeterReadings } from '@cm/contracts/check.ts';
import { readingsAsRead, timeRuns } from '@cm/contracts/series-columns.ts';
import { describe, expect, it } from 'vitest';
import { parseLocationReadings, parseSeries } from './parse-readings.ts';
import { dailyReadings, rawReadings } from '@/test-support/check-fixtures.ts';

/** A meter's readings as the API writes them: times as runs. */
function written(readings: MeterReadings) {
  const { t, ...columns } = readings.series;
  return { ...readings, series: { ...columns, tRuns: timeRuns(t) } };
}

const answer = () => ({
  location: {
    id: 2,
    publicName: 'Riverside Campus – Library',
    address: 'x',
    timeZone: 'Europe/Berlin',
    billingDay: null,
  },
  from: '2026-03-28T23:00:00.000Z',
  to: '2026-03-29T22:00:00.000Z',
  granularity: 'raw',
  meters: [written(rawReadings('2026-03-28T23:00:00Z', '2026-03-29T22:00:00Z'))],
});

describe('parseLocationReadings', () => {
  it('gives what the contract schema gives', () => {
    const raw = answer();
    expect(parseLocationReadings(raw)).toEqual(readingsAsRead(locationReadingsSchema.parse(raw)));
  });

  it('keeps the demand columns: each bucket’s peak, its start and "at least"', () => {
    const raw = { ...answer(), granularity: 'day', meters: [written(dailyReadings())] };
    const parsed = parseLocationReadings(raw);
    expect(parsed).toEqual(readingsAsRead(locationReadingsSchema.parse(raw)));
    expect(parsed.meters[0]?.series.demand).toEqual([3.2, 2.4, null]);
    expect(parsed.meters[0]?.series.demandAtLeast).toEqual([0, 1, 1]);
    const bad = {
      ...raw,
      meters: [{ ...raw.meters[0], series: { ...raw.meters[0]?.series, demandAtLeast: [0, 0.5, 1] } }],
    };
    expect(() => parseLocationReadings(bad)).toThrow(/demandAtLeast/);
  });

  it('refuses what the contract refuses, in the columns too', () => {
    const bad = [
      { ...answer(), granularity: 'minute' },
      {
        ...answer(),
        meters: [
          {
            ...answer().meters[0],
            series: { ...answer().meters[0]?.series, tRuns: { start: ['1'], step: [0], count: [1] } },
          },
        ],
      },
    ];
    for (const raw of bad) {
      expect(() => locationReadingsSchema.parse(raw)).toThrow();
      expect(() => parseLocationReadings(raw)).toThrow();
    }
  });

  it('checks each column: numbers, nulls where allowed, whole counts, equal lengths', () => {
    const times = { tRuns: { start: [1], step: [1], count: [2] } };
    const good = {
      ...times,
      value: [1, null],
      consumption: [null, 0.5],
      missing: [0, 2],
      estimated: [0, 0],
      substituted: [0, 1],
      corrected: [0, 0],
    };
    const { tRuns, ...columns } = good;
    const read = { ...columns, t: [1, 2] };
    expect(tRuns).toEqual(times.tRuns);
    expect(parseSeries(good)).toEqual(read);
    const other = {
      value: [null, null],
      consumption: [0, 0.25],
      missing: [0, 0],
      estimated: [0, 0],
      substituted: [0, 0],
      corrected: [0, 0],
    };
    const spanStarts = { index: [0], from: [null] };
    expect(parseSeries({ ...good, other, net: [null, 0.25], spanStarts })).toEqual({
      ...read,
      other,
      net: [null, 0.25],
      spanStarts,
    });
    for (const wrong of [
      { index: [2], from: [1] },
      { index: [1, 0], from: [1, 1] },
      { index: [0, 1], from: [null] },
      { index: [0.5], from: [1] },
      [0, 1],
    ])
      expect(() => parseSeries({ ...good, spanStarts: wrong })).toThrow(/series.spanStarts/);
    // A count column left out is all zeros.
    const clean = { value: [1, 2], consumption: [null, 1] };
    const zeros = [0, 0];
    expect(parseSeries({ ...clean, ...times })).toEqual({
      ...clean,
      t: [1, 2],
      missing: zeros,
      estimated: zeros,
      substituted: zeros,
      corrected: zeros,
    });
    expect(() => parseSeries({ ...good, substituted: [0] })).toThrow(/series.substituted/);
    expect(() => parseSeries({ ...good, other: { ...other, consumption: [1] } })).toThrow(
      /series.other.consumption/,
    );
    expect(parseSeries({ ...good, hours: [23, 24] }).hours).toEqual([23, 24]);
    for (const wrong of [
      { start: [1, null], step: [1, 0], count: [1, 1] },
      { start: [1], step: [1], count: [1.5] },
      { start: [1], step: [1], count: [0] },
      { start: [1], step: [], count: [2] },
      [1, 2],
    ])
      expect(() => parseSeries({ ...good, tRuns: wrong })).toThrow(/series.tRuns/);
    // Runs longer or shorter than the columns.
    expect(() => parseSeries({ ...good, tRuns: { start: [1], step: [1], count: [3] } })).toThrow(
      /series\.\w+ must/,
    );
    expect(() => parseSeries({ ...good, missing: [0, 1.5] })).toThrow(/series.missing/);
    expect(() => parseSeries({ ...good, consumption: [0.5] })).toThrow(/series.consumption/);
    expect(() => parseSeries({ ...good, value: [1, 'x'] })).toThrow(/series.value/);
    expect(() => parseSeries({ ...good, hours: [23] })).toThrow(/series.hours/);
  });
});

describe('the parsed answer', () => {
  it('is frozen down to each series, so the store never walks the columns', () => {
    const parsed = parseLocationReadings(answer());
    expect(Object.isFrozen(parsed)).toBe(true);
    expect(Object.isFrozen(parsed.meters)).toBe(true);
    expect(Object.isFrozen(parsed.meters[0])).toBe(true);
    expect(Object.isFrozen(parsed.meters[0]?.series)).toBe(true);
    expect(Object.isFrozen(parsed.meters[0]?.totals)).toBe(true);
    expect(Object.isFrozen(parsed.location)).toBe(true);
  });
});
