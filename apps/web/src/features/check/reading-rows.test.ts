import type { LocationReadings, MeterReadings } from '@cm/contracts/check.ts';
import { describe, expect, it } from 'vitest';
import { buildRows, rowsInSlices, rowsOf, sumConsumption } from './reading-rows.ts';
import { dailyReadings, edgeGapReadings, rawReadings } from './test-fixtures.ts';

describe('buildRows, raw', () => {
  it('one row per interval; the opening reading closes none', () => {
    const readings = rawReadings('2026-03-28T23:00:00Z', '2026-03-29T22:00:00Z');
    const rows = buildRows(readings, 'raw', Date.parse('2026-03-29T22:00:00Z'));
    expect(rows.start).toHaveLength(92);
    expect(rows.start[0]).toBe(Date.parse('2026-03-28T23:00:00Z'));
    expect(rows.end[91]).toBe(Date.parse('2026-03-29T22:00:00Z'));
    expect(sumConsumption(rows)).toBe(readings.totals.consumption);
  });

  it('lists the gaps that open and close the range (data starting late, stopping early) as rows', () => {
    const readings = edgeGapReadings();
    const rows = buildRows(readings, 'raw', Date.parse('2026-01-01T01:30:00Z'));
    expect(rows.kind).toEqual(['gap', 'interval', 'gap', 'gap']);
    expect(rows.consumption[0]).toBeNull();
    // The first reading closes the opening gap: its register is that row's; nothing closes the last.
    expect(rows.register[0]).toBe(readings.series.value[0]);
    expect(rows.register[3]).toBeNull();
    expect(rows.end[3]).toBe(Date.parse('2026-01-01T01:30:00Z'));
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
  const day = dailyReadings();

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

describe('rowsInSlices', () => {
  // Two months of quarter hours (5,664 rows, two slices) with a gap in the first.
  const answer = (): LocationReadings => {
    const meter = rawReadings('2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z', {
      skip: (i) => i >= 1000 && i < 1004,
    });
    return {
      location: meter.meter.location,
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-03-01T00:00:00.000Z',
      granularity: 'raw',
      meters: [meter],
    };
  };

  it('builds, a slice per task, the rows rowsOf builds at once, and keeps them with the answer', async () => {
    const readings = answer();
    const sliced = await rowsInSlices(readings, new AbortController().signal);
    const first = readings.meters[0];
    expect(first && sliced?.[0]).toEqual(first && buildRows(first, 'raw', Date.parse(readings.to)));
    expect(sliced?.[0]?.kind).toContain('gap');
    expect(rowsOf(readings)).toBe(sliced);
  });

  it('gives nothing once aborted, and what rowsOf built meanwhile', async () => {
    const controller = new AbortController();
    const aborted = rowsInSlices(answer(), controller.signal);
    controller.abort();
    expect(await aborted).toBeNull();

    const readings = answer();
    const pending = rowsInSlices(readings, new AbortController().signal);
    const atOnce = rowsOf(readings);
    expect(await pending).toBe(atOnce);
  });
});
