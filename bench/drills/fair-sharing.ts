// Drill: can one party take the server from everyone else? `npm run drill:fair-sharing`
//
// A real server (`npm start`'s defaults: embedded PostgreSQL, demo site). Ordinary users keep
// asking (client A's GetMeterInfo, a day of a location's readings, /api/health, a static file, each
// every 100 ms) while it goes through four phases:
//   1. quiet: nothing else runs (the reference);
//   2. slow bodies: an attacker with only the public web key opens 300 connections from another
//      address (127.0.0.2) and sends each a sign-in body one byte a second (security probe
//      2026-11-27, finding 1: 32 such bodies shut the API for everyone for up to an hour);
//   3. greedy client: client B asks Download My Data of a year, ten at a time, again and again
//      (finding 3: ten such requests pushed other users' p99 to 5.9 s);
//   4. both at once.
// Goal (issue 33): ordinary users' p99 ≤ 250 ms and no error in every phase. Prints a table with
// what the attacker and the greedy client got; exits 1 when the goal is missed.
import { setMaxListeners } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { API_KEY_HEADER } from '@cm/contracts/enums.ts';
import { DEMO_LOGINS } from '../../apps/server/src/demo/seed.ts';
import { call, login, sleep } from '../lib/http.ts';
import { startLightLoad, type LightSample } from '../lib/light-load.ts';
import { BENCH_WEB_API_KEY, startBenchServer } from '../lib/server-process.ts';
import { percentile } from '../lib/stats.ts';
import { printTable } from '../lib/table.ts';

const LIGHT_EVERY_MS = 100;
const PHASE_MS = 20_000;
const SLOW_CONNECTIONS = 300;
const ATTACKER_ADDRESS = '127.0.0.2';
const GREEDY_PARALLEL = 10;
const GOAL_P99_MS = 250;

const log = (message: string) => console.error(`[drill] ${message}`);

const demoLogin = (key: string) => {
  const found = DEMO_LOGINS.find((l) => l.key === key);
  if (!found) throw new Error(`no demo login ${key}`);
  return found;
};

/** What the attacker's connections got: an HTTP status each (0: the connection was closed first). */
interface AttackTally {
  statuses: Map<number, number>;
  open: number;
}

/**
 * Opens `connections` sign-in requests from ATTACKER_ADDRESS, each announcing a 100 kB body and
 * sending it one byte a second until `signal` aborts or the server ends it.
 */
function slowBodies(base: string, connections: number, signal: AbortSignal): Promise<AttackTally> {
  const tally: AttackTally = { statuses: new Map(), open: 0 };
  const count = (status: number) => tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
  const one = () =>
    new Promise<void>((resolve) => {
      const request = http.request(new URL('/api/auth/login', base), {
        method: 'POST',
        localAddress: ATTACKER_ADDRESS,
        headers: {
          [API_KEY_HEADER]: BENCH_WEB_API_KEY,
          'content-type': 'application/json',
          'content-length': String(100_000),
        },
      });
      tally.open += 1;
      let ended = false;
      const end = (status: number) => {
        if (ended) return;
        ended = true;
        tally.open -= 1;
        clearInterval(drip);
        count(status);
        resolve();
      };
      const drip = setInterval(() => request.write(' '), 1_000);
      request.write('{');
      request.on('response', (response) => {
        response.resume();
        end(response.statusCode ?? 0);
      });
      request.on('error', () => end(0));
      signal.addEventListener('abort', () => {
        request.destroy();
        end(-1);
      });
    });
  return Promise.all(Array.from({ length: connections }, one)).then(() => tally);
}

/** One of the signed-in client's meters, found as the typeahead finds it. */
async function firstMeterOf(base: string, token: string): Promise<string> {
  const answer = await call(`${base}/api/search?q=EM`, { token });
  const found = (JSON.parse(answer.body) as { results: { id: string }[] }).results.find((r) =>
    r.id.startsWith('meter:'),
  );
  if (!found) throw new Error(`no meter found for the greedy client: ${answer.status} ${answer.body}`);
  return found.id.slice('meter:'.length);
}

/** The client's Download My Data of the last year, GREEDY_PARALLEL at a time until `signal` aborts. */
async function greedy(base: string, token: string, signal: AbortSignal) {
  const statuses = new Map<number, number>();
  const meter = await firstMeterOf(base, token);
  const to = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const from = new Date(Date.now() - 366 * 86_400_000).toISOString().slice(0, 10);
  const url = `${base}/api/CheckMeter/DownloadMyData?meterNumber=${encodeURIComponent(meter)}&From=${from}&To=${to}&format=espi`;
  // Each answer is read and thrown away as it arrives, never decoded: the greedy client shares
  // this machine's two cores with the server, and 13 MB decoded four times a second would be the
  // drill's own load, not the server's.
  const worker = async () => {
    while (!signal.aborted) {
      let status = 0;
      try {
        const response = await fetch(url, {
          headers: { [API_KEY_HEADER]: BENCH_WEB_API_KEY, authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(120_000),
        });
        status = response.status;
        for await (const chunk of response.body ?? []) void chunk;
      } catch {
        // No answer: counted as 0.
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status === 429) await sleep(1_000);
    }
  };
  await Promise.all(Array.from({ length: GREEDY_PARALLEL }, worker));
  return statuses;
}

const describeStatuses = (statuses: Map<number, number>) =>
  [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${n}× ${status === -1 ? 'still open' : status === 0 ? 'closed' : status}`)
    .join(', ') || '—';

interface PhaseResult {
  phase: string;
  light: LightSample[];
  other: string;
}

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cm-drill-fair-'));
  log('starting a server with the demo site');
  const server = await startBenchServer({ CM_DATA_DIR: dataDir, CM_SEED_DEMO: 'auto' }, 300_000);
  const results: PhaseResult[] = [];
  try {
    const base = server.url;
    const clientA = await login(base, demoLogin('clientA').email, demoLogin('clientA').password);
    const clientB = await login(base, demoLogin('clientB').email, demoLogin('clientB').password);
    const load = startLightLoad(
      [
        {
          kind: 'GetMeterInfo',
          url: `${base}/api/CheckMeter/GetMeterInfo?meterNumber=EM-10001`,
          token: clientA,
        },
        {
          kind: 'a day of a location',
          url: `${base}/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=${encodeURIComponent('Riverside Campus – Library')}&From=${new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)}&To=${new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)}`,
          token: clientA,
        },
        { kind: 'health', url: `${base}/api/health` },
        { kind: 'static file', url: `${base}/favicon.svg` },
      ],
      LIGHT_EVERY_MS,
    );
    const phase = async (name: string, work: (signal: AbortSignal) => Promise<string>) => {
      log(name);
      await load.take();
      const stop = new AbortController();
      // Every slow connection listens for the end of the phase.
      setMaxListeners(2 * SLOW_CONNECTIONS, stop.signal);
      const done = work(stop.signal);
      await sleep(PHASE_MS);
      const light = await load.take();
      stop.abort();
      results.push({ phase: name, light, other: await done });
    };
    await phase('quiet', async () => '—');
    await phase(`${SLOW_CONNECTIONS} slow bodies from ${ATTACKER_ADDRESS}`, async (signal) => {
      const tally = await slowBodies(base, SLOW_CONNECTIONS, signal);
      return `attacker: ${describeStatuses(tally.statuses)}`;
    });
    await phase(`greedy client (${GREEDY_PARALLEL} Download My Data at once)`, async (signal) => {
      return `greedy: ${describeStatuses(await greedy(base, clientB, signal))}`;
    });
    await phase('slow bodies + greedy client', async (signal) => {
      const [tally, statuses] = await Promise.all([
        slowBodies(base, SLOW_CONNECTIONS, signal),
        greedy(base, clientB, signal),
      ]);
      return `attacker: ${describeStatuses(tally.statuses)}; greedy: ${describeStatuses(statuses)}`;
    });
    await load.stop();
  } finally {
    await server.stop('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  }

  const rows = results.map((result) => {
    const ms = result.light.map((s) => s.answer.ms);
    const failed = result.light.filter((s) => s.answer.status === 0 || s.answer.status >= 400);
    const errors = failed.length;
    const errorStatuses = new Map<number, number>();
    for (const s of failed) errorStatuses.set(s.answer.status, (errorStatuses.get(s.answer.status) ?? 0) + 1);
    const p99 = percentile(ms, 99);
    const ok = p99 <= GOAL_P99_MS && errors === 0;
    return {
      ok,
      row: [
        result.phase,
        result.light.length,
        `${percentile(ms, 50).toFixed(1)} ms`,
        `${p99.toFixed(1)} ms`,
        `${Math.max(...ms).toFixed(0)} ms`,
        errors === 0 ? '0' : `${errors} (${describeStatuses(errorStatuses)})`,
        result.other,
        ok ? 'met' : 'MISSED',
      ],
    };
  });
  printTable(
    `Ordinary users (GetMeterInfo, a day of a location, /api/health, a static file, each every ${LIGHT_EVERY_MS} ms) for ${PHASE_MS / 1000} s a phase; goal p99 ≤ ${GOAL_P99_MS} ms, no error; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    ['phase', 'requests', 'p50', 'p99', 'max', 'errors', 'what the others got', 'goal'],
    rows.map((r) => r.row),
  );
  if (rows.some((r) => !r.ok)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
