// Scale-out drill: `npm run drill:scale-out` (root, PostgreSQL 15 at 127.0.0.1:5432; run by .ci/run).
//
// Sets up a real streaming standby of the local cluster (pg_createcluster + pg_basebackup on port
// 5434), starts two CM processes on the same database, both reading the check page from the
// standby (DATABASE_REPLICA_URLS), and a round-robin proxy in front of them that carries a steady
// client load for the whole drill. Then it checks, writing through one process and reading through
// the other: sessions and sign-out, sign-in throttling, API-key revocation, the chunk cache after a
// correction, reads of one's own writes, replica reads and their bounded lag (replay paused), and a
// replica that goes away and comes back. Prints a table; exits 1 when a check fails. The standby
// cluster is dropped at the end, whatever happens.
import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_KEY_HEADER } from '@cm/contracts/enums.ts';
import { timesOf } from '@cm/contracts/series-columns.ts';
import { sleep } from '../lib/http.ts';
import { BENCH_WEB_API_KEY, startBenchServer } from '../lib/server-process.ts';
import { prepareSite, READINGS_END } from '../lib/site.ts';
import { printTable } from '../lib/table.ts';

const VERSION = '15';
const STANDBY = 'cmdrillstandby';
const STANDBY_PORT = 5434;
const STANDBY_DATA = `/var/lib/postgresql/${VERSION}/${STANDBY}`;
const PRIMARY_HBA = `/etc/postgresql/${VERSION}/main/pg_hba.conf`;
const MAX_LAG_MS = 1_000;

const run = (command: string, args: string[]) =>
  execFileSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
const quietly = (command: string, args: string[]) => {
  try {
    run(command, args);
  } catch {
    // Absent already.
  }
};

function dropStandby() {
  quietly('pg_dropcluster', ['--stop', VERSION, STANDBY]);
  rmSync(STANDBY_DATA, { recursive: true, force: true });
}

/** A streaming standby of the main cluster at 127.0.0.1:5434, its data copied by pg_basebackup. */
function createStandby() {
  if (
    !readFileSync(PRIMARY_HBA, 'utf8')
      .split('\n')
      .some((line) => /^host\s+replication\s/.test(line))
  ) {
    appendFileSync(
      PRIMARY_HBA,
      '\n# CM scale-out drill: a local standby streams from here.\nhost replication all 127.0.0.1/32 trust\n',
    );
    run('pg_ctlcluster', ['--skip-systemctl-redirect', VERSION, 'main', 'reload']);
  }
  dropStandby();
  run('pg_createcluster', [VERSION, STANDBY, '-p', String(STANDBY_PORT)]);
  rmSync(STANDBY_DATA, { recursive: true, force: true });
  run('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    '5432',
    '-U',
    'root',
    '-D',
    STANDBY_DATA,
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
  ]);
  run('chown', ['-R', 'postgres:postgres', STANDBY_DATA]);
  run('chmod', ['700', STANDBY_DATA]);
  writeFileSync(
    `/etc/postgresql/${VERSION}/${STANDBY}/pg_hba.conf`,
    'local all all trust\nhost all all 127.0.0.1/32 trust\n',
  );
  standby('start');
}

/** Runs one statement on the standby. */
const onStandby = (sql: string) =>
  run('psql', ['-h', '127.0.0.1', '-p', String(STANDBY_PORT), '-U', 'root', '-d', 'postgres', '-Atc', sql]);

const standby = (action: 'start' | 'stop') =>
  run('pg_ctlcluster', [
    '--skip-systemctl-redirect',
    VERSION,
    STANDBY,
    action,
    ...(action === 'stop' ? ['-m', 'fast'] : []),
  ]);

interface Reply {
  status: number;
  body: string;
  headers: Headers;
}

async function send(
  base: string,
  path: string,
  options: { method?: string; token?: string; apiKey?: string; body?: unknown; cookie?: string } = {},
): Promise<Reply> {
  const response = await fetch(`${base}${path}`, {
    method: options.method ?? 'GET',
    headers: {
      [API_KEY_HEADER]: options.apiKey ?? BENCH_WEB_API_KEY,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: await response.text(), headers: response.headers };
}

/** A reverse proxy on loopback that sends each request to the next process in turn. */
async function roundRobinProxy(targets: string[]) {
  let next = 0;
  const server = http.createServer((request, response) => {
    const target = new URL(targets[next++ % targets.length] ?? '');
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: request.url,
        method: request.method,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      response.writeHead(502);
      response.end();
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const results: [string, string, boolean][] = [];
function check(name: string, seen: string, passed: boolean) {
  results.push([name, seen, passed]);
  console.log(`${passed ? 'ok  ' : 'FAIL'} ${name}: ${seen}`);
}

async function main() {
  const site = await prepareSite('cm_drill_scale_out', {
    clients: 1,
    locationsPerClient: 1,
    metersPerLocation: 2,
    days: 60,
  });
  const client = site.clients[0];
  const meterNumber = client?.meterNumbers[0];
  const locationName = client?.locationNames[0];
  if (!client || !meterNumber || !locationName) throw new Error('no client');
  createStandby();
  const replicaUrl = new URL(site.url);
  replicaUrl.port = String(STANDBY_PORT);
  const env = {
    DATABASE_URL: site.url,
    DATABASE_REPLICA_URLS: replicaUrl.toString(),
    DATABASE_REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
    CM_ALERT_EVERY_SECONDS: '86400',
  };
  const a = await startBenchServer(env);
  const b = await startBenchServer(env);
  const proxy = await roundRobinProxy([a.url, b.url]);
  let load: Promise<void> | undefined;
  let running = true;
  const loadAnswers: number[] = [];
  try {
    // A client's page through the proxy all along: every answer must be a 200.
    const loadToken = await send(proxy.url, '/api/auth/login', {
      method: 'POST',
      body: { email: client.email, password: client.password },
    });
    const pageToken = (JSON.parse(loadToken.body) as { token: string }).token;
    load = (async () => {
      while (running) {
        const answer = await send(proxy.url, `/api/CheckMeter/GetMeterInfo?meterNumber=${meterNumber}`, {
          token: pageToken,
        }).catch(() => ({ status: 0 }) as Reply);
        loadAnswers.push(answer.status);
        await sleep(20);
      }
    })();

    // Sessions: signed in through A, known to B; signed out through A, refused by B.
    const signIn = await send(a.url, '/api/auth/login', {
      method: 'POST',
      body: { email: client.email, password: client.password },
    });
    const token = (JSON.parse(signIn.body) as { token: string }).token;
    const onB = await send(b.url, '/api/auth/me', { token });
    const out = await send(a.url, '/api/auth/logout', { method: 'POST', token });
    const afterOut = await send(b.url, '/api/auth/me', { token });
    check(
      'session from A used on B; signed out on A, refused on B',
      `${onB.status} then ${out.status}, ${afterOut.status}`,
      onB.status === 200 && afterOut.status === 401,
    );

    // Throttling: wrong passwords through A block the account at this address on B too.
    for (let i = 0; i < 6; i++)
      await send(a.url, '/api/auth/login', {
        method: 'POST',
        body: { email: client.email, password: `wrong-${i}-password` },
      });
    const blocked = await send(b.url, '/api/auth/login', {
      method: 'POST',
      body: { email: client.email, password: 'still-wrong-password' },
    });
    check(
      'sign-in throttling counted across processes',
      `6 failures on A, then ${blocked.status} on B`,
      blocked.status === 429,
    );

    const adminToken = (
      JSON.parse((await send(a.url, '/api/auth/login', { method: 'POST', body: site.admin })).body) as {
        token: string;
      }
    ).token;
    // API-key revocation: a key made and revoked through A stops working on B at once.
    const newKey = async (name: string) =>
      JSON.parse(
        (
          await send(a.url, '/api/admin/api-keys', {
            method: 'POST',
            token: adminToken,
            body: { name, scopes: ['ingest'] },
          })
        ).body,
      ) as { key: string; apiKey: { id: number } };
    const made = await newKey('drill device, revoked');
    const device = await newKey('drill device');
    const when = new Date(Date.parse(READINGS_END) - 20 * 86_400_000);
    const reading = (register: number) => ({
      corrections: true,
      readings: [{ meterNumber, readAt: when.toISOString(), register }],
    });
    const beforeRevoke = await send(b.url, '/api/ingest/readings', {
      method: 'POST',
      apiKey: made.key,
      body: reading(1),
    });
    await send(a.url, `/api/admin/api-keys/${made.apiKey.id}/revoke`, { method: 'POST', token: adminToken });
    const afterRevoke = await send(b.url, '/api/ingest/readings', {
      method: 'POST',
      apiKey: made.key,
      body: reading(1),
    });
    check(
      'API key revoked on A is refused on B at once',
      `${beforeRevoke.status} before, ${afterRevoke.status} after`,
      beforeRevoke.status === 200 && afterRevoke.status === 401,
    );

    // Chunk cache and one's own writes: B reads a settled month (chunk built and decoded), the
    // admin corrects a register through A, and B, given the write's position, answers the new value.
    const day = when.toISOString().slice(0, 10);
    const readPath = `/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=${encodeURIComponent(locationName)}&meterInd=1&From=${day}&To=${day}&granularity=raw`;
    const registerAt = (body: string) => {
      const answer = JSON.parse(body) as {
        meters: {
          series: { tRuns: { start: number[]; step: number[]; count: number[] }; value: (number | null)[] };
        }[];
      };
      const series = answer.meters[0]?.series;
      const index = series ? timesOf(series.tRuns).indexOf(when.getTime()) : -1;
      return index < 0 ? undefined : series?.value[index];
    };
    const first = await send(b.url, readPath, { token: adminToken });
    const original = registerAt(first.body);
    // Between its neighbours (a register never goes down): 10 Wh lower, then 20 Wh.
    const corrected = Math.round(((original ?? 0) - 0.01) * 1000) / 1000;
    const again = Math.round(((original ?? 0) - 0.02) * 1000) / 1000;
    const write = await send(a.url, '/api/ingest/readings', {
      method: 'POST',
      apiKey: device.key,
      body: reading(corrected),
    });
    const cookie = write.headers.get('set-cookie')?.split(';')[0] ?? '';
    const position = write.headers.get('x-cm-wal-position');
    const own = await send(b.url, readPath, { token: adminToken, cookie });
    check(
      'a correction through A is read through B at once (chunk rebuilt, own write seen)',
      `${original} → ${registerAt(own.body)} (write at ${position}, read from ${own.headers.get('x-cm-read-from')})`,
      write.status === 200 && registerAt(own.body) === corrected && cookie.startsWith('cm_wal='),
    );

    // Replica reads: once the standby has replayed it, the same read comes from the replica.
    await sleep(1_500);
    const later = await send(b.url, readPath, { token: pageToken, cookie });
    check(
      'check page reads go to the replica once it caught up',
      `read from ${later.headers.get('x-cm-read-from')}, value ${registerAt(later.body)}`,
      later.headers.get('x-cm-read-from') === 'replica-1' && registerAt(later.body) === corrected,
    );

    // Bounded lag: replay paused on the standby while the primary writes; past the bound the
    // replica is "lagging" and reads go to the primary; resumed, it is read from again.
    onStandby('SELECT pg_wal_replay_pause()');
    await send(a.url, '/api/ingest/readings', {
      method: 'POST',
      apiKey: device.key,
      body: reading(again),
    });
    await sleep(MAX_LAG_MS + 1_500);
    const lagging = JSON.parse((await send(a.url, '/api/health')).body) as {
      database: { replicas: { state: string; lagMs: number }[] };
    };
    const whileLagging = await send(a.url, readPath, { token: pageToken });
    onStandby('SELECT pg_wal_replay_resume()');
    await sleep(1_500);
    const caughtUp = JSON.parse((await send(a.url, '/api/health')).body) as {
      database: { replicas: { state: string; lagMs: number }[] };
    };
    const lag = lagging.database.replicas[0];
    check(
      `a replica more than ${MAX_LAG_MS} ms behind is not read; shown in health`,
      `health ${lag?.state} (${lag?.lagMs} ms), read from ${whileLagging.headers.get('x-cm-read-from')} (${registerAt(whileLagging.body)}); resumed: ${caughtUp.database.replicas[0]?.state}`,
      lag?.state === 'lagging' &&
        (lag.lagMs ?? 0) > MAX_LAG_MS &&
        whileLagging.headers.get('x-cm-read-from') === 'primary' &&
        registerAt(whileLagging.body) === again &&
        caughtUp.database.replicas[0]?.state === 'ok',
    );

    // The replica goes away: reads go to the primary without an error; it comes back: read again.
    standby('stop');
    const duringOutage = await send(b.url, readPath, { token: pageToken });
    await sleep(1_000);
    const down = JSON.parse((await send(b.url, '/api/health')).body) as {
      status: string;
      database: { replicas: { state: string }[] };
    };
    standby('start');
    let back = '';
    for (let i = 0; i < 30 && back !== 'replica-1'; i++) {
      await sleep(500);
      back = (await send(b.url, readPath, { token: pageToken })).headers.get('x-cm-read-from') ?? '';
    }
    check(
      'a replica that goes away sends reads to the primary, and is used again when back',
      `${duringOutage.status} from ${duringOutage.headers.get('x-cm-read-from')}; health ${down.status}, replica ${down.database.replicas[0]?.state}; back: ${back}`,
      duringOutage.status === 200 &&
        duringOutage.headers.get('x-cm-read-from') === 'primary' &&
        down.status === 'ok' &&
        down.database.replicas[0]?.state === 'down' &&
        back === 'replica-1',
    );
  } finally {
    running = false;
    await load;
    const failed = loadAnswers.filter((status) => status !== 200).length;
    check(
      'steady client load through the proxy to both processes',
      `${loadAnswers.length} answers, ${failed} not 200`,
      loadAnswers.length > 0 && failed === 0,
    );
    await proxy.close();
    await a.stop();
    await b.stop();
    dropStandby();
  }
  printTable(
    'Scale-out drill: two CM processes, a streaming standby, a round-robin proxy',
    ['check', 'seen', 'result'],
    results.map(([name, seen, passed]) => [name, seen, passed ? 'pass' : 'FAIL']),
  );
  if (results.some(([, , passed]) => !passed)) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error);
  dropStandby();
  process.exit(1);
});
