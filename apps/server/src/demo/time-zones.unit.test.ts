import { describe, expect, it } from 'vitest';
import { offsetChanges, offsetCursor, utcOffsetMinutes, zonedToUtc } from './time-zones.ts';

const at = (iso: string) => Date.parse(iso);

describe('time zones', () => {
  it('reads the UTC offset a zone observes, including zero and negative ones', () => {
    expect(utcOffsetMinutes('Europe/Berlin', at('2026-01-15T12:00:00Z'))).toBe(60);
    expect(utcOffsetMinutes('Europe/Berlin', at('2026-07-15T12:00:00Z'))).toBe(120);
    expect(utcOffsetMinutes('Europe/Lisbon', at('2026-01-15T12:00:00Z'))).toBe(0);
    expect(utcOffsetMinutes('America/New_York', at('2026-01-15T12:00:00Z'))).toBe(-300);
  });

  it('finds every DST switch of a year to the minute', () => {
    const from = at('2026-01-01T00:00:00Z');
    const to = at('2027-01-01T00:00:00Z');
    expect(offsetChanges('Europe/Berlin', from, to)).toEqual([
      { at: at('2026-03-29T01:00:00Z'), offsetBeforeMinutes: 60, offsetAfterMinutes: 120 },
      { at: at('2026-10-25T01:00:00Z'), offsetBeforeMinutes: 120, offsetAfterMinutes: 60 },
    ]);
    expect(offsetChanges('America/New_York', from, to)).toEqual([
      { at: at('2026-03-08T07:00:00Z'), offsetBeforeMinutes: -300, offsetAfterMinutes: -240 },
      { at: at('2026-11-01T06:00:00Z'), offsetBeforeMinutes: -240, offsetAfterMinutes: -300 },
    ]);
    expect(offsetChanges('UTC', from, to)).toEqual([]);
  });

  it('walks the offsets forward without calling Intl per instant', () => {
    const offsetAt = offsetCursor('Europe/Lisbon', at('2026-03-28T00:00:00Z'), at('2026-03-31T00:00:00Z'));
    expect(offsetAt(at('2026-03-29T00:45:00Z'))).toBe(0);
    expect(offsetAt(at('2026-03-29T01:00:00Z'))).toBe(60);
    expect(offsetAt(at('2026-03-30T12:00:00Z'))).toBe(60);
  });

  it('turns a local wall-clock time into the right instant on both sides of a switch', () => {
    // 09:00 in Berlin is 08:00Z in winter and 07:00Z in summer.
    expect(zonedToUtc('Europe/Berlin', at('2026-03-28T09:00:00Z'))).toBe(at('2026-03-28T08:00:00Z'));
    expect(zonedToUtc('Europe/Berlin', at('2026-03-30T09:00:00Z'))).toBe(at('2026-03-30T07:00:00Z'));
    expect(zonedToUtc('America/New_York', at('2026-11-02T10:30:00Z'))).toBe(at('2026-11-02T15:30:00Z'));
  });
});
