import type { LocationReadings, MeterReadings } from '@cm/contracts/check.ts';
import { describe, expect, it } from 'vitest';
import { buildRows, rowsInSlices, rowsOf, sumConsumption } from './reading-rows.ts';
import { dailyReadings, edgeGapReadings, rawReadings } from '@/test-support/check-fixtures.ts';
import { demandCell } from '../table/row-notes.ts';

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
        {
          type: 'meterExchange',
          channel: 'import',
          at: '2026-06-16T08:30:00.000Z',
          meterNumber: 'EM-10025',
          detail: '',
        },
      ],
    };
    const rows = buildRows(exchanged, 'raw', Date.parse('2026-06-16T09:00:00Z'));
    expect(rows.meterNumber).toEqual(['EM-10013', 'EM-10013', 'EM-10025', 'EM-10025']);
  });

  it("notes an exchange on the new meter's first row and a rollover on the row its reading closes", () => {
    const readings = rawReadings('2026-06-16T08:00:00Z', '2026-06-16T09:00:00Z');
    const rows = buildRows(
      {
        ...readings,
        meterNumbers: ['EM-10013', 'EM-10025'],
        events: [
          {
            type: 'meterExchange',
            channel: 'import',
            at: '2026-06-16T08:30:00.000Z',
            meterNumber: 'EM-10025',
            detail: '',
          },
          {
            type: 'rollover',
            channel: 'import',
            at: '2026-06-16T08:15:00.000Z',
            meterNumber: 'EM-10013',
            detail: '',
          },
          {
            type: 'estimated',
            channel: 'import',
            at: '2026-06-16T08:45:00.000Z',
            meterNumber: 'EM-10025',
            detail: '',
          },
        ],
      },
      'raw',
      Date.parse('2026-06-16T09:00:00Z'),
    );
    expect([...rows.events.entries()]).toEqual([
      [2, [{ type: 'meterExchange', meterNumber: 'EM-10025' }]],
      [0, [{ type: 'rollover', meterNumber: 'EM-10013' }]],
    ]);
  });
});

describe('buildRows, buckets', () => {
  const day = dailyReadings();

  it('ends each bucket after its own length (23 h on the spring day) and lists gaps as rows without energy', () => {
    const rows = buildRows(day, 'day', Date.parse('2026-03-30T22:00:00Z'));
    expect(rows.kind).toEqual(['interval', 'interval', 'gap', 'interval']);
    expect(rows.end[1]).toBe(Date.parse('2026-03-29T22:00:00Z'));
    expect(rows.hours[1]).toBe(23);
    // The gap lies inside its day, which holds its energy: the column still adds up to the total.
    expect(rows.consumption[2]).toBeNull();
    expect(rows.inBucket[2]).toBe(true);
    expect(sumConsumption(rows)).toBe(50);
  });

  it('does not say a trailing gap is counted in its day when its energy is unknown (issue 34 low)', () => {
    // Nothing came after 06:00 on the 30th: the gap lies inside that day, but no reading closes
    // it, so its energy is not known and the day's total cannot hold it.
    const trailing: MeterReadings = {
      ...day,
      gaps: [
        ...day.gaps,
        {
          channel: 'import',
          from: '2026-03-30T04:00:00.000Z',
          to: '2026-03-30T22:00:00.000Z',
          missingIntervals: 72,
          consumption: null,
          bucket: '2026-03-29T22:00:00.000Z',
        },
      ],
    };
    const rows = buildRows(trailing, 'day', Date.parse('2026-03-30T22:00:00Z'));
    const last = rows.kind.lastIndexOf('gap');
    expect(rows.start[last]).toBe(Date.parse('2026-03-30T04:00:00Z'));
    expect(rows.consumption[last]).toBeNull();
    expect(rows.inBucket[last]).toBe(false);
    // The gap inside the 29th, whose energy is known, is still in its day.
    expect(rows.inBucket[2]).toBe(true);
  });

  it('carries each bucket’s peak demand, its start and "at least", and none on gap rows', () => {
    const rows = buildRows(day, 'day', Date.parse('2026-03-30T22:00:00Z'));
    expect(rows.demand).toEqual([3.2, 2.4, null, null]);
    expect(rows.demandAt).toEqual([
      Date.parse('2026-03-28T17:15:00Z'),
      Date.parse('2026-03-29T06:00:00Z'),
      null,
      null,
    ]);
    expect(rows.demandAtLeast).toEqual([false, true, false, true]);
    // The table's cell: "≥" for a lower bound, the peak's local time (Berlin, CET then CEST).
    expect(demandCell(rows, 0, 'day', 'en', 'Europe/Berlin')).toEqual({ value: '3.2', at: '18:15' });
    expect(demandCell(rows, 1, 'day', 'de', 'Europe/Berlin')).toEqual({ value: '≥\u00a02,4', at: '08:00' });
    expect(demandCell(rows, 3, 'day', 'en', 'Europe/Berlin')).toEqual({ value: '—', at: null });
  });

  it('lists a billing period across day edges as a row of its own, with its energy', () => {
    // A period from noon on the 28th to noon on the 30th: in no day, 12.5 kWh known as a whole.
    const billed = {
      ...day,
      totals: { ...day.totals, consumption: 62.5 },
      periods: [
        {
          channel: 'import' as const,
          from: '2026-03-28T11:00:00.000Z',
          to: '2026-03-30T10:00:00.000Z',
          consumption: 12.5,
          quality: 'actual' as const,
        },
      ],
    };
    const rows = buildRows(billed, 'day', Date.parse('2026-03-30T22:00:00Z'));
    expect(rows.kind).toEqual(['interval', 'period', 'interval', 'gap', 'interval']);
    expect(rows.consumption[1]).toBe(12.5);
    expect(rows.start[1]).toBe(Date.parse('2026-03-28T11:00:00.000Z'));
    // The column adds up to the total again, the period included.
    expect(sumConsumption(rows)).toBe(62.5);
  });
});

describe('buildRows, gaps in hour buckets', () => {
  // Four UTC hours of 0.25 kWh quarters; gap A (00:45–01:30) crosses an hour's edge, gap B
  // (02:15–02:45) lies inside 02:00–03:00. As the server counts them, A is in no hour and B in its own.
  const hours = (): MeterReadings => {
    const raw = rawReadings('2026-01-01T00:00:00Z', '2026-01-01T04:00:00Z', {
      skip: (i) => i === 4 || i === 5 || i === 10,
    });
    const at = (hhmm: string) => Date.parse(`2026-01-01T${hhmm}:00Z`);
    // As the server answers the hour view: A across an edge in no hour, B in the hour it lies inside.
    const buckets = [null, '2026-01-01T02:00:00.000Z'];
    return {
      ...raw,
      gaps: raw.gaps.map((gap, i) => ({ ...gap, bucket: buckets[i] ?? null })),
      series: {
        t: [at('00:00'), at('01:00'), at('02:00'), at('03:00')],
        value: [1000.75, 1002, 1003, 1004],
        consumption: [0.75, 0.5, 1, 1],
        missing: [2, 1, 1, 0],
        estimated: [0, 0, 0, 0],
        substituted: [0, 0, 0, 0],
        corrected: [0, 0, 0, 0],
        hours: [1, 1, 1, 1],
      },
    };
  };

  it('gives a gap across an edge its energy and says a gap inside an hour is in that hour', () => {
    const readings = hours();
    expect(readings.gaps.map((gap) => [gap.from, gap.to, gap.consumption])).toEqual([
      ['2026-01-01T00:45:00.000Z', '2026-01-01T01:30:00.000Z', 0.75],
      ['2026-01-01T02:15:00.000Z', '2026-01-01T02:45:00.000Z', 0.5],
    ]);
    const rows = buildRows(readings, 'hour', Date.parse('2026-01-01T04:00:00Z'));
    expect(rows.kind).toEqual(['interval', 'gap', 'interval', 'interval', 'gap', 'interval']);
    expect(rows.consumption[1]).toBe(0.75);
    expect(rows.inBucket[1]).toBe(false);
    expect(rows.consumption[4]).toBeNull();
    expect(rows.inBucket[4]).toBe(true);
    // What a spreadsheet adds up is the range's consumption: 16 quarters of 0.25 kWh.
    expect(sumConsumption(rows)).toBe(4);
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
