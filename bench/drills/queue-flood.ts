// Fault drill (c): flood the request queue. `npx tsx bench/drills/queue-flood.ts`
//
// A real server on PostgreSQL gets FLOOD_CONNECTIONS concurrent clients asking, back to back, for
// a year of raw readings (the heaviest call) for FLOOD_MS. Passing means it degrades instead of
// collapsing: every request gets an HTTP answer (200, or 503 "too busy" with Retry-After, never a
// dropped connection or a 500), none waits past the client timeout, the process stays up, and a
// health probe and a light lookup answer quickly again right after the flood.
// Prints a table; exits 1 on failure.
import { call, login, sleep, type Answer } from '../lib/http.ts';
import { startBenchServer } from '../lib/server-process.ts';
import { prepareSite } from '../lib/site.ts';
import { percentile } from '../lib/stats.ts';
import { printTable } from '../lib/table.ts';

const FLOOD_CONNECTIONS = Number(process.env.CM_DRILL_CONNECTIONS ?? 300);
const FLOOD_MS = Number(process.env.CM_DRILL_FLOOD_MS ?? 20_000);
const CLIENT_TIMEOUT_MS = 30_000;

async function main() {
  const site = await prepareSite('cm_drill_flood', {
    clients: 1,
    locationsPerClient: 2,
    metersPerLocation: 4,
    days: 365,
  });
  // One client at one address opens all the flood's connections: no per-address cap and no per-user
  // turns here (they would answer it 429 first): this drill measures the shared shedding.
  const server = await startBenchServer({
    DATABASE_URL: site.url,
    CM_CONNECTIONS_PER_ADDRESS: '0',
    CM_HEAVY_PER_USER: '1000',
  });
  const client = site.clients[0];
  if (!client) throw new Error('no client');
  const token = await login(server.url, client.email, client.password);
  const heavy = (i: number) =>
    `${server.url}/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=${encodeURIComponent(client.locationNames[i % 2] ?? '')}&From=2025-01-01&To=2025-12-31&granularity=raw&meterInd=${(i % 4) + 1}`;
  const light = `${server.url}/api/CheckMeter/GetMeterInfo?meterNumber=${client.meterNumbers[0] ?? ''}`;

  // Unloaded reference.
  const calm: Answer[] = [];
  for (let i = 0; i < 20; i += 1) calm.push(await call(heavy(i), { token }));

  const flood: Answer[] = [];
  const until = Date.now() + FLOOD_MS;
  const worker = async (i: number) => {
    while (Date.now() < until) {
      const answer = await call(heavy(i), { token, timeoutMs: CLIENT_TIMEOUT_MS });
      flood.push(answer);
      if (answer.status === 503) await sleep(200);
    }
  };
  // A health probe and a light lookup keep asking during the flood.
  const probes: Answer[] = [];
  const probe = (async () => {
    while (Date.now() < until) {
      probes.push(await call(light, { token, timeoutMs: CLIENT_TIMEOUT_MS }));
      await sleep(500);
    }
  })();
  await Promise.all([...Array.from({ length: FLOOD_CONNECTIONS }, (_, i) => worker(i)), probe]);
  const afterStarted = Date.now();
  let recovered: Answer | undefined;
  while (Date.now() - afterStarted < 30_000) {
    const answer = await call(light, { token, timeoutMs: 5_000 });
    if (answer.status === 200 && answer.ms < 200) {
      recovered = answer;
      break;
    }
    await sleep(250);
  }
  const recoveryMs = Date.now() - afterStarted;
  const alive = server.child.exitCode === null && server.child.signalCode === null;
  await server.stop();

  const count = (list: Answer[], predicate: (a: Answer) => boolean) => list.filter(predicate).length;
  const ok = flood.filter((a) => a.status === 200);
  const busy = flood.filter((a) => a.status === 503);
  const failed = flood.filter((a) => a.status !== 200 && a.status !== 503);
  const busyHasRetry = busy.every((a) => a.body.includes('too busy') || a.body.includes('not reachable'));
  const ms = (list: Answer[]) => list.map((a) => a.ms);
  printTable(
    `Request flood: ${FLOOD_CONNECTIONS} connections asking for a year of raw readings for ${FLOOD_MS / 1000} s`,
    ['phase', 'answers', '200', '503 busy', 'other / dropped', 'p50', 'p99', 'slowest'],
    [
      [
        'calm (1 connection)',
        calm.length,
        count(calm, (a) => a.status === 200),
        0,
        count(calm, (a) => a.status !== 200),
        `${percentile(ms(calm), 50).toFixed(0)} ms`,
        `${percentile(ms(calm), 99).toFixed(0)} ms`,
        `${Math.max(...ms(calm)).toFixed(0)} ms`,
      ],
      [
        'flood',
        flood.length,
        ok.length,
        busy.length,
        failed.length,
        `${percentile(ms(flood), 50).toFixed(0)} ms`,
        `${percentile(ms(flood), 99).toFixed(0)} ms`,
        `${Math.max(...ms(flood)).toFixed(0)} ms`,
      ],
      [
        'light lookup during flood',
        probes.length,
        count(probes, (a) => a.status === 200),
        count(probes, (a) => a.status === 503),
        count(probes, (a) => a.status !== 200 && a.status !== 503),
        `${percentile(ms(probes), 50).toFixed(0)} ms`,
        `${percentile(ms(probes), 99).toFixed(0)} ms`,
        `${Math.max(0, ...ms(probes)).toFixed(0)} ms`,
      ],
    ],
  );
  const checks: Array<[string, boolean, string]> = [
    [
      'every request got an HTTP answer (no drop, no timeout, no 500)',
      failed.length === 0,
      failed
        .slice(0, 3)
        .map((a) => a.error ?? `${a.status}`)
        .join(', ') || 'none',
    ],
    [
      'it sheds load with 503 "too busy" and keeps the wait of the answered ones bounded (p99 ≤ 5 s)',
      busy.length > 0 && percentile(ms(ok), 99) <= 5_000,
      `${busy.length} × 503; answered p99 ${percentile(ms(ok), 99).toFixed(0)} ms`,
    ],
    ['503 answers say what to do', busyHasRetry, busyHasRetry ? 'message asks to retry' : 'other message'],
    ['it still served some of the heavy requests', ok.length > 0, `${ok.length} × 200`],
    ['process stayed up', alive, alive ? 'running' : 'exited'],
    [
      'light lookups answer fast again after the flood',
      !!recovered,
      recovered ? `${recoveryMs} ms after the flood (${recovered.ms.toFixed(0)} ms)` : 'not within 30 s',
    ],
  ];
  printTable(
    'Checks',
    ['check', 'result', 'detail'],
    checks.map(([name, pass, detail]) => [name, pass ? 'pass' : 'FAIL', detail]),
  );
  if (checks.some(([, pass]) => !pass)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
