import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../test/test-db.ts';
import {
  insertIntervals,
  insertLocation,
  insertMeter,
  insertReadings,
  regularReadings,
} from '../../test/factories.ts';
import { findIntervals, findRegisters } from './readings.queries.ts';
import { packQueuedMonths, ReadingsStore, type ChannelReadings } from './readings-store.ts';

const Q = 15 * 60_000;
const FROM = Date.parse('2026-01-01T00:00:00Z');
const TO = Date.parse('2026-05-10T00:00:00Z');
const NOW = Date.parse('2026-05-10T06:00:00Z');
let db: Db;
let meterId: number;

const asArrays = (columns: ChannelReadings | undefined) => ({
  t: Array.from(columns?.registers.t ?? []),
  micro: Array.from(columns?.registers.micro ?? []),
  quality: Array.from(columns?.registers.quality ?? []),
  revised: Array.from(columns?.registers.revised ?? []),
  start: Array.from(columns?.intervals.start ?? []),
  end: Array.from(columns?.intervals.end ?? []),
  energy: Array.from(columns?.intervals.micro ?? []),
  intervalQuality: Array.from(columns?.intervals.quality ?? []),
});

/** The same columns read straight from the readings tables (registers in [from, to], records starting in [from, to)). */
async function direct(channel: number, from: Date, to: Date) {
  const registers = await findRegisters(db, meterId, channel, from, to);
  const intervals = await findIntervals(db, meterId, channel, from, to);
  return {
    t: registers.t,
    micro: registers.micro,
    quality: registers.q.map((q) => q & 3),
    revised: registers.q.map((q) => (q >> 2) & 1),
    start: intervals.start,
    end: intervals.end,
    energy: intervals.micro,
    intervalQuality: intervals.q.map((q) => q & 3),
  };
}

beforeAll(async () => {
  db = await createTestDb();
  const location = await insertLocation(db, 'Store test');
  meterId = await insertMeter(db, {
    meterNumber: 'EM-STORE',
    locationId: location,
    meterInd: 1,
    installedAt: new Date(FROM),
  });
  const rows = regularReadings(FROM, TO, Q, 5_000, (i) => (i % 7) + 1).map(
    ([t, v], i): [number, number, number] => [t, v, i % 997 === 3 ? 1 : 0],
  );
  await insertReadings(db, meterId, rows);
  // The export channel has half-hour interval records (a solar roof), some estimated.
  const records: Array<[number, number, number, number]> = [];
  for (let t = FROM; t < TO; t += 2 * Q)
    records.push([t, t + 2 * Q, (t / Q) % 5000, (t / Q) % 311 === 0 ? 1 : 0]);
  await insertIntervals(db, meterId, records, 2);
});
afterAll(() => db.close());

async function chunkCount(): Promise<number> {
  return (
    (
      await db.query<{ n: number }>('SELECT count(*)::int AS n FROM reading_chunks WHERE meter_id = $1', [
        meterId,
      ])
    )[0]?.n ?? 0
  );
}

describe('readings store', () => {
  it('answers exactly what the readings table answers, for ranges across settled and live months', async () => {
    const store = new ReadingsStore(db);
    for (const [from, to] of [
      ['2026-01-01T00:00:00Z', '2026-05-10T00:00:00Z'],
      ['2026-01-15T07:07:00Z', '2026-03-01T00:00:00Z'],
      ['2026-02-28T23:45:00Z', '2026-03-01T00:15:00Z'],
      ['2026-04-30T12:00:00Z', '2026-05-02T00:00:00Z'],
      ['2025-12-01T00:00:00Z', '2026-01-01T00:00:00Z'],
    ] as const) {
      const viaStore = await store.load(meterId, [1, 2], new Date(from), new Date(to), NOW);
      for (const channel of [1, 2])
        expect(asArrays(viaStore.get(channel)), `${from}..${to} channel ${channel}`).toEqual(
          await direct(channel, new Date(from), new Date(to)),
        );
    }
    // January to April have settled and are now packed; May is still read live (both channels).
    // December has no partition (no data): read, not stored.
    expect(await chunkCount()).toBe(8);
  });

  it('keeps each packed month in its row, within one page: nothing goes to TOAST', async () => {
    const rows = await db.query<{ channel: number; readings: number; bytes: number }>(
      'SELECT channel, readings, pg_column_size(c.*) AS bytes FROM reading_chunks c WHERE meter_id = $1',
      [meterId],
    );
    expect(rows.length).toBe(8);
    for (const row of rows)
      expect(row.bytes, `channel ${row.channel}, ${row.readings} readings`).toBeLessThan(8_160);
    expect(rows.filter((row) => row.channel === 1).every((row) => row.readings >= 28 * 96)).toBe(true);
    const toast = await db.query<{ bytes: number }>(
      `SELECT coalesce(sum(pg_relation_size(p.reltoastrelid)), 0)::int AS bytes
       FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhrelid WHERE i.inhparent = 'reading_chunks'::regclass`,
    );
    expect(toast[0]?.bytes).toBe(0);
  });

  it('drops a packed month as soon as a reading in it is written, updated or deleted', async () => {
    const store = new ReadingsStore(db);
    const from = new Date('2026-02-01T00:00:00Z');
    const to = new Date('2026-02-10T00:00:00Z');
    await store.load(meterId, [1, 2], from, to, NOW);
    await db.query(
      "UPDATE register_readings SET quality = 1, revision = 1 WHERE meter_id = $1 AND channel = 1 AND read_at = '2026-02-05T10:00:00Z'",
      [meterId],
    );
    expect(await chunkCount()).toBe(7);
    const afterUpdate = await store.load(meterId, [1, 2], from, to, NOW);
    expect(asArrays(afterUpdate.get(1))).toEqual(await direct(1, from, to));
    expect(asArrays(afterUpdate.get(1)).revised).toContain(1);
    await db.query(
      "DELETE FROM register_readings WHERE meter_id = $1 AND channel = 1 AND read_at = '2026-02-05T10:15:00Z'",
      [meterId],
    );
    await db.query(
      "INSERT INTO register_readings (meter_id, channel, read_at, value_micro) VALUES ($1, 1, '2026-02-05T10:07:00Z', 1) ON CONFLICT DO NOTHING",
      [meterId],
    );
    await db.query(
      "UPDATE interval_readings SET energy_micro = energy_micro + 7 WHERE meter_id = $1 AND channel = 2 AND start_at = '2026-02-06T00:00:00Z'",
      [meterId],
    );
    const afterWrites = await store.load(meterId, [1, 2], from, to, NOW);
    for (const channel of [1, 2])
      expect(asArrays(afterWrites.get(channel))).toEqual(await direct(channel, from, to));
    expect(Array.from(afterWrites.get(1)?.registers.t ?? [])).toContain(Date.parse('2026-02-05T10:07:00Z'));
  });

  it('keeps decoded months per process, fetches bytes only for months stored since, never answers stale', async () => {
    const chunkQueries: { withBytes: number; withoutBytes: number }[] = [];
    const watched: Db = {
      ...db,
      async query<T extends object>(
        text: string,
        params?: readonly unknown[],
        options?: { prepare?: string },
      ) {
        const rows = await db.query<T>(text, params, options);
        if (options?.prepare === 'cm_reading_chunks') {
          const withBytes = rows.filter((row) => (row as { rt: unknown }).rt !== null).length;
          chunkQueries.push({ withBytes, withoutBytes: rows.length - withBytes });
        }
        return rows;
      },
    };
    const thisProcess = new ReadingsStore(watched);
    const otherProcess = new ReadingsStore(db);
    const from = new Date('2026-01-01T00:00:00Z');
    const to = new Date('2026-04-30T00:00:00Z');
    await thisProcess.load(meterId, [1], from, to, NOW);
    chunkQueries.length = 0;
    const warm = await thisProcess.load(meterId, [1], from, to, NOW);
    expect(chunkQueries).toEqual([{ withBytes: 0, withoutBytes: 4 }]);
    expect(asArrays(warm.get(1))).toEqual(await direct(1, from, to));

    // Another process writes into March and rebuilds it: only March's bytes come again.
    await db.query(
      "UPDATE register_readings SET value_micro = value_micro + 1 WHERE meter_id = $1 AND channel = 1 AND read_at >= '2026-03-20T00:00:00Z' AND read_at < '2026-04-01T00:00:00Z'",
      [meterId],
    );
    await otherProcess.load(meterId, [1], from, to, NOW);
    chunkQueries.length = 0;
    const afterRebuild = await thisProcess.load(meterId, [1], from, to, NOW);
    expect(chunkQueries).toEqual([{ withBytes: 1, withoutBytes: 3 }]);
    expect(asArrays(afterRebuild.get(1))).toEqual(await direct(1, from, to));
  });

  it('answers the same with the chunks switched off (CM_DEBUG_DISABLE=chunks)', async () => {
    const plain = new ReadingsStore(db, false);
    const chunked = new ReadingsStore(db);
    const from = new Date('2026-01-10T00:00:00Z');
    const to = new Date('2026-05-01T00:00:00Z');
    const a = await plain.load(meterId, [1, 2], from, to, NOW);
    const b = await chunked.load(meterId, [1, 2], from, to, NOW);
    for (const channel of [1, 2]) expect(asArrays(a.get(channel))).toEqual(asArrays(b.get(channel)));
  });

  it('packs the settled months that writes queued, each month by one of several packers', async () => {
    await db.query('DELETE FROM reading_chunks WHERE meter_id = $1', [meterId]);
    await db.query(
      "UPDATE register_readings SET quality = quality WHERE meter_id = $1 AND read_at < '2026-01-02T00:00:00Z'",
      [meterId],
    );
    // Two processes' packers at once: every settled month once, none twice (a month whose meter
    // the other packer holds at that moment is left for the next run).
    const [first, second] = await Promise.all([
      packQueuedMonths(db, 100, NOW),
      packQueuedMonths(db, 100, NOW),
    ]);
    const next = await packQueuedMonths(db, 100, NOW);
    const chunks = await db.query<{ channel: number; month: string }>(
      "SELECT channel, to_char(month_start AT TIME ZONE 'UTC', 'YYYY-MM') AS month FROM reading_chunks WHERE meter_id = $1 ORDER BY 1, 2",
      [meterId],
    );
    const settled = ['2026-01', '2026-02', '2026-03', '2026-04'];
    expect(chunks).toEqual([1, 2].flatMap((channel) => settled.map((month) => ({ channel, month }))));
    expect((first ?? 0) + (second ?? 0) + next).toBe(8);
    // May has not settled: it waits in the queue.
    const waiting = await db.query<{ month: string }>(
      "SELECT DISTINCT to_char(month_start AT TIME ZONE 'UTC', 'YYYY-MM') AS month FROM reading_chunk_queue WHERE meter_id = $1",
      [meterId],
    );
    expect(waiting).toEqual([{ month: '2026-05' }]);
    // What was packed reads exactly as the tables, in a process that never built a chunk.
    const from = new Date('2026-01-01T00:00:00Z');
    const to = new Date('2026-05-10T00:00:00Z');
    const fresh = await new ReadingsStore(db).load(meterId, [1, 2], from, to, NOW);
    for (const channel of [1, 2])
      expect(asArrays(fresh.get(channel))).toEqual(await direct(channel, from, to));
    expect(await chunkCount()).toBe(8);
  });
});

describe('readings triggers', () => {
  it('drop and queue exactly the months a statement touched, over several meters, once each', async () => {
    const other = await insertMeter(db, {
      meterNumber: 'EM-STORE-2',
      locationId: await insertLocation(db, 'Store test 2'),
      meterInd: 1,
      installedAt: new Date(FROM),
    });
    await insertReadings(
      db,
      other,
      regularReadings(FROM, TO, Q, 9_000, () => 3).map(([t, v]): [number, number, number] => [t, v, 0]),
    );
    const store = new ReadingsStore(db);
    for (const meter of [meterId, other])
      await store.load(meter, [1, 2], new Date(FROM), new Date('2026-05-01T00:00:00Z'), NOW);
    await db.query('DELETE FROM reading_chunk_queue');
    const versions = async () =>
      db.query<{ device_id: number; readings_version: number }>(
        'SELECT device_id, readings_version FROM meters WHERE device_id = ANY($1) ORDER BY device_id',
        [[meterId, other]],
      );
    const before = await versions();
    const unrelated = await db.query<{ device_id: number; readings_version: number }>(
      'SELECT device_id, readings_version FROM meters WHERE device_id <> ALL($1) ORDER BY device_id',
      [[meterId, other]],
    );
    // One statement: the first meter's registers in February and March, the second's in March.
    await db.query(
      `UPDATE register_readings SET quality = quality
       WHERE (meter_id = $1 AND read_at >= '2026-02-27T00:00:00Z' AND read_at < '2026-03-02T00:00:00Z')
          OR (meter_id = $2 AND read_at >= '2026-03-10T00:00:00Z' AND read_at < '2026-03-11T00:00:00Z')`,
      [meterId, other],
    );
    const keys = (rows: { meter_id: number; channel: number; month: string }[]) =>
      rows.map((row) => `${row.meter_id === meterId ? 'first' : 'second'} ${row.channel} ${row.month}`);
    const monthOf = "to_char(month_start AT TIME ZONE 'UTC', 'YYYY-MM') AS month";
    expect(
      keys(await db.query(`SELECT meter_id, channel, ${monthOf} FROM reading_chunk_queue ORDER BY 1, 2, 3`)),
    ).toEqual([`first 1 2026-02`, `first 1 2026-03`, `second 1 2026-03`].sort((a, b) => (a < b ? -1 : 1)));
    const kept = keys(
      await db.query(
        `SELECT meter_id, channel, ${monthOf} FROM reading_chunks WHERE meter_id = ANY($1) ORDER BY 1, 2, 3`,
        [[meterId, other]],
      ),
    );
    expect(kept).not.toContain('first 1 2026-02');
    expect(kept).not.toContain('first 1 2026-03');
    expect(kept).not.toContain('second 1 2026-03');
    // Every other month stays packed: January to April, both channels of both meters (the second
    // meter's export months were packed empty), but those three.
    expect(kept).toHaveLength(2 * 2 * 4 - 3);
    const after = await versions();
    after.forEach((row, i) => expect(row.readings_version).toBeGreaterThan(before[i]?.readings_version ?? 0));
    expect(
      await db.query(
        'SELECT device_id, readings_version FROM meters WHERE device_id <> ALL($1) ORDER BY device_id',
        [[meterId, other]],
      ),
    ).toEqual(unrelated);
  });
});
