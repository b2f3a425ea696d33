import { lowerBound, upperBound } from '@cm/contracts/sorted.ts';
import type { Db, SqlRunner } from '../../db/client.ts';
import { VersionedCache } from './versioned-cache.ts';
import { packColumn, unpackColumn } from './packed-column.ts';
import type { IntervalColumns, RegisterColumns } from './engine/steps.ts';
import { nextUtcMonth, utcMonthStart } from './utc-month.ts';
import {
  dequeueMonth,
  findChunks,
  findIntervals,
  findQueuedMonths,
  findRegisters,
  insertChunk,
  lockMeterChunks,
  tryLockMeterChunks,
  type ChunkRow,
  type PackedMonth,
} from './readings.queries.ts';

// How one meter's year is read from few pages (docs/readings-model.md): every settled UTC month of a meter and
// channel is also kept packed in one reading_chunks row: packed in the background once writes
// queued it (packQueuedMonths), else by the first read that misses it; each process keeps the
// months it decoded lately with the chunk's version and asks only for months stored since.
// CM_DEBUG_DISABLE=chunks reads every month from the readings tables instead (for debugging: the
// answers are the same, tested).

// A month is packed once it ended more than this long ago; newer data still arrives and is read live.
const SETTLED_AFTER_MS = 24 * 60 * 60 * 1000;
/** Decoded months kept per process: about 100 meter-years of 15-minute data. */
const DECODED_CACHE_BYTES = 64 * 1024 * 1024;

/** One channel's readings of one meter over a range. */
export interface ChannelReadings {
  registers: RegisterColumns;
  intervals: IntervalColumns;
}

/** Decoded columns of one month of one channel. */
export interface MonthColumns extends ChannelReadings {
  bytes: number;
}

// Plain loops: `Uint8Array.from` with a mapping function walks an iterator and was most of the
// cost of decoding a year's chunks (about 8 ms of a cold year raw).
function bitsOf(q: ArrayLike<number>, shift: number, mask: number): Uint8Array {
  const out = new Uint8Array(q.length);
  for (let i = 0; i < q.length; i++) out[i] = ((q[i] ?? 0) >> shift) & mask;
  return out;
}
const qualityOf = (q: ArrayLike<number>) => bitsOf(q, 0, 3);
const revisedOf = (q: ArrayLike<number>) => bitsOf(q, 2, 1);

const float64 = (n: number) => new Float64Array(n);
const codes = (n: number) => new Uint8Array(n);

function decode(chunk: ChunkRow & PackedMonth): MonthColumns {
  const rq = unpackColumn(chunk.rq, codes);
  const iq = unpackColumn(chunk.iq, codes);
  const registers = {
    t: unpackColumn(chunk.rt, float64),
    micro: unpackColumn(chunk.rv, float64),
    quality: qualityOf(rq),
    revised: revisedOf(rq),
  };
  const intervals = {
    start: unpackColumn(chunk.it, float64),
    end: unpackColumn(chunk.ie, float64),
    micro: unpackColumn(chunk.iv, float64),
    quality: qualityOf(iq),
    revised: revisedOf(iq),
  };
  return { registers, intervals, bytes: decodedBytes(rq.length, iq.length) };
}

/** Decoded: two float64 and two byte columns per register, three and two per interval record. */
const decodedBytes = (registers: number, intervals: number) => registers * 18 + intervals * 26;

async function readLive(
  db: SqlRunner,
  meterId: number,
  channel: number,
  from: Date,
  to: Date,
  end: 'inclusive' | 'exclusive',
) {
  const [registers, intervals] = await Promise.all([
    findRegisters(db, meterId, channel, from, to, end),
    findIntervals(db, meterId, channel, from, to),
  ]);
  return {
    registers: {
      t: Float64Array.from(registers.t),
      micro: Float64Array.from(registers.micro),
      quality: qualityOf(registers.q),
      revised: revisedOf(registers.q),
      q: Uint8Array.from(registers.q),
    },
    intervals: {
      start: Float64Array.from(intervals.start),
      end: Float64Array.from(intervals.end),
      micro: Float64Array.from(intervals.micro),
      quality: qualityOf(intervals.q),
      revised: revisedOf(intervals.q),
      q: Uint8Array.from(intervals.q),
    },
  };
}

/**
 * Reads a meter's readings — registers in [from, to] (both ends: the reading at `to` closes the
 * last interval), interval records starting in [from, to) — from packed monthly chunks where the
 * month has settled and from the readings tables for the rest, building missing chunks on the way.
 * Answers exactly what direct queries answer (tested), only faster.
 */
export class ReadingsStore {
  private readonly decoded: VersionedCache<MonthColumns>;

  constructor(
    private readonly db: Db,
    private readonly useChunks = true,
    cacheBytes = DECODED_CACHE_BYTES,
  ) {
    this.decoded = new VersionedCache(cacheBytes);
  }

  /** The readings of each of `channels` (stored channel numbers). */
  async load(
    meterId: number,
    channels: readonly number[],
    from: Date,
    to: Date,
    nowMs = Date.now(),
  ): Promise<Map<number, ChannelReadings>> {
    const settled: number[] = [];
    let liveFrom = from.getTime();
    if (this.useChunks) {
      for (let month = utcMonthStart(from.getTime()); month <= to.getTime(); month = nextUtcMonth(month)) {
        if (nextUtcMonth(month) + SETTLED_AFTER_MS > nowMs) break;
        settled.push(month);
        liveFrom = Math.max(liveFrom, nextUtcMonth(month));
      }
    }
    const byKey = new Map<string, MonthColumns>();
    if (settled.length > 0) {
      const held = channels.flatMap((channel) =>
        this.decoded.versions(settled.map((month) => key(meterId, channel, month))),
      );
      const stored = await findChunks(
        this.db,
        meterId,
        [...channels],
        settled.map((month) => new Date(month)),
        held,
      );
      for (const chunk of stored) {
        const id = key(meterId, chunk.channel, chunk.month_start.getTime());
        const columns = isWhole(chunk) ? decode(chunk) : this.decoded.get(id, chunk.version);
        if (!columns) continue;
        if (isWhole(chunk)) this.decoded.set(id, chunk.version, columns, columns.bytes);
        byKey.set(id, columns);
      }
    }
    const result = new Map<number, ChannelReadings>();
    for (const channel of channels) {
      const parts: ChannelReadings[] = [];
      for (const month of settled) {
        const columns =
          byKey.get(key(meterId, channel, month)) ?? (await this.buildChunk(meterId, channel, month));
        parts.push(slice(columns, from.getTime(), to.getTime()));
      }
      if (liveFrom <= to.getTime())
        parts.push(await readLive(this.db, meterId, channel, new Date(liveFrom), to, 'inclusive'));
      result.set(channel, concat(parts));
    }
    return result;
  }

  /** Reads a settled month under the meter's chunk lock and stores it packed; a write racing it deletes it again (trigger). */
  private async buildChunk(meterId: number, channel: number, month: number): Promise<MonthColumns> {
    const built = await this.db.transaction(async (tx) => {
      await lockMeterChunks(tx, meterId);
      return packMonth(tx, meterId, channel, month);
    });
    if (built.version !== undefined)
      this.decoded.set(key(meterId, channel, month), built.version, built.columns, built.columns.bytes);
    return built.columns;
  }
}

/**
 * Packs the settled months whose readings changed (the triggers queue them), newest first, each
 * in a transaction of its own, until none is left or `limit` are packed; a month whose meter is
 * being written is left for the next run. Answers how many were packed. Several processes may
 * run this at once: each month is taken by one.
 */
export async function packQueuedMonths(db: Db, limit: number, nowMs = Date.now()): Promise<number> {
  let packed = 0;
  let skipped = 0;
  // A month is settled once it ended SETTLED_AFTER_MS ago: every month before this one.
  const settledBefore = new Date(utcMonthStart(nowMs - SETTLED_AFTER_MS));
  while (packed < limit) {
    // Months left busy stay first in the queue's order: skip past them.
    const batch = await findQueuedMonths(db, settledBefore, Math.min(200, limit - packed) + skipped);
    const fresh = batch.slice(skipped);
    if (fresh.length === 0) break;
    for (const month of fresh) {
      const done = await db.transaction(async (tx) => {
        // The writers' order: the meter's lock, then the queue.
        if (!(await tryLockMeterChunks(tx, month.meter_id))) return 'busy';
        if (!(await dequeueMonth(tx, month))) return 'taken';
        await packMonth(tx, month.meter_id, month.channel, month.month_start.getTime());
        return 'packed';
      });
      if (done === 'packed') packed++;
      if (done === 'busy') skipped++;
    }
  }
  return packed;
}

/** Reads one month of a meter's channel and stores it packed (callers hold the meter's chunk lock). */
async function packMonth(tx: SqlRunner, meterId: number, channel: number, month: number) {
  const live = await readLive(
    tx,
    meterId,
    channel,
    new Date(month),
    new Date(nextUtcMonth(month)),
    'exclusive',
  );
  const packed: PackedMonth = {
    rt: packColumn(live.registers.t),
    rv: packColumn(live.registers.micro),
    rq: packColumn(live.registers.q),
    it: packColumn(live.intervals.start),
    ie: packColumn(live.intervals.end),
    iv: packColumn(live.intervals.micro),
    iq: packColumn(live.intervals.q),
  };
  const version = await insertChunk(tx, meterId, {
    channel,
    monthStart: new Date(month),
    readings: live.registers.t.length + live.intervals.start.length,
    ...packed,
  });
  const columns: MonthColumns = {
    registers: live.registers,
    intervals: live.intervals,
    bytes: decodedBytes(live.registers.t.length, live.intervals.start.length),
  };
  return { columns, version };
}

const key = (meterId: number, channel: number, month: number) => `${meterId}:${channel}:${month}`;

function isWhole(chunk: ChunkRow): chunk is ChunkRow & PackedMonth {
  return (
    chunk.rt !== null &&
    chunk.rv !== null &&
    chunk.rq !== null &&
    chunk.it !== null &&
    chunk.ie !== null &&
    chunk.iv !== null &&
    chunk.iq !== null
  );
}

function slice(columns: ChannelReadings, fromMs: number, toMs: number): ChannelReadings {
  const { registers, intervals } = columns;
  const r0 = lowerBound(registers.t, fromMs);
  const r1 = upperBound(registers.t, toMs, r0);
  const i0 = lowerBound(intervals.start, fromMs);
  const i1 = lowerBound(intervals.start, toMs, i0);
  // Views, not copies: `concat` copies every part once into the answer's own columns.
  const part = <T extends Float64Array | Uint8Array>(
    values: ArrayLike<number>,
    lo: number,
    hi: number,
    make: (n: number) => T,
  ): T | Float64Array | Uint8Array => {
    if (values instanceof Float64Array || values instanceof Uint8Array) return values.subarray(lo, hi);
    const out = make(hi - lo);
    for (let i = lo; i < hi; i++) out[i - lo] = values[i] ?? 0;
    return out;
  };
  const f64 = (n: number) => new Float64Array(n);
  const u8 = (n: number) => new Uint8Array(n);
  return {
    registers: {
      t: part(registers.t, r0, r1, f64),
      micro: part(registers.micro, r0, r1, f64),
      quality: part(registers.quality, r0, r1, u8),
      revised: part(registers.revised, r0, r1, u8),
    },
    intervals: {
      start: part(intervals.start, i0, i1, f64),
      end: part(intervals.end, i0, i1, f64),
      micro: part(intervals.micro, i0, i1, f64),
      quality: part(intervals.quality, i0, i1, u8),
      revised: part(intervals.revised, i0, i1, u8),
    },
  };
}

function concat(parts: ChannelReadings[]): ChannelReadings {
  const join = <T extends Float64Array | Uint8Array>(
    pick: (part: ChannelReadings) => ArrayLike<number>,
    make: (n: number) => T,
  ): T => {
    const out = make(parts.reduce((sum, part) => sum + pick(part).length, 0));
    let offset = 0;
    for (const part of parts) {
      const values = pick(part);
      out.set(values, offset);
      offset += values.length;
    }
    return out;
  };
  const f64 = (n: number) => new Float64Array(n);
  const u8 = (n: number) => new Uint8Array(n);
  return {
    registers: {
      t: join((p) => p.registers.t, f64),
      micro: join((p) => p.registers.micro, f64),
      quality: join((p) => p.registers.quality, u8),
      revised: join((p) => p.registers.revised, u8),
    },
    intervals: {
      start: join((p) => p.intervals.start, f64),
      end: join((p) => p.intervals.end, f64),
      micro: join((p) => p.intervals.micro, f64),
      quality: join((p) => p.intervals.quality, u8),
      revised: join((p) => p.intervals.revised, u8),
    },
  };
}
