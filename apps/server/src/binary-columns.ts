/**
 * Writes an answer with typed columns (json-columns.ts) in the binary form the contracts define
 * (`@cm/contracts/binary-columns.ts`: the layout, and the reader): the answer's small parts as a
 * JSON header, each long column as deltas of whole units in varints, which decodes to exactly the
 * JSON answer's value in a fraction of its bytes and of the time to write it.
 */
import type { FastifyReply } from 'fastify';
import {
  BINARY_COLUMNS_MAGIC,
  BINARY_COLUMNS_TYPE,
  BINARY_COLUMNS_VERSION,
  COLUMN_KEY,
  ColumnKind,
  HAS_NULLS,
  headerKey,
  setOwn,
} from '@cm/contracts/binary-columns.ts';
import { MillionthsColumn, NumberColumn } from './json-columns.ts';

const MAX_WHOLE = Math.floor(Number.MAX_SAFE_INTEGER / 4);

/** True when the request's Accept header names the binary form. */
export function acceptsBinaryColumns(accept: string | undefined): boolean {
  return accept !== undefined && accept.toLowerCase().includes(BINARY_COLUMNS_TYPE);
}

/** Sends `value` in the binary form (see the contracts' binary-columns.ts). */
export function sendBinaryColumns(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.type(BINARY_COLUMNS_TYPE).send(binaryColumns(value));
}

/** The binary form of `value`: its header with the columns' places, then the columns. */
export function binaryColumns(value: unknown): Buffer {
  const columns: { values: Float64Array; isMillionths: boolean }[] = [];
  const headerOf = (item: unknown): unknown => {
    if (item instanceof NumberColumn || item instanceof MillionthsColumn) {
      const isMillionths = item instanceof MillionthsColumn;
      columns.push({ values: isMillionths ? item.millionths : item.values, isMillionths });
      return { [COLUMN_KEY]: columns.length - 1 };
    }
    if (Array.isArray(item)) return item.map(headerOf);
    if (
      item === null ||
      typeof item !== 'object' ||
      typeof (item as { toJSON?: unknown }).toJSON === 'function'
    )
      return item;
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(item)) setOwn(out, headerKey(key), headerOf(field));
    return out;
  };
  const header = Buffer.from(JSON.stringify(headerOf(value)), 'utf8');
  const out = new ByteWriter(
    8 + header.length + columns.reduce((sum, c) => sum + c.values.length * 2 + 16, 0),
  );
  for (const byte of BINARY_COLUMNS_MAGIC) out.byte(byte);
  out.byte(BINARY_COLUMNS_VERSION);
  out.uint32(header.length);
  out.bytes(header);
  for (const column of columns) writeColumn(out, column.values, column.isMillionths);
  return out.finish();
}

function writeColumn(out: ByteWriter, values: Float64Array, isMillionths: boolean): void {
  const count = values.length;
  let hasNulls = false;
  // Whole numbers whose differences' zigzag codes stay exact (below 2^53); anything else as doubles.
  let allIntegers = true;
  for (let i = 0; i < count; i += 1) {
    const value = values[i] ?? Number.NaN;
    if (!Number.isFinite(value)) hasNulls = true;
    else if (!Number.isInteger(value) || Math.abs(value) > MAX_WHOLE) allIntegers = false;
  }
  out.byte(allIntegers ? (isMillionths ? ColumnKind.Millionths : ColumnKind.Integers) : ColumnKind.Doubles);
  out.varint(count);
  out.byte(hasNulls ? HAS_NULLS : 0);
  if (hasNulls) {
    const bitmap = new Uint8Array(Math.ceil(count / 8));
    for (let i = 0; i < count; i += 1)
      if (Number.isFinite(values[i] ?? Number.NaN)) bitmap[i >> 3]! |= 1 << (i & 7);
    out.bytes(bitmap);
  }
  if (!allIntegers) {
    for (let i = 0; i < count; i += 1) {
      const value = values[i] ?? Number.NaN;
      if (!Number.isFinite(value)) continue;
      const units = isMillionths ? value / 1_000_000 : value;
      // JSON has no −0: it writes and reads 0 (a tiny negative number of millionths becomes −0).
      out.double(units === 0 ? 0 : units);
    }
    return;
  }
  const exponent = commonPowerOfTen(values);
  const unit = 10 ** exponent;
  out.byte(exponent);
  let previous = 0;
  for (let i = 0; i < count; i += 1) {
    const value = values[i] ?? Number.NaN;
    if (!Number.isFinite(value)) continue;
    const whole = value / unit;
    const delta = whole - previous;
    previous = whole;
    out.varint(delta >= 0 ? delta * 2 : -delta * 2 - 1);
  }
}

/** The largest e ≤ 15 such that every finite value is a whole multiple of 10^e (0 when all are 0). */
function commonPowerOfTen(values: Float64Array): number {
  let exponent = 15;
  for (let i = 0; i < values.length && exponent > 0; i += 1) {
    const value = values[i] ?? Number.NaN;
    if (!Number.isFinite(value) || value === 0) continue;
    while (exponent > 0 && value % 10 ** exponent !== 0) exponent -= 1;
  }
  return values.some((value) => Number.isFinite(value) && value !== 0) ? exponent : 0;
}

/** Bytes appended to a buffer that grows as needed. */
class ByteWriter {
  private buffer: Buffer;
  private at = 0;

  constructor(size: number) {
    this.buffer = Buffer.allocUnsafe(Math.max(64, size));
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.buffer.length, this.at + bytes));
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
  }

  byte(value: number): void {
    this.room(1);
    this.buffer[this.at++] = value;
  }

  uint32(value: number): void {
    this.room(4);
    this.buffer.writeUInt32LE(value, this.at);
    this.at += 4;
  }

  double(value: number): void {
    this.room(8);
    this.buffer.writeDoubleLE(value, this.at);
    this.at += 8;
  }

  bytes(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buffer.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** An unsigned whole number below 2^53 as LEB128. */
  varint(value: number): void {
    this.room(8);
    let rest = value;
    while (rest >= 0x80) {
      this.buffer[this.at++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.buffer[this.at++] = rest;
  }

  finish(): Buffer {
    return this.buffer.subarray(0, this.at);
  }
}
