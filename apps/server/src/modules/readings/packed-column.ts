// How one column of a packed month (reading_chunks) is stored: a tag byte, then either the values
// as little-endian float64 (RAW), or (DELTAS) their count, the first value and the steps between
// neighbours divided by the steps' greatest common divisor, as variable-length integers, a run of
// equal steps written once with its length. Timestamps 15 minutes apart, a register counting in
// watt-hours and a quality that rarely changes take a few bytes per reading instead of eight:
// a month of 15-minute registers fits in one 8 kB page, so a cold year reads twelve pages.
// Any column packs (RAW when a value is not a safe integer); unpacking gives back the same numbers.

const RAW = 0;
const DELTAS = 1;
/** Values up to this size keep every step's token (zigzag, then a run bit) below 2^53, where doubles stay exact. */
const LARGEST_VALUE = 2 ** 49;

/** Bytes of a non-negative safe integer, 7 bits at a time, least significant first. */
function writeVarint(out: Uint8Array, at: number, value: number): number {
  let pos = at;
  let rest = value;
  while (rest >= 128) {
    out[pos++] = (rest % 128) | 128;
    rest = Math.floor(rest / 128);
  }
  out[pos++] = rest;
  return pos;
}

const zigzag = (value: number) => (value >= 0 ? 2 * value : -2 * value - 1);
const unzigzag = (value: number) => (value % 2 === 0 ? value / 2 : -(value + 1) / 2);

function gcd(a: number, b: number): number {
  let x = a;
  let y = b;
  while (y !== 0) [x, y] = [y, x % y];
  return x;
}

/** The divisor of every step, or undefined when the column cannot be stored as DELTAS. */
function commonStep(values: ArrayLike<number>): number | undefined {
  let divisor = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i] ?? Number.NaN;
    if (!Number.isSafeInteger(value) || Object.is(value, -0) || Math.abs(value) > LARGEST_VALUE)
      return undefined;
    if (i > 0) divisor = gcd(divisor, Math.abs(value - (values[i - 1] ?? 0)));
  }
  return divisor === 0 ? 1 : divisor;
}

/** One column's bytes. */
export function packColumn(values: ArrayLike<number>): Uint8Array {
  const n = values.length;
  const divisor = commonStep(values);
  if (divisor === undefined) {
    const out = new Uint8Array(1 + 8 * n);
    out[0] = RAW;
    const view = new DataView(out.buffer);
    for (let i = 0; i < n; i++) view.setFloat64(1 + 8 * i, values[i] ?? 0, true);
    return out;
  }
  // Worst case per value: a step token and a run length of 8 bytes each.
  const out = new Uint8Array(32 + 16 * n);
  out[0] = DELTAS;
  let pos = writeVarint(out, 1, n);
  if (n === 0) return out.slice(0, pos);
  pos = writeVarint(out, pos, zigzag(values[0] ?? 0));
  pos = writeVarint(out, pos, divisor);
  for (let i = 1; i < n;) {
    const step = ((values[i] ?? 0) - (values[i - 1] ?? 0)) / divisor;
    let run = 1;
    while (i + run < n && (values[i + run] ?? 0) - (values[i + run - 1] ?? 0) === step * divisor) run++;
    pos = writeVarint(out, pos, zigzag(step) * 2 + (run > 1 ? 1 : 0));
    if (run > 1) pos = writeVarint(out, pos, run);
    i += run;
  }
  return out.slice(0, pos);
}

/** A column's values into a new array made by `make` (Float64Array for numbers, Uint8Array for codes). */
export function unpackColumn<T extends Float64Array | Uint8Array>(
  bytes: Uint8Array,
  make: (n: number) => T,
): T {
  let pos = 1;
  const varint = () => {
    let value = 0;
    let scale = 1;
    let byte: number;
    do {
      byte = bytes[pos++] ?? 0;
      value += (byte & 127) * scale;
      scale *= 128;
    } while (byte >= 128);
    return value;
  };
  if (bytes[0] === RAW) {
    const n = (bytes.byteLength - 1) / 8;
    const out = make(n);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < n; i++) out[i] = view.getFloat64(1 + 8 * i, true);
    return out;
  }
  if (bytes[0] !== DELTAS) throw new Error(`unknown packed column tag ${String(bytes[0])}`);
  const n = varint();
  const out = make(n);
  if (n === 0) return out;
  let value = unzigzag(varint());
  const divisor = varint();
  out[0] = value;
  for (let i = 1; i < n;) {
    const token = varint();
    const step = unzigzag(Math.floor(token / 2)) * divisor;
    const run = token % 2 === 1 ? varint() : 1;
    for (let end = i + run; i < end; i++) {
      value += step;
      out[i] = value;
    }
  }
  return out;
}
