// Energies and register values travel as kWh (decimal text or JSON numbers) and are stored as
// integer millionths (mWh for a kWh meter), so sums are exact at every resolution a source gives
// (ESB 0.1 Wh, ESPI mWh). Every conversion goes through here, rounding half away from zero.

/** Decimal places kept: millionths of the unit. */
const PLACES = 6;
const SCALE = 10 ** PLACES;
/** Whole units that stay exact as millionths in a double (below 2^53). */
const MAX_WHOLE_DIGITS = 9;

/** kWh as a JS number → millionths; NaN when it is not a finite number. */
export function kwhToMicro(kwh: number): number {
  if (!Number.isFinite(kwh)) return Number.NaN;
  // Through the decimal text, so that 0.1615 (stored as 0.16149999…) is read as written.
  // Numbers below 1e-6 print as 1e-7: toFixed writes them out (within ±1e21, where it is exact enough).
  return (
    parseDecimalMicro(
      Math.abs(kwh) < 1e21 && /e/i.test(String(kwh)) ? kwh.toFixed(PLACES + 1) : String(kwh),
    ) ?? Number.NaN
  );
}

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d*))?$|^([+-]?)\.(\d+)$/;

/**
 * A decimal string in kWh → integer millionths, exactly (no floating point): "12.2271" →
 * 12,227,100, "-1.2" → -1,200,000, "0.0000005" → 1 (half away from zero), "1e3" → undefined.
 * Leading/trailing spaces are ignored. Undefined when the text is not a plain decimal number or
 * too large to be exact.
 */
export function parseDecimalMicro(text: string): number | undefined {
  const fast = parsePlainDecimalMicro(text);
  if (fast !== undefined) return fast;
  const match = DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const sign = (match[1] ?? match[4]) === '-' ? -1 : 1;
  const whole = (match[2] ?? '0').replace(/^0+(?=\d)/, '');
  const fraction = match[3] ?? match[5] ?? '';
  if (whole.length > MAX_WHOLE_DIGITS) return undefined;
  const kept = Number((fraction + '0'.repeat(PLACES)).slice(0, PLACES));
  const roundUp = (fraction[PLACES] ?? '0') >= '5' ? 1 : 0;
  const micro = Number(whole) * SCALE + kept + roundUp;
  return micro === 0 ? 0 : sign * micro;
}

/**
 * The common shape (digits, optionally a point and digits; no sign, no spaces) read without a
 * regex, once per line of a file: undefined for anything else, which the general reader handles.
 * Gives exactly what the general reader gives for the text it accepts.
 */
function parsePlainDecimalMicro(text: string): number | undefined {
  const length = text.length;
  let whole = 0;
  let i = 0;
  let significant = 0;
  for (; i < length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) break;
    if (whole > 0 || d > 0) significant++;
    whole = whole * 10 + d;
  }
  if (i === 0 || significant > MAX_WHOLE_DIGITS) return undefined;
  let kept = 0;
  let roundUp = 0;
  if (i < length) {
    if (text.charCodeAt(i) !== 46 /* . */) return undefined;
    let place = SCALE;
    for (let k = i + 1; k < length; k++) {
      const d = text.charCodeAt(k) - 48;
      if (d < 0 || d > 9) return undefined;
      if (k - i <= PLACES) kept += d * (place /= 10);
      // Half away from zero, decided by the seventh decimal alone.
      else if (k - i === PLACES + 1 && d >= 5) roundUp = 1;
    }
  }
  return whole * SCALE + kept + roundUp;
}

/** The register wraps to zero at this many millionths. */
export const registerRangeMicro = (registerDigits: number) => 10 ** registerDigits * SCALE;

/**
 * True when going from `previous` to `next` (both in millionths) is a decrease that cannot be a
 * rollover. As in the readings engine, only a drop of more than half the register range reads as
 * the register wrapping past its last digit.
 */
export function isImplausibleDecrease(previous: number, next: number, registerDigits: number): boolean {
  return next < previous && previous - next <= registerRangeMicro(registerDigits) / 2;
}

/**
 * What a register counted from `previous` to `next` (millionths, before the multiplier): the
 * difference, across a rollover when it fell by more than half its range; null when it fell less,
 * an implausible decrease whose energy the readings engine leaves unknown.
 */
export function registerAdvanceMicro(previous: number, next: number, registerDigits: number): number | null {
  if (next >= previous) return next - previous;
  if (isImplausibleDecrease(previous, next, registerDigits)) return null;
  return next - previous + registerRangeMicro(registerDigits);
}

/** Millionths as kWh for a message: "12.2271". */
export const microToKwhText = (micro: number): string => String(micro / SCALE);
