import type { Db } from '../../db/client.ts';
import type { ReadingColumns } from '../readings/consumption.ts';
import { findChunks, findReadings, insertChunk, lockMeterChunks, type ChunkRow } from './check.queries.ts';
import { DecodedChunkCache, type MonthColumns } from './chunk-cache.ts';

// A month is packed once it ended more than this long ago; newer data still arrives and is read live.
const SETTLED_AFTER_MS = 24 * 60 * 60 * 1000;

/** Float64 columns in a byte buffer. Stored little-endian, which is what typed arrays are on every platform Node runs on here (x86-64, arm64). */
function packed(values: Float64Array): Uint8Array {
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

function unpackFloat64(bytes: Uint8Array): Float64Array {
  // Copy to an aligned buffer: a driver's Buffer may start at any byte offset.
  const aligned = new Uint8Array(bytes.byteLength);
  aligned.set(bytes);
  return new Float64Array(aligned.buffer);
}

function utcMonthStart(ms: number): number {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

function nextUtcMonth(monthStart: number): number {
  const date = new Date(monthStart);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

interface Columns {
  t: ArrayLike<number>;
  milli: ArrayLike<number>;
  quality: ArrayLike<number>;
}

/** First index with t ≥ ms (or > ms when `after`). */
function bound(t: ArrayLike<number>, ms: number, after: boolean): number {
  let lo = 0;
  let hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const value = t[mid] ?? Infinity;
    if (after ? value <= ms : value < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Reads one meter's readings in [from, to] (both ends), from packed monthly chunks where the month
 * has settled and from the readings table for the rest, building missing chunks on the way.
 * Answers exactly what a direct query of `readings` answers (tested), only faster: a year is 12
 * chunk rows instead of 35,040 readings.
 */
/** Decoded months kept per process: about 110 meter-years of 15-minute data. */
const DECODED_CACHE_BYTES = 64 * 1024 * 1024;

export class ReadingsStore {
  private readonly decoded: DecodedChunkCache;

  constructor(
    private readonly db: Db,
    cacheBytes = DECODED_CACHE_BYTES,
  ) {
    this.decoded = new DecodedChunkCache(cacheBytes);
  }

  async load(meterId: number, from: Date, to: Date, nowMs = Date.now()): Promise<ReadingColumns> {
    const settled: number[] = [];
    let liveFrom = from.getTime();
    for (let month = utcMonthStart(from.getTime()); month <= to.getTime(); month = nextUtcMonth(month)) {
      if (nextUtcMonth(month) + SETTLED_AFTER_MS > nowMs) break;
      settled.push(month);
      liveFrom = Math.max(liveFrom, nextUtcMonth(month));
    }
    if (settled.length === 0) return findReadings(this.db, meterId, from, to);

    const stored = await findChunks(
      this.db,
      meterId,
      settled.map((month) => new Date(month)),
      this.decoded.versions(meterId, settled),
    );
    const byMonth = new Map<number, Columns>();
    for (const chunk of stored) {
      const month = chunk.month_start.getTime();
      const columns = this.decodedChunk(meterId, month, chunk);
      if (columns) byMonth.set(month, columns);
    }
    const parts: Columns[] = [];
    for (const month of settled) {
      const columns = byMonth.get(month) ?? (await this.buildChunk(meterId, month));
      parts.push(slice(columns, from.getTime(), to.getTime()));
    }
    if (liveFrom <= to.getTime()) parts.push(await findReadings(this.db, meterId, new Date(liveFrom), to));
    return concat(parts);
  }

  /** The month's columns: held in memory at this version, or decoded from the bytes just read. */
  private decodedChunk(meterId: number, month: number, chunk: ChunkRow): MonthColumns | undefined {
    if (!chunk.t || !chunk.v || !chunk.q) return this.decoded.get(meterId, month, chunk.version);
    const columns = { t: unpackFloat64(chunk.t), milli: unpackFloat64(chunk.v), quality: chunk.q };
    this.decoded.set(meterId, month, chunk.version, columns);
    return columns;
  }

  /** Reads a settled month under the meter's chunk lock and stores it packed; a write racing it deletes it again (trigger). */
  private async buildChunk(meterId: number, month: number): Promise<Columns> {
    const built = await this.db.transaction(async (tx) => {
      await lockMeterChunks(tx, meterId);
      const found = await findReadings(
        tx,
        meterId,
        new Date(month),
        new Date(nextUtcMonth(month)),
        'exclusive',
      );
      const columns = {
        t: Float64Array.from(found.t),
        milli: Float64Array.from(found.milli),
        quality: Uint8Array.from(found.quality),
      };
      const version = await insertChunk(tx, meterId, {
        monthStart: new Date(month),
        readings: columns.t.length,
        t: packed(columns.t),
        v: packed(columns.milli),
        q: columns.quality,
      });
      return { columns, version };
    });
    if (built.version !== undefined) this.decoded.set(meterId, month, built.version, built.columns);
    return built.columns;
  }
}

function slice(columns: Columns, fromMs: number, toMs: number): Columns {
  const start = bound(columns.t, fromMs, false);
  const end = bound(columns.t, toMs, true);
  if (start === 0 && end === columns.t.length) return columns;
  const part = (values: ArrayLike<number>) => {
    const out = new Array<number>(end - start);
    for (let i = start; i < end; i += 1) out[i - start] = values[i] ?? 0;
    return out;
  };
  return { t: part(columns.t), milli: part(columns.milli), quality: part(columns.quality) };
}

function concat(parts: Columns[]): ReadingColumns {
  const length = parts.reduce((sum, part) => sum + part.t.length, 0);
  const t = new Float64Array(length);
  const milli = new Float64Array(length);
  const quality = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    t.set(part.t, offset);
    milli.set(part.milli, offset);
    quality.set(part.quality, offset);
    offset += part.t.length;
  }
  return { t, milli, quality };
}
