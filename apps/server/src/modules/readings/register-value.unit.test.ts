import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kwhToMicro, parseDecimalMicro, registerAdvanceMicro } from './register-value.ts';

// Millionths by integer arithmetic on the text, rounding half up on the seventh decimal: an
// independent reading of the rule (BigInt, no shared code).
function reference(whole: string, fraction: string): number {
  const padded = (fraction + '0000000').slice(0, 7);
  const sevenths = BigInt(whole) * 10_000_000n + BigInt(padded);
  return Number((sevenths + 5n) / 10n);
}

describe('parseDecimalMicro', () => {
  it('reads plain decimals (the fast path) exactly, and leaves other shapes to the general reader', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{1,9}$/),
        fc.stringMatching(/^\d{0,9}$/),
        fc.boolean(),
        (whole, fraction, hasPoint) => {
          const text = hasPoint ? `${whole}.${fraction}` : whole;
          expect(parseDecimalMicro(text)).toBe(reference(whole, hasPoint ? fraction : ''));
          expect(parseDecimalMicro(` ${text} `)).toBe(reference(whole, hasPoint ? fraction : ''));
        },
      ),
      { numRuns: 3000 },
    );
    // ESB writes 0.1 Wh, ESPI mWh: both exact.
    expect(parseDecimalMicro('12.2271')).toBe(12_227_100);
    expect(parseDecimalMicro('0.001')).toBe(1_000);
    expect(parseDecimalMicro('0.0000005')).toBe(1);
    expect(parseDecimalMicro('-1.2')).toBe(-1_200_000);
    expect(parseDecimalMicro('.5')).toBe(500_000);
    for (const text of ['1e3', '1234567890', '1.2.3', '', '.', '1,5'])
      expect(parseDecimalMicro(text), text).toBeUndefined();
  });

  it('reads JSON numbers as their decimal text', () => {
    expect(kwhToMicro(0.1615)).toBe(161_500);
    expect(kwhToMicro(1e-7)).toBe(0);
    expect(kwhToMicro(5e-7)).toBe(1);
    expect(kwhToMicro(Number.NaN)).toBeNaN();
  });
});

describe('registerAdvanceMicro', () => {
  // A 6-digit register wraps at 1,000,000 kWh = 10^12 millionths; half the range is 5 × 10^11.
  it('counts a rise, a rollover (a fall of more than half the range) and nothing for a smaller fall', () => {
    expect(registerAdvanceMicro(100_000_000_000, 100_005_000_000, 6)).toBe(5_000_000); // +5 kWh
    expect(registerAdvanceMicro(7, 7, 6)).toBe(0);
    // 999,998 kWh → 3 kWh: 2 kWh to the wrap, 3 after it, 5 kWh.
    expect(registerAdvanceMicro(999_998_000_000, 3_000_000, 6)).toBe(5_000_000);
    // 100,000 → 99,995 kWh: a fall of 5 kWh is a fault, not 999,995 kWh.
    expect(registerAdvanceMicro(100_000_000_000, 99_995_000_000, 6)).toBeNull();
    // A fall of exactly half the range is still a decrease; one millionth more is a rollover:
    // 10^12 − (5 × 10^11 + 1) = 499,999,999,999.
    expect(registerAdvanceMicro(500_000_000_000, 0, 6)).toBeNull();
    expect(registerAdvanceMicro(500_000_000_001, 0, 6)).toBe(499_999_999_999);
  });
});
