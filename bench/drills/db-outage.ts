// Fault drill (b): PostgreSQL stops under load. `npx tsx bench/drills/db-outage.ts`
//
// A real server on PostgreSQL answers a steady load of client lookups and health probes; the
// cluster is stopped for OUTAGE_MS and started again. Passing means: during the outage every
// answer is a 503 with a message a person can act on (no 500, no dropped connection, nothing waits
// longer than the pool's connect timeout plus a margin), /api/health says not ready, the process
// stays up, and once PostgreSQL is back the service answers 200 again by itself, without a restart.
// PostgreSQL is ALWAYS started again (finally, and on Ctrl-C). Prints a table; exits 1 on failure.
import { execFileSync } from 'node:child_process';
import { call, login, sleep, type Answer } from '../lib/http.ts';
import { startBenchServer } from '../lib/server-process.ts';
import { prepareSite } from '../lib/site.ts';
import { percentile } from '../lib/stats.ts';
import { printTable } from '../lib/table.ts';

const CLUSTER = ['15', 'main'];
const OUTAGE_MS = Number(process.env.CM_DRILL_OUTAGE_MS ?? 10_000);
const BEFORE_MS = 5_000;
const AFTER_MS = 15_000;
// The pool gives up connecting after 5 s; a request may wait that long once, plus work.
const LONGEST_ALLOWED_MS = 8_000;

function pgctl(action: 'start' | 'stop') {
  execFileSync(
    'pg_ctlcluster',
    ['--skip-systemctl-redirect', ...CLUSTER, action, ...(action === 'stop' ? ['-m', 'fast'] : [])],
    {
      stdio: 'inherit',
    },
  );
}
const isPostgresUp = () => {
  try {
    execFileSync('pg_isready', ['-h', '127.0.0.1', '-p', '5432', '-q']);
    return true;
  } catch {
    return false;
  }
};

interface Sample extends Answer {
  at: number;
  kind: 'meter' | 'health';
}

async function main() {
  const site = await prepareSite('cm_drill_outage', {
    clients: 2,
    locationsPerClient: 2,
    metersPerLocation: 3,
    days: 7,
  });
  const server = await startBenchServer({ DATABASE_URL: site.url, DATABASE_POOL_SIZE: '5' });
  const client = site.clients[0];
  if (!client) throw new Error('no client');
  const token = await login(server.url, client.email, client.password);
  const samples: Sample[] = [];
  const t0 = Date.now();
  let running = true;
  let stoppedAt = 0;
  let startedAt = 0;
  const worker = async (kind: Sample['kind'], index: number) => {
    while (running) {
      const meter = client.meterNumbers[index % client.meterNumbers.length] ?? '';
      const url =
        kind === 'health'
          ? `${server.url}/api/health`
          : `${server.url}/api/CheckMeter/GetMeterInfo?meterNumber=${meter}`;
      const answer = await call(url, { token, timeoutMs: 30_000 });
      samples.push({ ...answer, at: Date.now() - t0, kind });
      await sleep(kind === 'health' ? 250 : 20);
    }
  };
  const restoreOnInterrupt = () => {
    if (!isPostgresUp()) pgctl('start');
    process.exit(130);
  };
  process.once('SIGINT', restoreOnInterrupt);
  const workers = [...Array.from({ length: 8 }, (_, i) => worker('meter', i)), worker('health', 0)];
  try {
    await sleep(BEFORE_MS);
    stoppedAt = Date.now() - t0;
    pgctl('stop');
    await sleep(OUTAGE_MS);
  } finally {
    if (!isPostgresUp()) pgctl('start');
    startedAt = Date.now() - t0;
    process.off('SIGINT', restoreOnInterrupt);
  }
  await sleep(AFTER_MS);
  running = false;
  await Promise.all(workers);
  const alive = server.child.exitCode === null && server.child.signalCode === null;
  await server.stop();

  // Requests sent while the database was down (plus the in-flight ones it cut).
  const during = samples.filter((s) => s.at - s.ms >= stoppedAt && s.at <= startedAt);
  const before = samples.filter((s) => s.at < stoppedAt);
  const after = samples.filter((s) => s.at - s.ms > startedAt);
  const firstOk = after.find((s) => s.kind === 'meter' && s.status === 200);
  const recoveredAfterMs = firstOk ? firstOk.at - startedAt : Number.NaN;
  const lastFailure = [...after].reverse().find((s) => s.status !== 200);
  const tail = after.filter((s) => !lastFailure || s.at > lastFailure.at);

  const describe = (list: Sample[]) => {
    const counts = new Map<string, number>();
    for (const s of list) {
      const key = s.error ? `error (${s.error})` : String(s.status);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts.entries()].map(([key, n]) => `${key}×${n}`).join(', ');
  };
  const ms = (list: Sample[]) => list.map((s) => s.ms);
  const phaseRow = (name: string, list: Sample[]) => [
    name,
    list.length,
    describe(list),
    `${percentile(ms(list), 99).toFixed(0)} ms`,
    `${Math.max(0, ...ms(list)).toFixed(0)} ms`,
  ];
  printTable(
    `PostgreSQL outage of ${(OUTAGE_MS / 1000).toFixed(0)} s under load (8 clients looking up meters, 1 health probe)`,
    ['phase', 'requests', 'answers', 'p99', 'slowest'],
    [phaseRow('before', before), phaseRow('outage', during), phaseRow('after restart', after)],
  );

  const outageAnswers = during.filter((s) => s.status !== 200);
  const messages = [
    ...new Set(
      outageAnswers.map((s) =>
        s.body ? ((JSON.parse(s.body) as { message?: string; status?: string }).message ?? s.body) : s.error,
      ),
    ),
  ];
  const checks: Array<[string, boolean, string]> = [
    [
      'no 500 and no dropped connection at any time',
      samples.every((s) => !s.error && s.status !== 500),
      describe(samples.filter((s) => s.error || s.status === 500)) || 'none',
    ],
    [
      'during the outage, lookups answer 503',
      during.filter((s) => s.kind === 'meter').every((s) => s.status === 503 || s.status === 200) &&
        during.some((s) => s.status === 503),
      describe(during.filter((s) => s.kind === 'meter')),
    ],
    [
      'the 503 says what is wrong',
      messages.every(
        (m) => (typeof m === 'string' && /database is not reachable|degraded/i.test(m)) || m === undefined,
      ),
      messages.join(' | ').slice(0, 120),
    ],
    [
      'health reports not ready (503) during the outage',
      during.some((s) => s.kind === 'health' && s.status === 503 && s.body.includes('"ready":false')),
      describe(during.filter((s) => s.kind === 'health')),
    ],
    [
      `nothing waits longer than ${LONGEST_ALLOWED_MS / 1000} s`,
      samples.every((s) => s.ms <= LONGEST_ALLOWED_MS),
      `slowest ${Math.max(...ms(samples)).toFixed(0)} ms`,
    ],
    ['the server process stayed up', alive, alive ? 'running' : 'exited'],
    [
      'it recovers by itself once PostgreSQL is back',
      Number.isFinite(recoveredAfterMs) && tail.length > 20 && tail.every((s) => s.status === 200),
      `first 200 after ${recoveredAfterMs.toFixed(0)} ms; ${tail.length} answers in a row all 200`,
    ],
  ];
  printTable(
    'Checks',
    ['check', 'result', 'detail'],
    checks.map(([name, ok, detail]) => [name, ok ? 'pass' : 'FAIL', detail]),
  );
  if (checks.some(([, ok]) => !ok)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  if (!isPostgresUp()) pgctl('start');
  process.exit(1);
});
