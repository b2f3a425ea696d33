/**
 * The readings answer in a compact binary form (issue 38), chosen by `Accept: BINARY_COLUMNS_TYPE`;
 * JSON stays the contract for integrators, and this form decodes to exactly the JSON's value.
 *
 * Layout, all integers little-endian:
 *
 * | bytes      | what                                                                          |
 * |------------|-------------------------------------------------------------------------------|
 * | 0–2        | `CMC` (ASCII)                                                                 |
 * | 3          | version, 1                                                                    |
 * | 4–7        | uint32: length H of the header                                                |
 * | 8…8+H      | header: the answer as UTF-8 JSON, each long numeric column replaced by `{"$col": k}` |
 * | then       | columns 0, 1, … in order, each as below                                       |
 *
 * A column: kind (1 byte), count n (varint), flags (1 byte: bit 0 = holds nulls), then when it
 * holds nulls a presence bitmap of ⌈n/8⌉ bytes (bit i%8 of byte ⌊i/8⌋ set where value i is a
 * number), then its numbers (the present ones, in order):
 * - kind 1, integers: a scale e (1 byte) and each value as the zigzag varint of its difference
 *   from the value before (the first from 0) in units of 10^e; the value is that integer × 10^e.
 * - kind 2, millionths: as kind 1, and the value is that integer ÷ 10^6 (energies and registers
 *   in kWh held as whole mWh: exact, the JSON's digits).
 * - kind 3, doubles: each value as 8 bytes (IEEE 754).
 *
 * In the header, a key of the answer that begins with `$` carries one more `$` (`$col` → `$$col`),
 * so no object of the answer reads as a column's place; the reader takes that `$` off again.
 *
 * A varint is LEB128 (7 bits a byte, low first, high bit set on all but the last); zigzag maps
 * 0, −1, 1, −2 … to 0, 1, 2, 3 …. Values up to 2^53 are exact.
 */

/** The media type of the binary form. */
export const BINARY_COLUMNS_TYPE = 'application/vnd.checkmeter.columns';
export const BINARY_COLUMNS_MAGIC = [0x43, 0x4d, 0x43] as const;
export const BINARY_COLUMNS_VERSION = 1;
/** The header's placeholder for column k: `{ [COLUMN_KEY]: k }`. */
export const COLUMN_KEY = '$col';

export const ColumnKind = { Integers: 1, Millionths: 2, Doubles: 3 } as const;
export const HAS_NULLS = 1;
const MILLION = 1_000_000;

/** The header's name for a key of the answer (see the layout: keys beginning with `$` get one more). */
export function headerKey(key: string): string {
  return key.startsWith('$') ? `$${key}` : key;
}

/** Sets `key` as `record`'s own property, even when the key is `__proto__`. */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Why a body is not the binary form this version reads. */
export class BinaryColumnsError extends Error {}

class Reader {
  at = 0;
  constructor(readonly bytes: Uint8Array) {}

  byte(): number {
    const value = this.bytes[this.at];
    if (value === undefined) throw new BinaryColumnsError('The answer ends in the middle of a column.');
    this.at += 1;
    return value;
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.byte();
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
      if (scale > 2 ** 56) throw new BinaryColumnsError('A number of the answer is too long.');
    }
  }
}

function readColumn(reader: Reader): (number | null)[] {
  const kind = reader.byte();
  const count = reader.varint();
  const flags = reader.byte();
  let present: Uint8Array | null = null;
  if (flags & HAS_NULLS) {
    const length = Math.ceil(count / 8);
    present = reader.bytes.subarray(reader.at, reader.at + length);
    if (present.length < length) throw new BinaryColumnsError('The answer ends in a column’s bitmap.');
    reader.at += length;
  }
  const out = new Array<number | null>(count);
  if (kind === ColumnKind.Doubles) {
    const view = new DataView(reader.bytes.buffer, reader.bytes.byteOffset, reader.bytes.byteLength);
    for (let i = 0; i < count; i += 1) {
      if (present && !((present[i >> 3] ?? 0) & (1 << (i & 7)))) out[i] = null;
      else {
        if (reader.at + 8 > reader.bytes.length) throw new BinaryColumnsError('The answer ends in a column.');
        out[i] = view.getFloat64(reader.at, true);
        reader.at += 8;
      }
    }
    return out;
  }
  if (kind !== ColumnKind.Integers && kind !== ColumnKind.Millionths)
    throw new BinaryColumnsError(`Unknown column kind ${kind}.`);
  const unit = 10 ** reader.byte();
  let previous = 0;
  for (let i = 0; i < count; i += 1) {
    if (present && !((present[i >> 3] ?? 0) & (1 << (i & 7)))) {
      out[i] = null;
      continue;
    }
    const zigzag = reader.varint();
    previous += zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2;
    const whole = previous * unit;
    out[i] = kind === ColumnKind.Millionths ? whole / MILLION : whole;
  }
  return out;
}

/** The value a binary answer holds: the same as `JSON.parse` of the JSON answer. */
export function decodeBinaryColumns(buffer: ArrayBuffer | Uint8Array): unknown {
  const bytes = buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer);
  if (
    bytes.length < 8 ||
    bytes[0] !== BINARY_COLUMNS_MAGIC[0] ||
    bytes[1] !== BINARY_COLUMNS_MAGIC[1] ||
    bytes[2] !== BINARY_COLUMNS_MAGIC[2]
  )
    throw new BinaryColumnsError('Not a Check Meter binary answer.');
  if (bytes[3] !== BINARY_COLUMNS_VERSION)
    throw new BinaryColumnsError(
      `Binary answer version ${bytes[3]}; this reads version ${BINARY_COLUMNS_VERSION}.`,
    );
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
  if (8 + headerLength > bytes.length) throw new BinaryColumnsError('The answer ends in its header.');
  const header: unknown = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  const reader = new Reader(bytes);
  reader.at = 8 + headerLength;
  const columns: (number | null)[][] = [];
  const place = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(place);
    if (value === null || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    const index = record[COLUMN_KEY];
    if (typeof index === 'number' && Object.keys(record).length === 1) {
      while (columns.length <= index) columns.push(readColumn(reader));
      const column = columns[index];
      if (!column) throw new BinaryColumnsError(`Column ${index} is missing.`);
      return column;
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(record))
      setOwn(out, key.startsWith('$') ? key.slice(1) : key, place(record[key]));
    return out;
  };
  const value = place(header);
  if (reader.at !== bytes.length) throw new BinaryColumnsError('The answer has bytes after its last column.');
  return value;
}
