/**
 * JSON text as bytes, identical to `JSON.stringify`, for answers that carry long numeric columns
 * (a year of 15-minute readings is five arrays of 35,040 numbers). V8 turns every double into its
 * shortest decimal form one by one and an array of numbers with nulls holds each number as an
 * object of its own, which together cost more than computing the answer. Here a column is a typed
 * array wrapped in {@link NumberColumn} or {@link MillionthsColumn}: it is written digit by digit
 * straight into a byte buffer, and `JSON.stringify` of the same value (through `toJSON`) writes the
 * same text. The rest of the answer goes through `JSON.stringify` as usual.
 */
import type { FastifyReply } from 'fastify';

/** Longest text one element can take, comma included: `-2.2250738585072014e-308,` is 25 bytes. */
const MAX_ELEMENT_BYTES = 26;
// Below this many millionths (8·10^9 units, under 2^33, where doubles are less than 10^-6 apart) a
// whole number of millionths divided by 10^6 prints as exactly its digits with the point six places
// in: any other decimal of at most six places is 10^-6 or more away, further than the spacing of
// doubles there, so no shorter text names the same double.
const FAST_MILLIONTHS_LIMIT = 8e15;
const MILLION = 1_000_000;

const MAX_SAFE_INTEGER = Number.MAX_SAFE_INTEGER;
const SMALL_LIMIT = 2 ** 31;
const SMALLEST_INT = -(2 ** 31);
const COMMA = 0x2c;
const MINUS = 0x2d;
const POINT = 0x2e;
const ZERO = 0x30;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Numbers (timestamps in ms, counts, hours) in a typed array; in JSON an array of numbers. */
export class NumberColumn {
  constructor(readonly values: Float64Array) {}

  toJSON(): number[] {
    return Array.from(this.values);
  }
}

/**
 * Quantities held in millionths of their unit (registers and energies in mWh for kWh: integers,
 * so sums are exact), NaN where unknown; in JSON an array of units and nulls.
 */
export class MillionthsColumn {
  constructor(readonly millionths: Float64Array) {}

  toJSON(): (number | null)[] {
    return Array.from(this.millionths, (value) => (Number.isNaN(value) ? null : value / MILLION));
  }
}

/**
 * Sends `value` as JSON written by `jsonBytes` (the route's schema still documents it), or by
 * `JSON.stringify` when `plain` (CM_DEBUG_DISABLE=json-writer): the same text either way.
 */
export function sendJsonBytes(reply: FastifyReply, value: unknown, plain = false): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(plain ? JSON.stringify(value) : jsonBytes(value));
}

/** The JSON text of `value` (an object or array as a route returns it), as UTF-8 bytes. */
export function jsonBytes(value: unknown): Buffer {
  const out = new ChunkedJson();
  out.value(value);
  return out.finish();
}

// Columns are written into one scratch buffer reused by every call (the writer is synchronous),
// so an answer allocates only its final bytes; kept between calls up to this size.
const KEPT_SCRATCH_BYTES = 16 * 1024 * 1024;
let scratch = new Uint8Array(0);

/** Parts of the answer in order: text, or a [start, end) range of the scratch buffer. */
type Part = string | readonly [number, number];

class ChunkedJson {
  private readonly parts: Part[] = [];
  private text = '';
  private scratchUsed = 0;

  finish(): Buffer {
    this.flushText();
    let length = 0;
    for (const part of this.parts)
      length += typeof part === 'string' ? Buffer.byteLength(part, 'utf8') : part[1] - part[0];
    const out = Buffer.allocUnsafe(length);
    let at = 0;
    for (const part of this.parts) {
      if (typeof part === 'string') at += out.write(part, at, 'utf8');
      else {
        out.set(scratch.subarray(part[0], part[1]), at);
        at += part[1] - part[0];
      }
    }
    if (scratch.length > KEPT_SCRATCH_BYTES) scratch = new Uint8Array(0);
    return out;
  }

  value(value: unknown): void {
    if (value instanceof NumberColumn) this.column(value.values, false);
    else if (value instanceof MillionthsColumn) this.column(value.millionths, true);
    else if (Array.isArray(value)) this.array(value);
    else if (isPlainRecord(value)) this.record(value);
    // Strings, numbers, booleans, null, and objects with their own toJSON (dates).
    else this.text += JSON.stringify(value) ?? 'null';
  }

  private array(items: unknown[]): void {
    this.text += '[';
    for (let i = 0; i < items.length; i += 1) {
      if (i > 0) this.text += ',';
      const item = items[i];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') this.text += 'null';
      else this.value(item);
    }
    this.text += ']';
  }

  private record(record: Record<string, unknown>): void {
    this.text += '{';
    let first = true;
    for (const key of Object.keys(record)) {
      const item = record[key];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      this.text += `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      this.value(item);
    }
    this.text += '}';
  }

  /** Writes a typed column as a JSON array into the scratch buffer. */
  private column(values: Float64Array, isMillionths: boolean): void {
    const start = this.scratchUsed;
    const bytes = scratchWithRoom(start, values.length * MAX_ELEMENT_BYTES + 2);
    bytes[start] = OPEN_BRACKET;
    const last = writeColumnText(bytes, start + 1, values, isMillionths);
    bytes[last] = CLOSE_BRACKET;
    const at = last + 1;
    this.flushText();
    this.parts.push([start, at]);
    this.scratchUsed = at;
  }

  private flushText(): void {
    if (this.text.length === 0) return;
    this.parts.push(this.text);
    this.text = '';
  }
}

/**
 * A typed column's elements as JSON at `start`, without the brackets; where they end. A function of
 * its own that returns right after its loop: a long loop compiled while it runs (on-stack
 * replacement) would give up, on every later call, at the first step after it not yet run then.
 */
function writeColumnText(
  bytes: Uint8Array,
  start: number,
  values: Float64Array,
  isMillionths: boolean,
): number {
  let at = start;
  const count = values.length;
  // Runs of zeros (most flag columns: missing, estimated …) and of unknowns (an interval meter's
  // registers) are copied in as text; each writer is called directly (not through a variable),
  // so both are inlined.
  for (let i = 0; i < count;) {
    const value = values[i] ?? Number.NaN;
    if (value === 0) {
      const end = zerosUntil(values, i);
      at = writeRun(bytes, at, i > 0, end - i, ZERO_LIST, 2);
      i = end;
      continue;
    }
    if (Number.isNaN(value)) {
      const end = nansUntil(values, i);
      at = writeRun(bytes, at, i > 0, end - i, NULL_LIST, 5);
      i = end;
      continue;
    }
    if (i > 0) bytes[at++] = COMMA;
    at = isMillionths
      ? value > -MILLION && value < MILLION && (value | 0) === value
        ? writeFractionOfUnit(bytes, at, value | 0)
        : writeMillionthsAsUnits(bytes, at, value)
      : writeNumber(bytes, at, value);
    i += 1;
  }
  return at;
}

/** The scratch buffer with at least `room` bytes free after `used` (grown, keeping what is written). */
function scratchWithRoom(used: number, room: number): Uint8Array {
  if (scratch.length - used >= room) return scratch;
  const grown = new Uint8Array(Math.max(2 * scratch.length, used + room));
  grown.set(scratch.subarray(0, used));
  scratch = grown;
  return scratch;
}

/** The end of the run of zeros (±0) starting at `start`. */
function zerosUntil(values: Float64Array, start: number): number {
  let end = start + 1;
  while (end < values.length && values[end] === 0) end += 1;
  return end;
}

/** The end of the run of NaNs starting at `start`. */
function nansUntil(values: Float64Array, start: number): number {
  let end = start + 1;
  while (end < values.length && Number.isNaN(values[end])) end += 1;
  return end;
}

/** `,0` and `,null` repeated: runs are copied from here, a block at a time. */
const ZERO_LIST = Uint8Array.from({ length: 8_192 }, (_, i) => (i % 2 === 0 ? COMMA : ZERO));
const NULL_LIST = Uint8Array.from({ length: 8_190 }, (_, i) => ',null'.charCodeAt(i % 5));

/**
 * Writes `count` elements of a list from `pattern` (each `width` bytes, comma first), with the
 * comma before the first one when `afterOthers`.
 */
function writeRun(
  bytes: Uint8Array,
  start: number,
  afterOthers: boolean,
  count: number,
  pattern: Uint8Array,
  width: number,
): number {
  let at = start;
  let from = afterOthers ? 0 : 1;
  let left = width * count - from;
  const blockLength = pattern.length - (pattern.length % width);
  while (left > 0) {
    const block = Math.min(left, blockLength - from);
    bytes.set(pattern.subarray(from, from + block), at);
    at += block;
    left -= block;
    from = 0;
  }
  return at;
}

/** A number as JSON writes it (non-finite: null). */
function writeNumber(bytes: Uint8Array, at: number, value: number): number {
  if (!Number.isFinite(value)) return writeAscii(bytes, at, 'null');
  const magnitude = value < 0 ? -value : value;
  if (!Number.isInteger(magnitude) || magnitude > MAX_SAFE_INTEGER)
    return writeAscii(bytes, at, String(value));
  if (value < 0) bytes[at++] = MINUS;
  return writeWhole(bytes, at, magnitude);
}

/**
 * 0 < |millionths| < 10^6 (a quarter hour's energy, cost or emissions): `0.` and the fraction,
 * as writeMillionthsAsUnits would, without its checks and division; called from the column's loop
 * so that it is inlined there.
 */
function writeFractionOfUnit(bytes: Uint8Array, start: number, millionths: number): number {
  let at = start;
  if (millionths < 0) bytes[at++] = MINUS;
  bytes[at] = ZERO;
  return writeFraction(bytes, at + 1, millionths < 0 ? -millionths : millionths);
}

/** Millionths as the units JSON writes for `millionths / 10^6` (NaN and infinities: null). */
function writeMillionthsAsUnits(bytes: Uint8Array, at: number, millionths: number): number {
  // Most quantities are below 2³¹ millionths (2,147 units) either side of zero (a credit, a price
  // below zero): small-integer arithmetic.
  const small = millionths | 0;
  if (small === millionths && small !== 0 && small !== SMALLEST_INT) {
    if (small < 0) bytes[at++] = MINUS;
    const magnitude = small < 0 ? -small : small;
    const whole = (magnitude / MILLION) | 0;
    const fraction = (magnitude - whole * MILLION) | 0;
    const end = whole < 10 ? ((bytes[at] = ZERO + whole), at + 1) : writeSmall(bytes, at, whole);
    return fraction === 0 ? end : writeFraction(bytes, end, fraction);
  }
  if (!Number.isFinite(millionths)) return writeAscii(bytes, at, 'null');
  const magnitude = millionths < 0 ? -millionths : millionths;
  // Fractions of a millionth and huge values: V8's own shortest text.
  if (!Number.isInteger(magnitude) || magnitude >= FAST_MILLIONTHS_LIMIT)
    return writeAscii(bytes, at, String(millionths / MILLION));
  if (millionths < 0 && magnitude !== 0) bytes[at++] = MINUS;
  const whole = Math.floor(magnitude / MILLION);
  const fraction = (magnitude - whole * MILLION) | 0;
  at = writeWhole(bytes, at, whole);
  return fraction === 0 ? at : writeFraction(bytes, at, fraction);
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function writeAscii(bytes: Uint8Array, start: number, text: string): number {
  let at = start;
  for (let i = 0; i < text.length; i += 1) bytes[at++] = text.charCodeAt(i);
  return at;
}

function digitCount(n: number): number {
  if (n < 10_000) return n < 10 ? 1 : n < 100 ? 2 : n < 1_000 ? 3 : 4;
  if (n < 100_000_000) return n < 100_000 ? 5 : n < 1_000_000 ? 6 : n < 10_000_000 ? 7 : 8;
  return n < 1_000_000_000 ? 9 : 10;
}

// "00" … "99" as ASCII: numbers are written two digits at a time, from the last.
const DIGIT_PAIRS = Uint8Array.from(
  { length: 200 },
  (_, i) => ZERO + (i % 2 === 0 ? (i / 20) | 0 : (i >> 1) % 10),
);

/** Writes the last `width` digits of 0 ≤ n < 2³¹, leading zeros included, to end at `end`. */
function writeDigitsBackwards(bytes: Uint8Array, end: number, value: number, width: number): void {
  let n = value | 0;
  let at = end;
  for (let left = width; left >= 2; left -= 2) {
    const next = (n / 100) | 0;
    const pair = (n - next * 100) << 1;
    bytes[--at] = DIGIT_PAIRS[pair + 1] ?? ZERO;
    bytes[--at] = DIGIT_PAIRS[pair] ?? ZERO;
    n = next;
  }
  if (width % 2 === 1) bytes[at - 1] = ZERO + n;
}

/** Writes 0 ≤ n < 2³¹ with small-integer arithmetic. */
function writeSmall(bytes: Uint8Array, start: number, small: number): number {
  const end = start + digitCount(small);
  writeDigitsBackwards(bytes, end, small, end - start);
  return end;
}

/** Writes 0 ≤ n < 10^width with leading zeros. */
function writePadded(bytes: Uint8Array, start: number, value: number, width: number): number {
  writeDigitsBackwards(bytes, start + width, value, width);
  return start + width;
}

// The digits above the last eight of the previous large number written: epoch milliseconds in a
// column share them for 10^8 ms (a day and more), so they are copied rather than computed again.
let lastHigh = -1;
const lastHighDigits = new Uint8Array(16);
let lastHighLength = 0;

/** Writes a safe non-negative integer (epoch milliseconds are above 2³¹: written as two halves). */
function writeWhole(bytes: Uint8Array, start: number, whole: number): number {
  if (whole < SMALL_LIMIT) return writeSmall(bytes, start, whole);
  const high = Math.floor(whole / 1e8);
  let at = start;
  if (high === lastHigh) {
    for (let i = 0; i < lastHighLength; i += 1) bytes[at++] = lastHighDigits[i] ?? ZERO;
  } else {
    at = writeWhole(bytes, start, high);
    lastHigh = high;
    lastHighLength = at - start;
    for (let i = 0; i < lastHighLength; i += 1) lastHighDigits[i] = bytes[start + i] ?? ZERO;
  }
  return writePadded(bytes, at, whole - high * 1e8, 8);
}

/** Writes `.` and 1 ≤ fraction ≤ 999,999 millionths with trailing zeros dropped: 670,000 → .67. */
function writeFraction(bytes: Uint8Array, start: number, millionths: number): number {
  // Three pairs of digits, each written only while digits other than zero follow.
  const high = (millionths / 10_000) | 0;
  const rest = millionths - high * 10_000;
  const middle = (rest / 100) | 0;
  const low = rest - middle * 100;
  let at = start;
  bytes[at++] = POINT;
  at = writePair(bytes, at, high, middle === 0 && low === 0);
  if (middle === 0 && low === 0) return at;
  at = writePair(bytes, at, middle, low === 0);
  if (low === 0) return at;
  return writePair(bytes, at, low, true);
}

/** Writes two digits 00–99; the second not when it is the last one written and a zero. */
function writePair(bytes: Uint8Array, at: number, pair: number, isLast: boolean): number {
  bytes[at] = DIGIT_PAIRS[pair << 1] ?? ZERO;
  const second = DIGIT_PAIRS[(pair << 1) + 1] ?? ZERO;
  if (isLast && second === ZERO) return at + 1;
  bytes[at + 1] = second;
  return at + 2;
}
