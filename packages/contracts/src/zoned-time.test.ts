import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HOUR_MS,
  formatOffset,
  instantOfWall,
  instantsAtWall,
  isValidTimeZone,
  isoInZone,
  localDateOf,
  localDayNumber,
  localParts,
  offsetChanges,
  offsetSpans,
  startOfLocal,
  utcOffsetMs,
  wallResolver,
} from './zoned-time.ts';

const ZONES = Intl.supportedValuesOf('timeZone');
const at = (text: string) => Date.parse(text);

describe('isValidTimeZone', () => {
  it('accepts IANA names and refuses anything else', () => {
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isValidTimeZone("UTC'; drop table locations;--")).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
    expect(isValidTimeZone('A'.repeat(10_000))).toBe(false);
  });
});

describe('offsets and local parts', () => {
  it('knows half-hour, 45-minute and 30-minute-DST zones', () => {
    expect(utcOffsetMs(Date.UTC(2026, 5, 1), 'Asia/Kolkata')).toBe(5.5 * HOUR_MS);
    expect(utcOffsetMs(Date.UTC(2026, 5, 1), 'Asia/Kathmandu')).toBe(5.75 * HOUR_MS);
    expect(utcOffsetMs(Date.UTC(2026, 5, 1), 'Australia/Lord_Howe')).toBe(10.5 * HOUR_MS);
    expect(utcOffsetMs(Date.UTC(2026, 0, 1), 'Australia/Lord_Howe')).toBe(11 * HOUR_MS);
    expect(localParts(Date.UTC(2026, 5, 1, 12), 'Asia/Kathmandu')).toEqual({
      year: 2026,
      month: 6,
      day: 1,
      hour: 17,
      minute: 45,
      second: 0,
      millisecond: 0,
      weekday: 1,
    });
  });

  it('places a DST transition to the second', () => {
    const change = Date.UTC(2026, 2, 29, 1); // 02:00 CET becomes 03:00 CEST
    expect(utcOffsetMs(change - 1000, 'Europe/Berlin')).toBe(HOUR_MS);
    expect(utcOffsetMs(change, 'Europe/Berlin')).toBe(2 * HOUR_MS);
  });

  it('resolves local times that occur twice to the first, and skipped ones to the jump', () => {
    expect(startOfLocal({ year: 2026, month: 10, day: 25, hour: 2, minute: 30 }, 'Europe/Berlin')).toBe(
      Date.UTC(2026, 9, 25, 0, 30),
    );
    expect(startOfLocal({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, 'Europe/Berlin')).toBe(
      Date.UTC(2026, 2, 29, 1),
    );
    expect(
      localParts(startOfLocal({ year: 2026, month: 9, day: 6 }, 'America/Santiago'), 'America/Santiago').hour,
    ).toBe(1);
  });
});

describe('offsetSpans', () => {
  it('lists the transitions of a range after the offset in force at its start', () => {
    const spans = offsetSpans(at('2026-01-01T00:00:00Z'), at('2027-01-01T00:00:00Z'), 'Europe/Berlin');
    expect(spans.starts.slice(1).map((ms) => new Date(ms).toISOString())).toEqual([
      '2026-03-29T01:00:00.000Z',
      '2026-10-25T01:00:00.000Z',
    ]);
    expect(spans.offsets).toEqual([HOUR_MS, 2 * HOUR_MS, HOUR_MS]);
    expect(spans.starts[0]).toBeLessThanOrEqual(at('2026-01-01T00:00:00Z'));
    expect(offsetSpans(at('2026-01-01T00:00:00Z'), at('2027-01-01T00:00:00Z'), 'Asia/Tokyo').offsets).toEqual(
      [9 * HOUR_MS],
    );
  });

  it('resolves ascending wall times, a skipped one to the jump and a repeated one to the first', () => {
    const spans = offsetSpans(at('2026-03-01T00:00:00Z'), at('2026-11-01T00:00:00Z'), 'Europe/Berlin');
    const resolve = wallResolver(spans);
    expect(resolve(at('2026-03-29T01:30:00Z'))).toBe(at('2026-03-29T00:30:00Z'));
    expect(resolve(at('2026-03-29T02:30:00Z'))).toBe(at('2026-03-29T01:00:00Z'));
    expect(resolve(at('2026-10-25T02:30:00Z'))).toBe(at('2026-10-25T00:30:00Z'));
  });

  it('refuses an unknown zone', () => {
    expect(() => offsetSpans(0, 1, 'Mars/Olympus_Mons')).toThrow(RangeError);
    expect(() => utcOffsetMs(0, 'Mars/Olympus_Mons')).toThrow(/Unknown time zone/);
  });
});

describe('offsetChanges', () => {
  it('finds the two European changes of 2026 and their day lengths', () => {
    const changes = offsetChanges(at('2026-01-01T00:00:00Z'), at('2027-01-01T00:00:00Z'), 'Europe/Berlin');
    expect(changes).toEqual([
      { at: at('2026-03-29T01:00:00Z'), fromOffset: 60, toOffset: 120 },
      { at: at('2026-10-25T01:00:00Z'), fromOffset: 120, toOffset: 60 },
    ]);
  });

  it('finds New York’s changes (07:00Z and 06:00Z) and none in a zone without DST', () => {
    const changes = offsetChanges(at('2026-03-01T00:00:00Z'), at('2026-12-01T00:00:00Z'), 'America/New_York');
    expect(changes.map((c) => new Date(c.at).toISOString())).toEqual([
      '2026-03-08T07:00:00.000Z',
      '2026-11-01T06:00:00.000Z',
    ]);
    expect(offsetChanges(at('2026-01-01T00:00:00Z'), at('2027-01-01T00:00:00Z'), 'Asia/Tokyo')).toEqual([]);
  });

  it('one DST day alone', () => {
    const from = at('2026-10-24T22:00:00Z');
    const to = at('2026-10-25T23:00:00Z');
    expect(offsetChanges(from, to, 'Europe/Berlin')).toHaveLength(1);
  });
});

describe('the DST policy: local wall times to instants', () => {
  const wall = (text: string) => Date.parse(`${text}Z`);

  it('names none, one or two instants for a wall time', () => {
    // Berlin, 29 March 2026: 02:00–02:59 never shows; 25 October: 02:00–02:59 shows twice.
    expect(instantsAtWall(wall('2026-03-29T02:30:00'), 'Europe/Berlin')).toEqual([]);
    expect(instantsAtWall(wall('2026-03-29T03:30:00'), 'Europe/Berlin')).toEqual([
      at('2026-03-29T01:30:00Z'),
    ]);
    expect(instantsAtWall(wall('2026-10-25T02:30:00'), 'Europe/Berlin')).toEqual([
      at('2026-10-25T00:30:00Z'),
      at('2026-10-25T01:30:00Z'),
    ]);
    // Lord Howe moves by half an hour; Apia skipped a whole day (30 December 2011).
    expect(instantsAtWall(wall('2026-10-04T02:15:00'), 'Australia/Lord_Howe')).toEqual([]);
    expect(instantsAtWall(wall('2011-12-30T12:00:00'), 'Pacific/Apia')).toEqual([]);
  });

  it('reads a typed time as Temporal does: the earlier of two, a skipped one moved by the gap', () => {
    expect(isoInZone(instantOfWall(wall('2026-03-29T02:30:00'), 'Europe/Berlin'), 'Europe/Berlin')).toBe(
      '2026-03-29T03:30:00+02:00',
    );
    expect(isoInZone(instantOfWall(wall('2026-10-25T02:30:00'), 'Europe/Berlin'), 'Europe/Berlin')).toBe(
      '2026-10-25T02:30:00+02:00',
    );
    expect(instantOfWall(wall('2026-07-01T12:00:00'), 'America/New_York')).toBe(at('2026-07-01T16:00:00Z'));
  });

  it('gives any instant back from its own wall time, and the policy agrees with startOfLocal off the gaps', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata'),
        fc.integer({ min: at('2000-01-01T00:00:00Z'), max: at('2040-01-01T00:00:00Z') }),
        (zone, ms) => {
          const instant = Math.floor(ms / 60_000) * 60_000;
          const w = instant + utcOffsetMs(instant, zone);
          expect(instantsAtWall(w, zone)).toContain(instant);
          expect(instantOfWall(w, zone)).toBe(instantsAtWall(w, zone)[0]);
        },
      ),
    );
  });
});

describe('isoInZone', () => {
  it('writes the local wall time with the offset in force at that instant', () => {
    expect(isoInZone(at('2026-03-29T00:45:00Z'), 'Europe/Berlin')).toBe('2026-03-29T01:45:00+01:00');
    expect(isoInZone(at('2026-03-29T01:00:00Z'), 'Europe/Berlin')).toBe('2026-03-29T03:00:00+02:00');
    expect(isoInZone(at('2026-01-01T00:00:00Z'), 'Europe/Lisbon')).toBe('2026-01-01T00:00:00+00:00');
    expect(isoInZone(at('2026-11-01T05:30:00Z'), 'America/New_York')).toBe('2026-11-01T01:30:00-04:00');
    expect(isoInZone(at('2026-11-01T06:30:00Z'), 'America/New_York')).toBe('2026-11-01T01:30:00-05:00');
    expect(isoInZone(at('2026-06-01T12:00:00.250Z'), 'Asia/Kathmandu')).toBe('2026-06-01T17:45:00.250+05:45');
    expect(isoInZone(at('0999-12-31T23:00:00Z'), 'UTC')).toBe('0999-12-31T23:00:00+00:00');
  });

  it('tells the two 02:30 of an October night in Berlin apart', () => {
    expect(isoInZone(at('2026-10-25T00:30:00Z'), 'Europe/Berlin')).toBe('2026-10-25T02:30:00+02:00');
    expect(isoInZone(at('2026-10-25T01:30:00Z'), 'Europe/Berlin')).toBe('2026-10-25T02:30:00+01:00');
  });

  it('formats offsets with sign and minutes', () => {
    expect(formatOffset(0)).toBe('+00:00');
    expect(formatOffset(-300)).toBe('-05:00');
    expect(formatOffset(345)).toBe('+05:45');
    expect(formatOffset(-570)).toBe('-09:30');
  });
});

describe('localDateOf', () => {
  // Each date read off the zone's offset by hand: local = UTC + offset.
  it('changes date at local midnight on DST days (Brussels, +01:00 in winter, +02:00 in summer)', () => {
    // Spring, Sunday 2026-03-29: midnight CET is 23:00Z the day before; the next midnight is CEST, 22:00Z.
    expect(localDateOf(at('2026-03-28T22:59:59.999Z'), 'Europe/Brussels')).toBe('2026-03-28');
    expect(localDateOf(at('2026-03-28T23:00:00Z'), 'Europe/Brussels')).toBe('2026-03-29');
    expect(localDateOf(at('2026-03-29T01:00:00Z'), 'Europe/Brussels')).toBe('2026-03-29'); // 03:00 CEST, the jump
    expect(localDateOf(at('2026-03-29T21:59:59.999Z'), 'Europe/Brussels')).toBe('2026-03-29');
    expect(localDateOf(at('2026-03-29T22:00:00Z'), 'Europe/Brussels')).toBe('2026-03-30');
    // Autumn, Sunday 2026-10-25: midnight CEST is 22:00Z the day before; 02:30 comes twice
    // (00:30Z CEST, 01:30Z CET); the next midnight is CET, 23:00Z.
    expect(localDateOf(at('2026-10-24T21:59:59.999Z'), 'Europe/Brussels')).toBe('2026-10-24');
    expect(localDateOf(at('2026-10-24T22:00:00Z'), 'Europe/Brussels')).toBe('2026-10-25');
    expect(localDateOf(at('2026-10-25T00:30:00Z'), 'Europe/Brussels')).toBe('2026-10-25');
    expect(localDateOf(at('2026-10-25T01:30:00Z'), 'Europe/Brussels')).toBe('2026-10-25');
    expect(localDateOf(at('2026-10-25T22:59:59.999Z'), 'Europe/Brussels')).toBe('2026-10-25');
    expect(localDateOf(at('2026-10-25T23:00:00Z'), 'Europe/Brussels')).toBe('2026-10-26');
  });

  it('is the zone’s date, not UTC’s: behind it with a negative offset, ahead with a positive one', () => {
    // 23:30Z on 28 March is already 29 March in Berlin (00:30 CET), still 28 March in New York.
    expect(localDateOf(at('2026-03-28T23:30:00Z'), 'Europe/Berlin')).toBe('2026-03-29');
    // New York, EDT (−04:00) from 8 March 2026: 23:30Z on the 28th is 19:30 the same day; local
    // midnight of the 29th is 04:00Z.
    expect(localDateOf(at('2026-03-28T23:30:00Z'), 'America/New_York')).toBe('2026-03-28');
    expect(localDateOf(at('2026-03-29T03:59:59.999Z'), 'America/New_York')).toBe('2026-03-28');
    expect(localDateOf(at('2026-03-29T04:00:00Z'), 'America/New_York')).toBe('2026-03-29');
    // Pago Pago, −11:00 all year: 10:59Z on New Year's Day UTC is still 31 December.
    expect(localDateOf(at('2026-01-01T10:59:59.999Z'), 'Pacific/Pago_Pago')).toBe('2025-12-31');
    expect(localDateOf(at('2026-01-01T11:00:00Z'), 'Pacific/Pago_Pago')).toBe('2026-01-01');
  });

  it('turns the year at local midnight', () => {
    // Kiritimati, +14:00: the new year begins at 10:00Z on 31 December.
    expect(localDateOf(at('2025-12-31T09:59:59.999Z'), 'Pacific/Kiritimati')).toBe('2025-12-31');
    expect(localDateOf(at('2025-12-31T10:00:00Z'), 'Pacific/Kiritimati')).toBe('2026-01-01');
    // Kolkata, +05:30: at 18:30Z.
    expect(localDateOf(at('2025-12-31T18:29:59.999Z'), 'Asia/Kolkata')).toBe('2025-12-31');
    expect(localDateOf(at('2025-12-31T18:30:00Z'), 'Asia/Kolkata')).toBe('2026-01-01');
    // Brussels, +01:00, before 1970 (negative milliseconds): 23:00Z on 31 December 1969.
    expect(localDateOf(at('1969-12-31T22:59:59.999Z'), 'Europe/Brussels')).toBe('1969-12-31');
    expect(localDateOf(at('1969-12-31T23:00:00Z'), 'Europe/Brussels')).toBe('1970-01-01');
    expect(localDateOf(at('2026-12-31T23:59:59.999Z'), 'UTC')).toBe('2026-12-31');
    expect(localDateOf(at('2027-01-01T00:00:00Z'), 'UTC')).toBe('2027-01-01');
  });

  it('skips the date a zone skipped', () => {
    // Apia moved from −10:00 to +14:00 at the end of 29 December 2011 (10:00Z on the 30th): there
    // was no 30 December.
    expect(localDateOf(at('2011-12-30T09:59:59.999Z'), 'Pacific/Apia')).toBe('2011-12-29');
    expect(localDateOf(at('2011-12-30T10:00:00Z'), 'Pacific/Apia')).toBe('2011-12-31');
  });

  it('gives the same date as a day number', () => {
    // 2026-03-29 is 56 years after 1970 (14 of them leap: 1972 … 2024), 20,454 days to
    // 1 January 2026, then 31 + 28 + 28 more: day 20,541.
    expect(localDayNumber(at('2026-03-28T23:00:00Z'), 'Europe/Brussels')).toBe(20_541);
    expect(localDayNumber(at('2026-03-29T21:59:59.999Z'), 'Europe/Brussels')).toBe(20_541);
    expect(localDayNumber(at('1969-12-31T22:59:59.999Z'), 'Europe/Brussels')).toBe(-1);
  });
});

// Instants from 2025 to 2040: the rules in force today.
const instant = fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2040, 0, 1) });
const zone = fc.constantFrom(...ZONES);

describe('properties', () => {
  it('isoInZone reads back as the same instant, with the wall time Intl shows', () => {
    fc.assert(
      fc.property(zone, instant, (timeZone, ms) => {
        const text = isoInZone(ms, timeZone);
        expect(Date.parse(text)).toBe(ms);
        // Swedish short dates are ISO-like: "2026-03-29 03:00:00".
        const wall = new Intl.DateTimeFormat('sv-SE', {
          timeZone,
          dateStyle: 'short',
          timeStyle: 'medium',
          hourCycle: 'h23',
        }).format(ms);
        expect(text.slice(0, 19)).toBe(wall.replace(' ', 'T'));
      }),
      { numRuns: 300 },
    );
  });

  it('startOfLocal gives back the local time of any instant, to the minute', () => {
    fc.assert(
      fc.property(zone, instant, (timeZone, ms) => {
        const p = localParts(ms, timeZone);
        const start = startOfLocal(
          { year: p.year, month: p.month, day: p.day, hour: p.hour, minute: p.minute },
          timeZone,
        );
        expect(start).toBeLessThanOrEqual(ms);
        expect(ms - start).toBeLessThan(60_000 + 2 * HOUR_MS);
        expect(localParts(start, timeZone)).toMatchObject({
          year: p.year,
          month: p.month,
          day: p.day,
          hour: p.hour,
          minute: p.minute,
        });
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with Intl on the local calendar day of any instant', () => {
    fc.assert(
      fc.property(
        zone,
        fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) }),
        (timeZone, ms) => {
          const p = localParts(ms, timeZone);
          const text = new Intl.DateTimeFormat('en-CA', {
            timeZone,
            year: 'numeric',
            month: '2-digit',
            day: '2-digit',
          }).format(ms);
          expect(`${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`).toBe(
            text,
          );
          expect(localDateOf(ms, timeZone)).toBe(text);
          // What the import preview asked Intl before: the same text.
          expect(localDateOf(ms, timeZone)).toBe(new Intl.DateTimeFormat('en-CA', { timeZone }).format(ms));
        },
      ),
      { numRuns: 500 },
    );
  });
});
