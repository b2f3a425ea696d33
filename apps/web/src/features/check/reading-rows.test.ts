import type { MeterReadings } from '@cm/contracts/check.ts';
import { describe, expect, it } from 'vitest';
import { buildRows, sumConsumption } from './reading-rows.ts';
import { meterInfo, rawReadings } from './test-fixtures.ts';

describe('buildRows, raw', () => {
  it('one row per interval; the opening reading closes none', () => {
    const readings = rawReadings('2026-03-28T23:00:00Z', '2026-03-29T22:00:00Z');
    const rows = buildRows(readings, 'raw', Date.parse('2026-03-29T22:00:00Z'));
    expect(rows.start).toHaveLength(92);
    expect(rows.start[0]).toBe(Date.parse('2026-03-28T23:00:00Z'));
    expect(rows.end[91]).toBe(Date.parse('2026-03-29T22:00:00Z'));
    expect(sumConsumption(rows)).toBe(readings.totals.consumption);
  });

  it('lists a gap that opens the range (data starting late) before the first interval', () => {
    const readings = rawReadings('2026-01-01T00:00:00Z', '2026-01-01T02:00:00Z', { skip: (i) => i < 2 });
    const withLead: MeterReadings = {
      ...readings,
      gaps: [
        {
          from: '2026-01-01T00:00:00.000Z',
          to: '2026-01-01T00:30:00.000Z',
          missingIntervals: 2,
          consumption: null,
        },
        ...readings.gaps,
      ],
    };
    const rows = buildRows(withLead, 'raw', Date.parse('2026-01-01T02:00:00Z'));
    expect(rows.kind.slice(0, 2)).toEqual(['gap', 'interval']);
    expect(rows.consumption[0]).toBeNull();
    expect(rows.start).toEqual([...rows.start].sort((a, b) => a - b));
  });

  it('tells which meter each row belongs to across an exchange', () => {
    const readings = rawReadings('2026-06-16T08:00:00Z', '2026-06-16T09:00:00Z');
    const exchanged: MeterReadings = {
      ...readings,
      meterNumbers: ['EM-10013', 'EM-10025'],
      events: [
        { type: 'meterExchange', at: '2026-06-16T08:30:00.000Z', meterNumber: 'EM-10025', detail: '' },
      ],
    };
    const rows = buildRows(exchanged, 'raw', Date.parse('2026-06-16T09:00:00Z'));
    expect(rows.meterNumber).toEqual(['EM-10013', 'EM-10013', 'EM-10025', 'EM-10025']);
  });
});

describe('buildRows, buckets', () => {
  const day: MeterReadings = {
    meterInd: 1,
    meter: meterInfo(),
    meterNumbers: ['EM-10009'],
    series: {
      // Berlin days 2026-03-28, 29 (23 h), 30.
      t: [
        Date.parse('2026-03-27T23:00:00Z'),
        Date.parse('2026-03-28T23:00:00Z'),
        Date.parse('2026-03-29T22:00:00Z'),
      ],
      value: [100, 120, 150],
      consumption: [20, 30, null],
      hours: [24, 23, 24],
      missing: [0, 24, 96],
      estimated: [0, 0, 0],
    },
    totals: {
      consumption: 50,
      registerStart: 80,
      registerEnd: 150,
      registerDifference: 50,
      intervalSum: 40,
      gapConsumption: 10,
      agrees: true,
      peak: null,
      averagePerDay: 25,
      readings: 100,
      missingIntervals: 120,
    },
    gaps: [
      {
        from: '2026-03-29T07:00:00.000Z',
        to: '2026-03-29T13:15:00.000Z',
        missingIntervals: 24,
        consumption: 10,
      },
    ],
    events: [],
    downsampled: false,
  };

  it('ends each bucket after its own length (23 h on the spring day) and lists gaps as rows without energy', () => {
    const rows = buildRows(day, 'day', Date.parse('2026-03-30T22:00:00Z'));
    expect(rows.kind).toEqual(['interval', 'interval', 'gap', 'interval']);
    expect(rows.end[1]).toBe(Date.parse('2026-03-29T22:00:00Z'));
    expect(rows.hours[1]).toBe(23);
    // The gap's energy is already in its day: the column still adds up to the total.
    expect(rows.consumption[2]).toBeNull();
    expect(sumConsumption(rows)).toBe(50);
  });
});
