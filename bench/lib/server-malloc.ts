import { spawnSync } from 'node:child_process';
import { MALLOC_SETTINGS, withServerMalloc } from '../../scripts/server-environment.mjs';

/**
 * For a benchmark that runs CM in its own process (startBenchApp): runs the benchmark again in a
 * process with the server's allocator settings, which glibc reads only as a process starts, unless
 * this one has them, and exits with its status; so the server is measured as `npm start` runs it.
 * CM_BENCH_DEFAULT_MALLOC=1 measures it with glibc's defaults instead, for a comparison.
 */
export function relaunchWithServerMalloc(): void {
  const settings = Object.entries(MALLOC_SETTINGS);
  if (process.env.CM_BENCH_DEFAULT_MALLOC === '1') {
    console.log("allocator: glibc's defaults (CM_BENCH_DEFAULT_MALLOC=1)");
    return;
  }
  if (settings.every(([name]) => process.env[name] !== undefined)) {
    console.log(`allocator: ${settings.map(([name]) => `${name}=${process.env[name]}`).join(' ')}`);
    return;
  }
  const result = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: withServerMalloc(process.env),
  });
  process.exit(result.status ?? 1);
}
