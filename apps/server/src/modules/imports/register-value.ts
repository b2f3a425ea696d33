// Register values travel as kWh (decimal) and are stored as integer thousandths (Wh for a kWh
// meter), so sums are exact. Every conversion goes through here, rounding half away from zero.

/** kWh as a JS number → thousandths; NaN when it is not a finite number. */
export function kwhToMilli(kwh: number): number {
  if (!Number.isFinite(kwh)) return Number.NaN;
  // Through the decimal text, so that 0.1615 (stored as 0.16149999…) still rounds to 162.
  // JSON numbers below 1e-6 print as 1e-7: toFixed writes them out (within ±1e21, where it is exact enough).
  return (
    parseDecimalMilli(Math.abs(kwh) < 1e21 && /e/i.test(String(kwh)) ? kwh.toFixed(6) : String(kwh)) ??
    Number.NaN
  );
}

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d*))?$|^([+-]?)\.(\d+)$/;

/**
 * A decimal string in kWh → integer thousandths, exactly (no floating point): "0.1615" → 162,
 * "-1.2" → -1200, "1e3" → undefined. Leading/trailing spaces are ignored. Undefined when the
 * text is not a plain decimal number or too large to be exact.
 */
export function parseDecimalMilli(text: string): number | undefined {
  const fast = parsePlainDecimalMilli(text);
  if (fast !== undefined) return fast;
  const match = DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const sign = (match[1] ?? match[4]) === '-' ? -1 : 1;
  const whole = match[2] ?? '0';
  const fraction = match[3] ?? match[5] ?? '';
  if (whole.length > 13) return undefined;
  const firstThree = Number((fraction + '000').slice(0, 3));
  const roundUp = (fraction[3] ?? '0') >= '5' ? 1 : 0;
  const milli = Number(whole) * 1000 + firstThree + roundUp;
  return milli === 0 ? 0 : sign * milli;
}

/**
 * The common shape (digits, optionally a point and digits; no sign, no spaces) read without a
 * regex, once per line of a file: undefined for anything else, which the general reader handles.
 * Gives exactly what the general reader gives for the text it accepts.
 */
function parsePlainDecimalMilli(text: string): number | undefined {
  const length = text.length;
  let whole = 0;
  let i = 0;
  for (; i < length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) break;
    whole = whole * 10 + d;
  }
  // Up to 13 whole digits, as in the general reader (larger values are not exact).
  if (i === 0 || i > 13) return undefined;
  let firstThree = 0;
  let roundUp = 0;
  if (i < length) {
    if (text.charCodeAt(i) !== 46 /* . */) return undefined;
    for (let k = i + 1; k < length; k++) {
      const d = text.charCodeAt(k) - 48;
      if (d < 0 || d > 9) return undefined;
      const place = k - i; // 1 = tenths
      if (place <= 3) firstThree += d * (place === 1 ? 100 : place === 2 ? 10 : 1);
      // Half away from zero, decided by the fourth decimal alone.
      else if (place === 4 && d >= 5) roundUp = 1;
    }
  }
  // Summed in the general reader's order, so that large values round the same way.
  return whole * 1000 + firstThree + roundUp;
}

/** The register wraps to zero at this many thousandths. */
export const registerRangeMilli = (registerDigits: number) => 10 ** registerDigits * 1000;

/**
 * True when going from `previous` to `next` (both in thousandths) is a decrease that cannot be a
 * rollover. As in the consumption engine, only a drop of more than half the register range reads
 * as the register wrapping past its last digit.
 */
export function isImplausibleDecrease(previous: number, next: number, registerDigits: number): boolean {
  return next < previous && previous - next <= registerRangeMilli(registerDigits) / 2;
}
