import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPglite, openPostgres, type Db } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';

const ADMIN_URL = process.env.CM_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/postgres';

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or (CM_TEST_DATABASE=postgres)
 * a new database on the PostgreSQL server that is dropped on close. The same suite runs on both.
 */
export async function createTestDb(): Promise<Db> {
  const kind = process.env.CM_TEST_DATABASE ?? 'pglite';
  if (kind === 'pglite') {
    const db = await openPglite(undefined);
    await migrate(db);
    return db;
  }
  if (kind !== 'postgres') throw new Error(`CM_TEST_DATABASE must be pglite or postgres, not ${kind}`);
  const name = `cm_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const db = await openPostgres({ url: url.toString(), poolSize: 4, statementTimeoutMs: 30_000 });
  await migrate(db);
  return {
    ...db,
    async close() {
      await db.close();
      const dropper = new pg.Client({ connectionString: ADMIN_URL });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
