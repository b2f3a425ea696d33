import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../db/client.ts';
import { startEmbeddedPostgres } from '../db/embedded-postgres.ts';
import { migrate } from '../db/migrate.ts';
import {
  createDatabase,
  databaseUrl,
  dropDatabase,
  dropLeftovers,
  TEST_DATABASE_PREFIX,
} from './databases.ts';
import './provided-context.ts';

/** Where the suite keeps its embedded server between runs (one per checkout; initdb runs once). */
const DATA_DIR = path.resolve(import.meta.dirname, '../../../../node_modules/.cache/cm-test-postgres');

/**
 * Settings for a server whose databases live as long as one test file: nothing needs to survive a
 * crash, so nothing waits for the disk.
 */
const THROWAWAY_SETTINGS = [
  'fsync=off',
  'synchronous_commit=off',
  'full_page_writes=off',
  'max_connections=200',
];

/**
 * The server suite's PostgreSQL: the server CM_TEST_POSTGRES_URL names, or else the embedded one
 * that `npm start` runs, from the same npm packages — started once for the run and stopped at its
 * end (an interrupted run stops it too: it is asked to stop when this process exits, and a server
 * left by a killed run is taken over by the next). On it, one database migrated once, which every
 * test file's database copies.
 */
export default async function setup(project: TestProject) {
  const outside = process.env.CM_TEST_POSTGRES_URL;
  let adminUrl: string;
  let stopServer = async () => {};
  if (outside) {
    adminUrl = outside;
    console.log(`server suite: PostgreSQL at CM_TEST_POSTGRES_URL (${new URL(outside).host})`);
  } else {
    const server = await startEmbeddedPostgres(DATA_DIR, THROWAWAY_SETTINGS);
    adminUrl = databaseUrl(server.url, 'postgres');
    stopServer = () => server.stop();
    await dropLeftovers(adminUrl);
    console.log('server suite: embedded PostgreSQL from npm (set CM_TEST_POSTGRES_URL for another server)');
  }
  const template = `${TEST_DATABASE_PREFIX}template_${randomBytes(4).toString('hex')}`;
  await createDatabase(adminUrl, template);
  const db = await openPostgres({
    url: databaseUrl(adminUrl, template),
    poolSize: 1,
    statementTimeoutMs: 120_000,
  });
  await migrate(db).finally(() => db.close());
  project.provide('cmTestPostgresUrl', adminUrl);
  project.provide('cmTestTemplateDatabase', template);
  return async () => {
    await dropDatabase(adminUrl, template);
    await stopServer();
  };
}
