import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../test/test-db.ts';
import { insertLocation, insertMeter, insertReadings, regularReadings } from '../../test/factories.ts';
import { ReadingsStore } from './readings-store.ts';
import { readings } from './readings.service.ts';

const Q = 15 * 60_000;
const FROM = Date.parse('2019-11-01T00:00:00Z');
const TO = Date.parse('2020-03-01T00:00:00Z');
let db: Db;
let meterId: number;

const partitionsOf = async (parent: string) =>
  (
    await db.query<{ name: string }>(
      `SELECT child.relname AS name FROM pg_inherits i
       JOIN pg_class parent ON parent.oid = i.inhparent JOIN pg_class child ON child.oid = i.inhrelid
       WHERE parent.relname = $1 ORDER BY 1`,
      [parent],
    )
  ).map((row) => row.name);

beforeAll(async () => {
  db = await createTestDb();
  const location = await insertLocation(db, 'Partition test');
  meterId = await insertMeter(db, {
    meterNumber: 'EM-PART',
    locationId: location,
    meterInd: 1,
    installedAt: new Date(FROM),
  });
  await insertReadings(
    db,
    meterId,
    regularReadings(FROM, TO, Q, 1_000, () => 1),
  );
});
afterAll(async () => {
  await db?.close();
});

describe('readings partitions', () => {
  it('are created months ahead of the data', async () => {
    const now = Date.parse('2031-06-15T12:00:00Z');
    expect(await readings.makeRoomAhead(db, now)).toBe(12);
    for (const parent of ['register_readings', 'interval_readings', 'reading_chunks']) {
      expect(await partitionsOf(parent)).toEqual(
        expect.arrayContaining(['_p2031_06', '_p2031_07', '_p2031_08', '_p2031_09'].map((m) => parent + m)),
      );
    }
    // Already there: nothing more.
    expect(await readings.makeRoomAhead(db, now)).toBe(0);
  });

  it('leave the tables for archiving: months before a date become tables of their own', async () => {
    // Chunks stored for the settled months, as reads leave them.
    const store = new ReadingsStore(db);
    const before = await store.load(meterId, [1], new Date(FROM), new Date(TO), TO + 40 * 86_400_000);
    expect(before.get(1)?.registers.t.length).toBe((TO - FROM) / Q + 1);

    const detached = await readings.archiveBefore(db, new Date('2020-01-01T00:00:00Z'));
    expect(detached).toEqual([
      'interval_readings_p2019_11',
      'register_readings_p2019_11',
      'interval_readings_p2019_12',
      'register_readings_p2019_12',
    ]);
    // The detached months keep every reading, in tables of their own (30 + 31 days of quarter hours).
    const kept = await db.query<{ n: number }>(
      'SELECT (SELECT count(*) FROM register_readings_p2019_11) + (SELECT count(*) FROM register_readings_p2019_12) AS n',
    );
    expect(kept[0]?.n).toBe(61 * 96);
    expect(await partitionsOf('reading_chunks')).not.toContain('reading_chunks_p2019_12');
    // Reads see the months still attached, whole, and nothing of the archived ones.
    const after = await new ReadingsStore(db).load(
      meterId,
      [1],
      new Date(FROM),
      new Date(TO),
      TO + 40 * 86_400_000,
    );
    const t = after.get(1)?.registers.t ?? new Float64Array();
    expect(t.length).toBe((TO - Date.parse('2020-01-01T00:00:00Z')) / Q + 1);
    expect(t[0]).toBe(Date.parse('2020-01-01T00:00:00Z'));
    // Writing into an archived month is refused, not silently lost.
    await expect(insertReadings(db, meterId, [[Date.parse('2019-12-05T00:00:00Z'), 5]])).rejects.toThrow(
      /no partition/,
    );
  });
});
