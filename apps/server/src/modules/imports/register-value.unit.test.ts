import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDecimalMilli } from './register-value.ts';

// Thousandths by integer arithmetic on the text, rounding half up on the fourth decimal.
function reference(whole: string, fraction: string): number {
  const firstThree = Number((fraction + '000').slice(0, 3));
  return Number(whole) * 1000 + firstThree + ((fraction[3] ?? '0') >= '5' ? 1 : 0);
}

describe('parseDecimalMilli', () => {
  it('reads plain decimals (the fast path) exactly, and leaves other shapes to the general reader', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{1,13}$/),
        fc.stringMatching(/^\d{0,6}$/),
        fc.boolean(),
        (whole, fraction, hasPoint) => {
          const text = hasPoint ? `${whole}.${fraction}` : whole;
          expect(parseDecimalMilli(text)).toBe(reference(whole, hasPoint ? fraction : ''));
          expect(parseDecimalMilli(` ${text} `)).toBe(reference(whole, hasPoint ? fraction : ''));
        },
      ),
      { numRuns: 3000 },
    );
    expect(parseDecimalMilli('0.1615')).toBe(162);
    expect(parseDecimalMilli('-1.2')).toBe(-1200);
    expect(parseDecimalMilli('.5')).toBe(500);
    for (const text of ['1e3', '12345678901234', '1.2.3', '', '.', '1,5'])
      expect(parseDecimalMilli(text), text).toBeUndefined();
  });
});
