import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPostgres, type Db } from '../../apps/server/src/db/client.ts';
import { startEmbeddedPostgres } from '../../apps/server/src/db/embedded-postgres.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';

export const POSTGRES_ADMIN_URL =
  process.env.CM_BENCH_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/postgres';

/** URL of a database on the benchmark server, created when `create` and missing. */
export async function benchDatabase(
  name: string,
  options: { recreate: boolean },
): Promise<{ url: string; existed: boolean }> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    let existed = found.rowCount === 1;
    if (existed && options.recreate) {
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      existed = false;
    }
    if (!existed) await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    return { url: url.toString(), existed };
  } finally {
    await admin.end();
  }
}

/** Runs `work` on a fresh embedded PostgreSQL (migrated), removed afterwards whatever happens. */
export async function withEmbeddedPostgres<T>(poolSize: number, work: (db: Db) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cm-bench-embedded-'));
  const embedded = await startEmbeddedPostgres(dir);
  const db = await openPostgres({
    url: embedded.url,
    poolSize,
    statementTimeoutMs: 600_000,
    kind: 'embedded',
  });
  try {
    await migrate(db);
    return await work(db);
  } finally {
    await db.close();
    await embedded.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
