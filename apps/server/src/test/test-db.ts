import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import './provided-context.ts';
import { openPostgres, type Db } from '../db/client.ts';
import { createDatabase, databaseUrl, dropDatabase, TEST_DATABASE_PREFIX } from './databases.ts';

/**
 * The suite's PostgreSQL server (test/global-setup.ts): CM_TEST_POSTGRES_URL's, or the embedded one.
 * Asked for when needed, so benches and drills may import the test helpers outside vitest.
 */
export const adminUrl = () => inject('cmTestPostgresUrl');

/**
 * A database on the test PostgreSQL server, created now (empty, or as a copy of `template`) and
 * dropped by `drop`.
 */
export async function createScratchDatabase(
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${TEST_DATABASE_PREFIX}${randomBytes(6).toString('hex')}`;
  const admin = adminUrl();
  await createDatabase(admin, name, template);
  return { url: databaseUrl(admin, name), drop: () => dropDatabase(admin, name) };
}

/**
 * A fresh database for one test file on the suite's PostgreSQL server, dropped on close: a copy of
 * the run's template, which the global setup migrated once.
 */
export async function createTestDb(): Promise<Db> {
  const scratch = await createScratchDatabase(inject('cmTestTemplateDatabase'));
  const db = await openPostgres({ url: scratch.url, poolSize: 4, statementTimeoutMs: 30_000 });
  return {
    ...db,
    async close() {
      await db.close();
      await scratch.drop();
    },
  };
}
