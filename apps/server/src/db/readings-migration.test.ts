import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, prepare } from '../bootstrap.ts';
import { loadConfig } from '../config.ts';
import { insertLocation, insertMeter } from '../test/factories.ts';
import { createScratchDatabase } from '../test/test-db.ts';
import { openPostgres, type Db, type SqlRunner } from './client.ts';
import { openLegacyPglite } from './legacy-pglite.ts';
import { migrate } from './migrate.ts';

// Migration 0005 moves existing data into the readings model: registers stay registers (thousandths
// of a kWh become millionths), and series an interval import had turned into registers become
// intervals again. Tested on the PostgreSQL server and through an earlier version's PGlite folder.

const shipped = fileURLToPath(new URL('./migrations', import.meta.url));
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

/** The shipped migrations up to and including `lastTag`. */
async function migrationsUpTo(lastTag: string): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'cm-migrations-'));
  dirs.push(folder);
  await cp(shipped, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  journal.entries = journal.entries.slice(0, last + 1);
  await writeFile(journalFile, JSON.stringify(journal));
  return folder;
}

const T0 = Date.parse('2024-03-01T00:00:00Z');
const Q = 15 * 60_000;

/** Data as version 0004 stored it: a register meter, and an interval import's registers (source 2). */
async function oldData(db: SqlRunner): Promise<{ registerMeter: number; intervalMeter: number }> {
  const [location] = await db.query<{ id: number }>(
    "INSERT INTO locations (public_name, time_zone) VALUES ('Old site', 'UTC') RETURNING id",
  );
  const meter = async (number: string, ind: number) => {
    const [device] = await db.query<{ id: number }>(
      'INSERT INTO devices (type, serial, location_id) VALUES (3, $1, $2) RETURNING id',
      [number, location?.id],
    );
    await db.query(
      `INSERT INTO meters (device_id, meter_number, location_id, meter_ind, multiplier, installed_at)
       VALUES ($1, $2, $3, $4, 2, '2024-01-01T00:00:00Z')`,
      [device?.id, number, location?.id, ind],
    );
    return device?.id ?? 0;
  };
  const registerMeter = await meter('OLD-R', 1);
  const intervalMeter = await meter('OLD-I', 2);
  const rows: Array<[number, number, number, number]> = [
    [registerMeter, T0, 1_000, 0],
    [registerMeter, T0 + Q, 1_100, 0],
    // The opening register the import put before its first interval, then registers rising by
    // each interval's energy ÷ the multiplier: 100, 200, then a hole, then 150.
    [intervalMeter, T0, 0, 2],
    [intervalMeter, T0 + Q, 50, 2],
    [intervalMeter, T0 + 2 * Q, 150, 2],
    [intervalMeter, T0 + 5 * Q, 225, 2],
  ];
  for (const [meterId, at, milli, source] of rows) {
    await db.query(
      'INSERT INTO readings (meter_id, read_at, register_milli, source) VALUES ($1, $2, $3, $4)',
      [meterId, new Date(at), milli, source],
    );
  }
  return { registerMeter, intervalMeter };
}

async function expectMigrated(db: SqlRunner, meters: { registerMeter: number; intervalMeter: number }) {
  expect(
    await db.query(
      'SELECT meter_id, channel, read_at, value_micro, source FROM register_readings ORDER BY meter_id, read_at',
    ),
  ).toEqual([
    { meter_id: meters.registerMeter, channel: 1, read_at: new Date(T0), value_micro: 1_000_000, source: 0 },
    {
      meter_id: meters.registerMeter,
      channel: 1,
      read_at: new Date(T0 + Q),
      value_micro: 1_100_000,
      source: 0,
    },
  ]);
  // Energies after the multiplier of 2; the interval after the hole keeps its own energy.
  expect(
    await db.query(
      'SELECT meter_id, channel, start_at, end_at, energy_micro FROM interval_readings ORDER BY start_at',
    ),
  ).toEqual([
    {
      meter_id: meters.intervalMeter,
      channel: 1,
      start_at: new Date(T0),
      end_at: new Date(T0 + Q),
      energy_micro: 100_000,
    },
    {
      meter_id: meters.intervalMeter,
      channel: 1,
      start_at: new Date(T0 + Q),
      end_at: new Date(T0 + 2 * Q),
      energy_micro: 200_000,
    },
    {
      meter_id: meters.intervalMeter,
      channel: 1,
      start_at: new Date(T0 + 4 * Q),
      end_at: new Date(T0 + 5 * Q),
      energy_micro: 150_000,
    },
  ]);
}

describe('migration 0005 (readings model)', () => {
  it('keeps registers and turns an interval import back into intervals, on a PostgreSQL server', async () => {
    const scratch = await createScratchDatabase();
    const db = await openPostgres({ url: scratch.url, poolSize: 2, statementTimeoutMs: 30_000 });
    try {
      await migrate(db, await migrationsUpTo('0004_reading_versions'));
      const meters = await oldData(db);
      expect(await migrate(db, await migrationsUpTo('0005_readings_model'))).toEqual({ applied: 1 });
      await expectMigrated(db, meters);
    } finally {
      await db.close();
      await scratch.drop();
    }
  });

  it('does the same to an earlier version’s PGlite folder copied into the embedded PostgreSQL', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cm-legacy-old-'));
    dirs.push(dataDir);
    const legacy = await openLegacyPglite(path.join(dataDir, 'pglite'));
    await migrate(legacy, await migrationsUpTo('0004_reading_versions'));
    const meters = await oldData(legacy);
    await legacy.close();
    const config = loadConfig({ CM_DATA_DIR: dataDir });
    const db = await openDatabase(config);
    try {
      const started = await prepare(db, config);
      expect(started.legacyReadings).toBe(5);
      await expectMigrated(db, meters);
    } finally {
      await db.close();
    }
  }, 120_000);
});

/** Runs `work` on a scratch database migrated up to `lastTag`, holding one meter (dropped afterwards). */
async function withMeterMigratedUpTo(
  lastTag: string,
  work: (db: Db, meterId: number) => Promise<void>,
): Promise<void> {
  const scratch = await createScratchDatabase();
  const db = await openPostgres({ url: scratch.url, poolSize: 2, statementTimeoutMs: 30_000 });
  try {
    await migrate(db, await migrationsUpTo(lastTag));
    const meterId = await insertMeter(db, {
      meterNumber: 'OLD-CHUNK',
      locationId: await insertLocation(db, 'Old chunk site'),
      meterInd: 1,
      installedAt: new Date(T0),
    });
    await work(db, meterId);
  } finally {
    await db.close();
    await scratch.drop();
  }
}

describe('migration 0019 (packed chunk columns)', () => {
  it('queues the months packed in the old format to be packed again, and drops them', async () => {
    await withMeterMigratedUpTo('0018_readings_without_row_fk', async (db, registerMeter) => {
      const month = new Date('2024-03-01T00:00:00Z');
      await db.query('SELECT cm_ensure_reading_partitions($1, $1)', [month]);
      await db.query('DELETE FROM reading_chunk_queue');
      // A month as the old format stored it: float64 columns, straight.
      const float64s = (values: number[]) => Buffer.from(Float64Array.from(values).buffer);
      await db.query(
        `INSERT INTO reading_chunks (meter_id, channel, month_start, readings, rt, rv, rq, it, ie, iv, iq)
         VALUES ($1, 1, $2, 2, $3, $4, $5, '', '', '', '')`,
        [registerMeter, month, float64s([T0, T0 + Q]), float64s([1e9, 1.1e9]), Buffer.from([0, 0])],
      );
      expect(await migrate(db, await migrationsUpTo('0019_packed_chunk_columns'))).toEqual({ applied: 1 });
      expect(await db.query('SELECT meter_id FROM reading_chunks')).toEqual([]);
      expect(await db.query('SELECT meter_id, channel, month_start FROM reading_chunk_queue')).toEqual([
        { meter_id: registerMeter, channel: 1, month_start: month },
      ]);
    });
  });
});

describe('migration 0022 (chunk cache by year)', () => {
  it('moves every stored month, versions and bytes as they were, into yearly partitions', async () => {
    await withMeterMigratedUpTo('0021_meters_latest_month', async (db, meterId) => {
      const months = ['2023-12-01T00:00:00Z', '2024-01-01T00:00:00Z', '2024-03-01T00:00:00Z'];
      await db.query('SELECT cm_ensure_reading_partitions($1, $2)', [months[0], months[2]]);
      const stored =
        'SELECT channel, month_start, readings, rt, version FROM reading_chunks ORDER BY month_start';
      for (const [i, month] of months.entries())
        await db.query(
          `INSERT INTO reading_chunks (meter_id, channel, month_start, readings, rt, rv, rq, it, ie, iv, iq)
           VALUES ($1, 1, $2, $3, $4, '', '', '', '', '', '')`,
          [meterId, month, i + 1, Buffer.from([i, 7])],
        );
      const before = await db.query<{ version: number }>(stored);

      expect(await migrate(db, await migrationsUpTo('0022_reading_chunks_by_year'))).toEqual({ applied: 1 });
      expect(await db.query(stored)).toEqual(before);
      const partitions = await db.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = 'reading_chunks'::regclass ORDER BY 1`,
      );
      expect(partitions.map((row) => row.name)).toEqual(['reading_chunks_p2023', 'reading_chunks_p2024']);
      // New months get versions after the moved ones, and a meter's deletion still takes its chunks.
      await db.query(
        `INSERT INTO reading_chunks (meter_id, channel, month_start, readings, rt, rv, rq, it, ie, iv, iq)
         VALUES ($1, 1, '2024-02-01T00:00:00Z', 1, '', '', '', '', '', '', '')`,
        [meterId],
      );
      const versions = await db.query<{ version: number }>(
        'SELECT version FROM reading_chunks ORDER BY version',
      );
      expect(versions.at(-1)?.version).toBeGreaterThan(Math.max(...before.map((row) => Number(row.version))));
      await db.query('DELETE FROM meters WHERE device_id = $1', [meterId]);
      expect(await db.query('SELECT meter_id FROM reading_chunks')).toEqual([]);
    });
  });
});
