import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../test/test-db.ts';
import { openPostgres, type Db } from './client.ts';
import { migrate } from './migrate.ts';

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let db: Db;

beforeAll(async () => {
  scratch = await createScratchDatabase();
  db = await openPostgres({ url: scratch.url, poolSize: 3, statementTimeoutMs: 30_000 });
  await migrate(db);
});
afterAll(async () => {
  await db.close();
  await scratch.drop();
});

/** Connections to the scratch database, counted from a connection of another pool. */
async function connectionsOpen(): Promise<number> {
  const observer = new pg.Client({ connectionString: scratch.url });
  await observer.connect();
  try {
    const rows = await observer.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return rows.rows[0]?.n ?? 0;
  } finally {
    await observer.end();
  }
}

describe('warming the pool up', () => {
  it('opens every connection of the pool, runs the statements on each, and keeps them', async () => {
    await db.warmUp(['EXPLAIN SELECT 1 FROM register_readings WHERE meter_id = 0', 'SELECT 1']);
    expect(await connectionsOpen()).toBe(3);
    // The connections are back in the pool: queries run on them.
    const answers = await Promise.all(
      [1, 2, 3, 4].map((n) => db.query<{ n: number }>('SELECT $1::int AS n', [n])),
    );
    expect(answers.map((rows) => rows[0]?.n)).toEqual([1, 2, 3, 4]);
    expect(await connectionsOpen()).toBe(3);
  });

  it('fails when a statement fails, and gives every connection back', async () => {
    await expect(db.warmUp(['SELECT 1 FROM no_such_table'])).rejects.toThrow('no_such_table');
    const answers = await Promise.all([1, 2, 3].map(() => db.query('SELECT 1')));
    expect(answers).toHaveLength(3);
  });
});
