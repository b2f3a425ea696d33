// Readings carry no foreign key to their meter (a check per row halved the write rate, issue 19):
// the writes lock the meters they touch, and deleting a meter deletes its readings (migration 0018).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../test/test-db.ts';
import { insertIntervals, insertLocation, insertMeter, insertReadings } from '../../test/factories.ts';
import { ReadingsStore } from './readings-store.ts';
import { readings } from './readings.service.ts';

const Q = 15 * 60_000;
const FROM = Date.parse('2024-01-01T00:00:00Z');
let db: Db;
let locationId: number;
let meterCount = 0;

const newMeter = async () => {
  meterCount += 1;
  return insertMeter(db, {
    meterNumber: `EM-INTEGRITY-${meterCount}`,
    locationId,
    meterInd: meterCount,
    installedAt: new Date(FROM),
  });
};

const countOf = async (table: string, meterId: number) =>
  (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE meter_id = $1`, [meterId]))[0]
    ?.n;

beforeAll(async () => {
  db = await createTestDb();
  locationId = await insertLocation(db, 'Integrity test');
});
afterAll(async () => {
  await db?.close();
});

describe('readings without a foreign key to their meter', () => {
  it('go with their meter: deleting it deletes its registers, intervals, chunks and queued months', async () => {
    const meterId = await newMeter();
    await insertReadings(db, meterId, [
      [FROM, 1_000],
      [FROM + Q, 1_200],
    ]);
    await insertIntervals(db, meterId, [[FROM, FROM + Q, 200_000]]);
    // A chunk stored for the settled month, as a read leaves it.
    await new ReadingsStore(db).load(
      meterId,
      [1],
      new Date(FROM),
      new Date(FROM + Q),
      FROM + 90 * 86_400_000,
    );
    expect(await countOf('reading_chunks', meterId)).toBeGreaterThan(0);

    await db.query('DELETE FROM meters WHERE device_id = $1', [meterId]);

    for (const table of ['register_readings', 'interval_readings', 'reading_chunks', 'reading_chunk_queue'])
      expect(await countOf(table, meterId), table).toBe(0);
  });

  it('are not stored for a meter that does not exist', async () => {
    expect(await readings.addRegister(db, 987_654, { at: new Date(FROM), micro: 5, source: 1 })).toBe(false);
    expect(await countOf('register_readings', 987_654)).toBe(0);
  });

  it('hold their meter while written: a delete waits for the write, then takes its readings too', async () => {
    const meterId = await newMeter();
    let deleted = false;
    let deletion: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      expect(await readings.addRegister(tx, meterId, { at: new Date(FROM), micro: 5, source: 1 })).toBe(true);
      deletion = db.query('DELETE FROM meters WHERE device_id = $1', [meterId]).then(() => {
        deleted = true;
      });
      // The delete waits on the writer's lock on the meter (seen from outside the transaction,
      // whose view of pg_stat_activity is taken once).
      await expect
        .poll(
          async () =>
            (
              await db.query<{ n: number }>(
                "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'DELETE FROM meters%'",
              )
            )[0]?.n,
          { timeout: 5_000 },
        )
        .toBe(1);
      expect(deleted).toBe(false);
    });
    await deletion;
    expect(await countOf('register_readings', meterId)).toBe(0);
  });
});
