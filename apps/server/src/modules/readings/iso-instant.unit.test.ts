import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoInstant } from './iso-instant.ts';

describe('isoInstant', () => {
  it('writes what toISOString writes, across days, years and before 1970', () => {
    for (const ms of [
      0,
      -1,
      86_399_999,
      86_400_000,
      Date.parse('2024-02-29T23:59:59.999Z'),
      Date.parse('1969-12-31T00:00:00.001Z'),
    ])
      expect(isoInstant(ms)).toBe(new Date(ms).toISOString());
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('1900-01-01T00:00:00Z'), max: Date.parse('9999-12-31T23:59:59.999Z') }),
        (ms) => {
          expect(isoInstant(ms)).toBe(new Date(ms).toISOString());
        },
      ),
      { numRuns: 5000 },
    );
  });
});
