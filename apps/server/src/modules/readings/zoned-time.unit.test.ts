import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, localParts, startOfLocal, utcOffsetMs } from '@cm/contracts/zoned-time.ts';
import { bucketEdges, localDaysCovered } from './zoned-time.ts';

const ZONES = Intl.supportedValuesOf('timeZone');
const iso = (ms: number) => new Date(ms).toISOString();
const lengthsInHours = (edges: number[]) => edges.slice(1).map((e, i) => (e - (edges[i] ?? 0)) / HOUR_MS);

describe('bucketEdges', () => {
  it('makes Lord Howe days 24.5 and 23.5 hours long and its odd hours 90 and 30 minutes', () => {
    const april = startOfLocal({ year: 2026, month: 4, day: 5 }, 'Australia/Lord_Howe');
    expect(lengthsInHours(bucketEdges(april, april + 1, 'day', 'Australia/Lord_Howe'))).toEqual([24.5]);
    const hours = lengthsInHours(bucketEdges(april, april + 24.5 * HOUR_MS, 'hour', 'Australia/Lord_Howe'));
    expect(hours).toEqual([1, 1.5, ...Array<number>(22).fill(1)]);
    const october = startOfLocal({ year: 2026, month: 10, day: 4 }, 'Australia/Lord_Howe');
    expect(lengthsInHours(bucketEdges(october, october + 1, 'day', 'Australia/Lord_Howe'))).toEqual([23.5]);
    expect(
      lengthsInHours(bucketEdges(october, october + 23.5 * HOUR_MS, 'hour', 'Australia/Lord_Howe')),
    ).toEqual([1, 1, 0.5, ...Array<number>(21).fill(1)]);
  });

  it("cuts Chatham's hours at its 02:45 clock changes into 45 and 15 minutes", () => {
    // Chatham (+12:45 / +13:45) moves its clocks at 02:45 standard time, 03:45 daylight time.
    for (const day of [
      { year: 2026, month: 4, day: 5 },
      { year: 2026, month: 9, day: 27 },
    ]) {
      const from = startOfLocal(day, 'Pacific/Chatham');
      const hours = lengthsInHours(bucketEdges(from, from + 4 * HOUR_MS, 'hour', 'Pacific/Chatham'));
      expect(hours).toContain(0.75);
      expect(hours).toContain(0.25);
    }
  });

  it('starts weeks on Monday and months on the 1st, in local time', () => {
    expect(
      bucketEdges(Date.UTC(2026, 0, 15), Date.UTC(2026, 1, 1), 'week', 'Europe/Berlin').map(iso),
    ).toEqual([
      '2026-01-11T23:00:00.000Z',
      '2026-01-18T23:00:00.000Z',
      '2026-01-25T23:00:00.000Z',
      '2026-02-01T23:00:00.000Z',
    ]);
    expect(
      bucketEdges(Date.UTC(2026, 1, 15), Date.UTC(2026, 3, 15), 'month', 'America/New_York').map(iso),
    ).toEqual([
      '2026-02-01T05:00:00.000Z',
      '2026-03-01T05:00:00.000Z',
      '2026-04-01T04:00:00.000Z',
      '2026-05-01T04:00:00.000Z',
    ]);
  });

  it('gives no bucket to a day the zone skipped', () => {
    // Samoa skipped 30 December 2011 when it moved across the date line.
    const from = startOfLocal({ year: 2011, month: 12, day: 29 }, 'Pacific/Apia');
    const starts = bucketEdges(from, from + 2 * DAY_MS, 'day', 'Pacific/Apia').slice(0, -1);
    expect(starts.map((s) => localParts(s, 'Pacific/Apia').day)).toEqual([29, 31]);
  });

  it('counts covered days by their real length', () => {
    const from = startOfLocal({ year: 2026, month: 3, day: 28 }, 'Europe/Berlin');
    const noon = startOfLocal({ year: 2026, month: 3, day: 29, hour: 12 }, 'Europe/Berlin');
    // 11 of the 23 hours of March 29.
    expect(localDaysCovered(from, noon, 'Europe/Berlin')).toBeCloseTo(1 + 11 / 23, 12);
  });
});

// Instants from 2025 to 2040: the rules in force today, which change clocks by at most an hour
// (Lord Howe by 30 minutes), except Antarctica/Troll, whose summer time is two hours ahead.
const instant = fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2040, 0, 1) });
const zone = fc.constantFrom(...ZONES);
const maxChangeHours = (timeZone: string) => (timeZone === 'Antarctica/Troll' ? 2 : 1);

describe('bucketEdges properties', () => {
  it('day buckets in any zone are consecutive local days of 24 h ± the DST change', () => {
    fc.assert(
      fc.property(zone, instant, fc.integer({ min: 1, max: 400 }), (timeZone, from, days) => {
        const edges = bucketEdges(from, from + days * DAY_MS, 'day', timeZone);
        expect(edges[0]).toBeLessThanOrEqual(from);
        expect(edges[edges.length - 1]).toBeGreaterThanOrEqual(from + days * DAY_MS);
        const limit = maxChangeHours(timeZone);
        let previous = localParts(edges[0] ?? 0, timeZone);
        for (let i = 1; i < edges.length; i++) {
          const start = edges[i] ?? 0;
          const hours = (start - (edges[i - 1] ?? 0)) / HOUR_MS;
          expect(hours).toBeGreaterThanOrEqual(24 - limit);
          expect(hours).toBeLessThanOrEqual(24 + limit);
          const parts = localParts(start, timeZone);
          // The next calendar day, starting at local midnight or, if midnight was skipped, when the clock jumped.
          expect(
            Date.UTC(parts.year, parts.month - 1, parts.day) -
              Date.UTC(previous.year, previous.month - 1, previous.day),
          ).toBe(DAY_MS);
          if (parts.hour !== 0 || parts.minute !== 0)
            expect(utcOffsetMs(start - 1, timeZone)).not.toBe(utcOffsetMs(start, timeZone));
          previous = parts;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('buckets of every unit are strictly increasing and hold every instant of the range once', () => {
    fc.assert(
      fc.property(
        zone,
        instant,
        fc.integer({ min: 1, max: 40 * DAY_MS }),
        fc.constantFrom('hour' as const, 'day' as const, 'week' as const, 'month' as const),
        fc.integer({ min: 0, max: 40 * DAY_MS }),
        (timeZone, from, length, unit, probe) => {
          const to = from + length;
          const edges = bucketEdges(from, to, unit, timeZone);
          for (let i = 1; i < edges.length; i++) expect(edges[i]).toBeGreaterThan(edges[i - 1] ?? Infinity);
          // Interior edges are where the local hour/day/week/month changes.
          const t = from + (probe % length);
          const k = edges.findLastIndex((e) => e <= t);
          expect(k).toBeGreaterThanOrEqual(0);
          expect(t).toBeLessThan(edges[k + 1] ?? -Infinity);
          const starts = edges.slice(0, -1);
          if (unit === 'hour') {
            // Lord Howe's half-hour change makes a 90-minute hour; Chatham's change at 02:45 cuts
            // an hour into 45 and 15 minutes (the local hour the clock leaves, then the one it enters).
            for (let i = 1; i < starts.length; i++) {
              expect((starts[i] ?? 0) - (starts[i - 1] ?? 0)).toBeLessThanOrEqual(1.5 * HOUR_MS);
              expect((starts[i] ?? 0) - (starts[i - 1] ?? 0)).toBeGreaterThanOrEqual(0.25 * HOUR_MS);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
