import { reasonText } from '@cm/contracts/import-reasons.ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTimestamp } from './timestamp.ts';

describe('parseTimestamp', () => {
  it('reads instants with an offset, and local times in a zone', () => {
    expect(parseTimestamp('2024-03-31T02:30:00+01:00', undefined)).toEqual({
      ok: true,
      ms: Date.parse('2024-03-31T01:30:00Z'),
    });
    expect(parseTimestamp('2024-03-31 01:30Z', undefined)).toEqual({
      ok: true,
      ms: Date.parse('2024-03-31T01:30:00Z'),
    });
    expect(parseTimestamp('2024-07-01 12:00:00.250', 'Europe/Dublin')).toEqual({
      ok: true,
      ms: Date.parse('2024-07-01T11:00:00.250Z'),
    });
    expect(parseTimestamp('2013-01-01 00:30:00', 'UTC')).toEqual({
      ok: true,
      ms: Date.parse('2013-01-01T00:30:00Z'),
    });
  });

  it('refuses local times the clock skipped or showed twice, naming why', () => {
    const skipped = parseTimestamp('2024-03-31 01:30', 'Europe/Dublin');
    expect(!skipped.ok && reasonText(skipped.reason)).toMatch(/does not exist/);
    const twice = parseTimestamp('2023-10-29 01:30', 'Europe/Dublin');
    expect(!twice.ok && reasonText(twice.reason)).toMatch(/ambiguous/);
    expect(parseTimestamp('2023-10-29 02:00', 'Europe/Dublin')).toEqual({
      ok: true,
      ms: Date.parse('2023-10-29T02:00:00Z'),
    });
    expect(parseTimestamp('2023-11-05 01:30', 'America/New_York')).toMatchObject({ ok: false });
  });

  it('refuses text that is not a date-time, impossible dates, and hostile zones', () => {
    for (const text of [
      'yesterday',
      '2024-02-30 00:00',
      '2024-13-01T00:00Z',
      '2024-01-01T24:00Z',
      '01-09-2023 08:30',
      '',
    ]) {
      expect(parseTimestamp(text, 'UTC').ok, text).toBe(false);
    }
    const noZone = parseTimestamp('2024-01-01 00:00', undefined);
    expect(!noZone.ok && reasonText(noZone.reason)).toMatch(/no offset/);
    const hostile = parseTimestamp('2024-01-01 00:00', "UTC'; DROP TABLE readings;--");
    expect(!hostile.ok && reasonText(hostile.reason)).toMatch(/not an IANA/);
  });

  it('reads machine-written UTC times (the fast path) exactly as ISO 8601 says, and refuses impossible ones', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.parse('9999-12-31T23:59:59.999Z') }), (ms) => {
        const iso = new Date(ms).toISOString();
        expect(parseTimestamp(iso, undefined)).toEqual({ ok: true, ms });
        expect(parseTimestamp(iso.replace(/\.(\d)\d\dZ$/, '.$1Z'), undefined)).toEqual({
          ok: true,
          ms: ms - (ms % 100),
        });
        expect(parseTimestamp(iso.replace(/\.\d+Z$/, '.1234Z'), undefined)).toEqual({
          ok: true,
          ms: ms - (ms % 1000) + 123,
        });
      }),
      { numRuns: 3000 },
    );
    for (const text of [
      '2023-02-29T00:00:00Z',
      '2024-04-31T00:00:00Z',
      '2024-01-01T00:00:60Z',
      '2024-01-01T00:00:00.Z',
    ])
      expect(parseTimestamp(text, 'UTC').ok, text).toBe(false);
    expect(parseTimestamp('2024-02-29T23:59:59.5Z', undefined)).toEqual({
      ok: true,
      ms: Date.parse('2024-02-29T23:59:59.500Z'),
    });
  });
});
