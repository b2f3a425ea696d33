import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { withServerMalloc } from '../../scripts/server-environment.mjs';

// Starting CM as a real process, for the browser suite and the benchmarks alike.

export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** The built server that `npm start` runs (`npm run build` makes it; `npm test` builds first). */
function serverBundle(): string {
  const bundle = path.join(repoRoot, 'apps/server/dist/main.js');
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run npm run build first.`);
  return bundle;
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the server printed so far. */
  output(): string;
  /** Sends `signal` and waits for the process to end. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts CM as `npm start` runs it (the built apps/server/dist/main.js, production mode, its allocator
 * settings) on 127.0.0.1 and a free port, with `env` on top, and answers once it prints its URL. Never
 * listens anywhere but loopback.
 */
export async function startServer(env: Record<string, string>, timeoutMs = 170_000): Promise<ServerProcess> {
  // CM_E2E_SERVER_LOG=file keeps the server's log, every request with its time, for a flake's post-mortem.
  const logFile = process.env.CM_E2E_SERVER_LOG;
  const child = spawn(process.execPath, ['--enable-source-maps', serverBundle()], {
    cwd: repoRoot,
    env: withServerMalloc({
      ...process.env,
      PORT: '0',
      LOG_LEVEL: logFile ? 'info' : 'warn',
      NODE_ENV: 'production',
      ...env,
      HOST: '127.0.0.1',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (logFile) appendFileSync(logFile, chunk);
      const match = /Check Meter is running: (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before it started:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      await exited;
    },
  };
}

export interface DemoServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * CM with the built web app, the embedded database and the demo data, in a fresh data folder
 * that is removed when it stops.
 */
export async function startServerProcess(env: Record<string, string> = {}): Promise<DemoServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cm-e2e-'));
  const removeData = () => rm(dataDir, { recursive: true, force: true });
  const server = await startServer({ CM_DATA_DIR: dataDir, ...env }).catch(async (error: unknown) => {
    await removeData();
    throw error;
  });
  return {
    url: server.url,
    async stop() {
      await server.stop();
      await removeData();
    },
  };
}
