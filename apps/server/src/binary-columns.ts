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
  // Room for the worst case, so nothing is copied as it grows: a column of n values takes at most
  // its kind, count and flags (≤ 11 bytes), its bitmap (n/8), its exponent and n varints or doubles.
  let size = 9 + header.length;
  for (const column of columns) size += 16 + Math.ceil(column.values.length / 8) + 9 * column.values.length;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const byte of BINARY_COLUMNS_MAGIC) out[at++] = byte;
  out[at++] = BINARY_COLUMNS_VERSION;
  at = out.writeUInt32LE(header.length, at);
  out.set(header, at);
  at += header.length;
  for (const column of columns) at = writeColumn(out, at, column.values, column.isMillionths);
  return out.subarray(0, at);
}

/** What one pass over a column finds: unknowns, whether all are exact wholes, their common 10^e. */
function survey(values: Float64Array): { hasNulls: boolean; allIntegers: boolean; exponent: number } {
  let hasNulls = false;
  // Whole numbers whose differences' zigzag codes stay exact (below 2^53); anything else as doubles.
  let allIntegers = true;
  // The largest e ≤ 15 such that every finite value is a whole multiple of 10^e (0 when all are 0).
  let exponent = 15;
  let unit = 1e15;
  let anyNonZero = false;
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i]!;
    if (!Number.isFinite(value)) {
      hasNulls = true;
      continue;
    }
    if (!Number.isInteger(value) || Math.abs(value) > MAX_WHOLE) {
      allIntegers = false;
      continue;
    }
    if (value === 0) continue;
    anyNonZero = true;
    // Exact for whole numbers up to MAX_WHOLE and unit = 10^e, and several times faster than
    // `value % unit` (a call into fmod for every value above 2^31: a register in millionths).
    while (exponent > 0 && Math.round(value / unit) * unit !== value) {
      exponent -= 1;
      unit = 10 ** exponent;
    }
  }
  return { hasNulls, allIntegers, exponent: anyNonZero ? exponent : 0 };
}

/** Writes one column at `at`; where it ends. */
function writeColumn(out: Buffer, start: number, values: Float64Array, isMillionths: boolean): number {
  const count = values.length;
  const { hasNulls, allIntegers, exponent } = survey(values);
  let at = start;
  out[at++] = allIntegers ? (isMillionths ? ColumnKind.Millionths : ColumnKind.Integers) : ColumnKind.Doubles;
  at = writeVarint(out, at, count);
  out[at++] = hasNulls ? HAS_NULLS : 0;
  // Each loop is a function of its own that returns right after it (see json-columns.ts).
  if (hasNulls) at = writeNullBitmap(out, at, values);
  if (!allIntegers) return writeDoubles(out, at, values, isMillionths);
  out[at++] = exponent;
  return writeDeltas(out, at, values, 10 ** exponent);
}

/**
 * One bit per value, set where it is known. Where it ends is worked out before the loop: an
 * operation first met after a loop compiled while it ran throws that code away on every later call
 * (it was, on every answer with unknowns; see json-columns.ts).
 */
function writeNullBitmap(out: Buffer, at: number, values: Float64Array): number {
  const end = at + Math.ceil(values.length / 8);
  out.fill(0, at, end);
  for (let i = 0; i < values.length; i += 1)
    if (Number.isFinite(values[i]!)) out[at + (i >> 3)]! |= 1 << (i & 7);
  return end;
}

/** The known values as little-endian doubles (millionths as units). */
function writeDoubles(out: Buffer, start: number, values: Float64Array, isMillionths: boolean): number {
  let at = start;
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i]!;
    if (!Number.isFinite(value)) continue;
    const units = isMillionths ? value / 1_000_000 : value;
    // JSON has no −0: it writes and reads 0 (a tiny negative number of millionths becomes −0).
    at = out.writeDoubleLE(units === 0 ? 0 : units, at);
  }
  return at;
}

/** The known values as whole `unit`s, each the zigzag varint of its difference from the one before. */
function writeDeltas(out: Buffer, start: number, values: Float64Array, unit: number): number {
  let at = start;
  let previous = 0;
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i]!;
    if (!Number.isFinite(value)) continue;
    const whole = value / unit;
    const delta = whole - previous;
    previous = whole;
    at = writeVarint(out, at, delta >= 0 ? delta * 2 : -delta * 2 - 1);
  }
  return at;
}

/** An unsigned whole number below 2^53 as LEB128 at `at`; where it ends. */
function writeVarint(out: Buffer, start: number, value: number): number {
  let at = start;
  let rest = value;
  // Above 2^31 the bit operators would cut it: divide until it fits them.
  while (rest >= 0x80000000) {
    out[at++] = (rest % 0x80) | 0x80;
    rest = Math.floor(rest / 0x80);
  }
  while (rest >= 0x80) {
    out[at++] = (rest & 0x7f) | 0x80;
    rest >>>= 7;
  }
  out[at++] = rest;
  return at;
}
