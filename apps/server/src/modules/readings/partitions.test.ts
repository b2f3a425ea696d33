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

/** The meter's register times over [FROM, TO] as a process that decoded nothing yet reads them (chunks built on the way). */
const registerTimesSeenFresh = async () =>
  (await new ReadingsStore(db).load(meterId, [1], new Date(FROM), new Date(TO), TO + 40 * 86_400_000)).get(1)
    ?.registers.t ?? new Float64Array();

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
    // Four months of both readings tables, and the chunk cache's year.
    expect(await readings.makeRoomAhead(db, now)).toBe(9);
    for (const parent of ['register_readings', 'interval_readings']) {
      expect(await partitionsOf(parent)).toEqual(
        expect.arrayContaining(['_p2031_06', '_p2031_07', '_p2031_08', '_p2031_09'].map((m) => parent + m)),
      );
    }
    expect(await partitionsOf('reading_chunks')).toContain('reading_chunks_p2031');
    // Already there: nothing more.
    expect(await readings.makeRoomAhead(db, now)).toBe(0);
  });

  it('leave the tables for archiving: months before a date become tables of their own', async () => {
    // Chunks stored for the settled months, as reads leave them.
    expect((await registerTimesSeenFresh()).length).toBe((TO - FROM) / Q + 1);

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
    // The chunk cache's 2019 ended with them: dropped.
    expect(await partitionsOf('reading_chunks')).not.toContain('reading_chunks_p2019');
    expect(await partitionsOf('reading_chunks')).toContain('reading_chunks_p2020');
    // Reads see the months still attached, whole, and nothing of the archived ones.
    const t = await registerTimesSeenFresh();
    expect(t.length).toBe((TO - Date.parse('2020-01-01T00:00:00Z')) / Q + 1);
    expect(t[0]).toBe(Date.parse('2020-01-01T00:00:00Z'));
    // Writing into an archived month is refused, not silently lost.
    await expect(insertReadings(db, meterId, [[Date.parse('2019-12-05T00:00:00Z'), 5]])).rejects.toThrow(
      /no partition/,
    );
  });

  it('take an archived month out of the chunk cache while its year stays', async () => {
    const february = Date.parse('2020-02-01T00:00:00Z');
    await registerTimesSeenFresh();
    const chunkMonths = async () =>
      (
        await db.query<{ month: string }>(
          "SELECT to_char(month_start AT TIME ZONE 'UTC', 'YYYY-MM') AS month FROM reading_chunks WHERE meter_id = $1 ORDER BY 1",
          [meterId],
        )
      ).map((row) => row.month);
    expect(await chunkMonths()).toEqual(expect.arrayContaining(['2020-01', '2020-02']));

    expect(await readings.archiveBefore(db, new Date(february))).toEqual([
      'interval_readings_p2020_01',
      'register_readings_p2020_01',
    ]);
    expect(await partitionsOf('reading_chunks')).toContain('reading_chunks_p2020');
    expect(await chunkMonths()).not.toContain('2020-01');
    expect(await chunkMonths()).toContain('2020-02');
    // A reader that never saw January answers from February on: nothing of the archived month.
    const t = await registerTimesSeenFresh();
    expect(t[0]).toBe(february);
    expect(t.length).toBe((TO - february) / Q + 1);
  });
});
