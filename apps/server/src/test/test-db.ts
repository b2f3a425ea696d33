import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgres, type Db } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';

const ADMIN_URL = process.env.CM_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/postgres';

/** A database on the test PostgreSQL server, created now and dropped by `drop`. */
export async function createScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `cm_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: ADMIN_URL });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/**
 * A fresh, migrated database for one test file on the PostgreSQL server (CM_TEST_POSTGRES_URL,
 * default 127.0.0.1:5432), dropped on close.
 */
export async function createTestDb(): Promise<Db> {
  const scratch = await createScratchDatabase();
  const db = await openPostgres({ url: scratch.url, poolSize: 4, statementTimeoutMs: 30_000 });
  await migrate(db);
  return {
    ...db,
    async close() {
      await db.close();
      await scratch.drop();
    },
  };
}
