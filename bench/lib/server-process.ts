import { startServer, type ServerProcess } from '../../e2e/support/server-process.ts';

/** Keys the benchmark servers are started with, so that a restarted server accepts the same clients. */
export const BENCH_WEB_API_KEY = 'cm_bench_web_key_0123456789abcdefghij';
export const BENCH_JWT_SECRET = 'bench-secret-bench-secret-bench-secret-01';

/** CM for a benchmark (see startServer): no demo data unless `env` asks for it, and the bench keys. */
export function startBenchServer(env: Record<string, string>, timeoutMs = 120_000): Promise<ServerProcess> {
  return startServer(
    {
      CM_SEED_DEMO: 'never',
      CM_WEB_API_KEY: BENCH_WEB_API_KEY,
      CM_JWT_SECRET: BENCH_JWT_SECRET,
      ...env,
    },
    timeoutMs,
  );
}
