import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lowerBound, upperBound } from './sorted.ts';

describe('lowerBound and upperBound', () => {
  it('give the insertion points before and after equal items', () => {
    const sorted = [10, 20, 20, 30];
    expect([5, 10, 20, 25, 30, 35].map((v) => lowerBound(sorted, v))).toEqual([0, 0, 1, 3, 3, 4]);
    expect([5, 10, 20, 25, 30, 35].map((v) => upperBound(sorted, v))).toEqual([0, 1, 3, 3, 4, 4]);
    // The last item at or before a value, and none (-1) before the first.
    expect(upperBound(sorted, 25) - 1).toBe(2);
    expect(upperBound(sorted, 5) - 1).toBe(-1);
    expect(lowerBound([], 1)).toBe(0);
  });

  it('search from an index on, in typed arrays too', () => {
    expect(lowerBound(Float64Array.from([1, 2, 3, 4]), 2, 2)).toBe(2);
    expect(upperBound(Float64Array.from([1, 2, 3, 4]), 3, 1)).toBe(3);
  });

  it('agree with a linear scan on any ascending list', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -50, max: 50 })),
        fc.integer({ min: -60, max: 60 }),
        (list, v) => {
          const sorted = [...list].sort((a, b) => a - b);
          const lower = sorted.findIndex((item) => item >= v);
          const upper = sorted.findIndex((item) => item > v);
          expect(lowerBound(sorted, v)).toBe(lower < 0 ? sorted.length : lower);
          expect(upperBound(sorted, v)).toBe(upper < 0 ? sorted.length : upper);
        },
      ),
    );
  });
});
