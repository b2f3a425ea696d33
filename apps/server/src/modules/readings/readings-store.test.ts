import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../test/test-db.ts';
import { insertLocation, insertMeter, insertReadings, regularReadings } from '../../test/factories.ts';
import { findReadings } from './check.queries.ts';
import { ReadingsStore } from './readings-store.ts';

const Q = 15 * 60_000;
const FROM = Date.parse('2026-01-01T00:00:00Z');
const TO = Date.parse('2026-05-10T00:00:00Z');
const NOW = Date.parse('2026-05-10T06:00:00Z');
let db: Db;
let meterId: number;

const asArrays = (columns: {
  t: ArrayLike<number>;
  milli: ArrayLike<number>;
  quality: ArrayLike<number>;
}) => ({
  t: Array.from(columns.t),
  milli: Array.from(columns.milli),
  quality: Array.from(columns.quality),
});

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
      const direct = await findReadings(db, meterId, new Date(from), new Date(to));
      const viaStore = await store.load(meterId, new Date(from), new Date(to), NOW);
      expect(asArrays(viaStore), `${from}..${to}`).toEqual(asArrays(direct));
    }
    // January to April have settled and are now packed; May is still read live.
    expect(await chunkCount()).toBe(5); // December (empty) and January to April
  });

  it('drops a packed month as soon as a reading in it is written, updated or deleted', async () => {
    const store = new ReadingsStore(db);
    const from = new Date('2026-02-01T00:00:00Z');
    const to = new Date('2026-02-10T00:00:00Z');
    await store.load(meterId, from, to, NOW);
    await db.query(
      "UPDATE readings SET quality = 1 WHERE meter_id = $1 AND read_at = '2026-02-05T10:00:00Z'",
      [meterId],
    );
    expect(await chunkCount()).toBe(4);
    const afterUpdate = await store.load(meterId, from, to, NOW);
    expect(asArrays(afterUpdate)).toEqual(asArrays(await findReadings(db, meterId, from, to)));
    await db.query("DELETE FROM readings WHERE meter_id = $1 AND read_at = '2026-02-05T10:15:00Z'", [
      meterId,
    ]);
    await db.query(
      "INSERT INTO readings (meter_id, read_at, register_milli) VALUES ($1, '2026-02-05T10:07:00Z', 1) ON CONFLICT DO NOTHING",
      [meterId],
    );
    const afterWrites = await store.load(meterId, from, to, NOW);
    expect(asArrays(afterWrites)).toEqual(asArrays(await findReadings(db, meterId, from, to)));
    expect(Array.from(afterWrites.t)).toContain(Date.parse('2026-02-05T10:07:00Z'));
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
          const withBytes = rows.filter((row) => (row as { t: unknown }).t !== null).length;
          chunkQueries.push({ withBytes, withoutBytes: rows.length - withBytes });
        }
        return rows;
      },
    };
    const thisProcess = new ReadingsStore(watched);
    const otherProcess = new ReadingsStore(db);
    const from = new Date('2026-01-01T00:00:00Z');
    const to = new Date('2026-04-30T00:00:00Z');
    await thisProcess.load(meterId, from, to, NOW);
    chunkQueries.length = 0;
    const warm = await thisProcess.load(meterId, from, to, NOW);
    expect(chunkQueries).toEqual([{ withBytes: 0, withoutBytes: 4 }]);
    expect(asArrays(warm)).toEqual(asArrays(await findReadings(db, meterId, from, to)));

    // Another process writes into March and rebuilds it: only March's bytes come again.
    await db.query(
      "UPDATE readings SET register_milli = register_milli + 1 WHERE meter_id = $1 AND read_at >= '2026-03-20T00:00:00Z' AND read_at < '2026-04-01T00:00:00Z'",
      [meterId],
    );
    await otherProcess.load(meterId, from, to, NOW);
    chunkQueries.length = 0;
    const afterRebuild = await thisProcess.load(meterId, from, to, NOW);
    expect(chunkQueries).toEqual([{ withBytes: 1, withoutBytes: 3 }]);
    expect(asArrays(afterRebuild)).toEqual(asArrays(await findReadings(db, meterId, from, to)));
  });
});
