import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** Keys the benchmark servers are started with, so that a restarted server accepts the same clients. */
export const BENCH_WEB_API_KEY = 'cm_bench_web_key_0123456789abcdefghij';
export const BENCH_JWT_SECRET = 'bench-secret-bench-secret-bench-secret-01';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the server printed so far. */
  output(): string;
  /** Sends `signal` and waits for the process to end. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts CM as `npm start` runs it (apps/server/src/main.ts) on 127.0.0.1 and a free port, and
 * answers once it prints its URL. Never listens anywhere but loopback.
 */
export async function startServer(env: Record<string, string>, timeoutMs = 120_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/main.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: '0',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      CM_SEED_DEMO: 'never',
      CM_WEB_API_KEY: BENCH_WEB_API_KEY,
      CM_JWT_SECRET: BENCH_JWT_SECRET,
      ...env,
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
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
