// Fault drill (a): kill -9 the server during a large readings import, restart it, and count.
// `npx tsx bench/drills/kill-during-import.ts` (CM_DRILL_DB=embedded|postgres|both, default both)
//
// While a device ingests small batches and an administrator has already imported some files, a
// large CSV import is cut by SIGKILL at several moments (mid-upload, just after the upload, late in
// the processing). After each restart: every acknowledged reading (import or ingestion) is there,
// the killed file is stored entirely or not at all, no (meter, instant) is stored twice, the
// database opens (no half-written data folder) and re-sending the file completes it exactly.
// Prints a table; exits 1 on failure.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { API_KEY_HEADER, Role } from '@cm/contracts/enums.ts';
import { openDatabase } from '../../apps/server/src/bootstrap.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openPostgres, type Db } from '../../apps/server/src/db/client.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { insertLocation, insertMeter } from '../../apps/server/src/test/factories.ts';
import { insertUser } from '../../apps/server/src/test/test-app.ts';
import { call, login, sleep } from '../lib/http.ts';
import { benchDatabase } from '../lib/postgres.ts';
import type { ServerProcess } from '../../e2e/support/server-process.ts';
import { BENCH_WEB_API_KEY, startBenchServer } from '../lib/server-process.ts';
import { printTable } from '../lib/table.ts';

const METERS = 10;
const BIG_ROWS_PER_METER = Number(process.env.CM_DRILL_ROWS_PER_METER ?? 15_000);
const SMALL_FILES = 4;
const SMALL_ROWS_PER_METER = 200;
const ADMIN = { email: 'admin@drill.cm', password: 'Drill!admin-01' };
const T0 = Date.parse('2024-01-01T00:00:00Z');
const Q = 15 * 60_000;

const log = (message: string) => console.error(`[drill] ${message}`);

interface Target {
  kind: 'embedded' | 'postgres';
  env: Record<string, string>;
  open(): Promise<Db>;
  cleanup(): Promise<void>;
}

async function prepare(kind: Target['kind']): Promise<Target> {
  if (kind === 'embedded') {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cm-drill-kill-'));
    // As CM opens it: starting the embedded server also shuts down one a killed CM left running.
    const open = () =>
      openDatabase(loadConfig({ CM_DATA_DIR: dataDir, DATABASE_STATEMENT_TIMEOUT_MS: '600000' }));
    const db = await open();
    await seed(db);
    await db.close();
    return {
      kind,
      env: { CM_DATA_DIR: dataDir, CM_SEED_DEMO: 'never' },
      open,
      cleanup: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const { url } = await benchDatabase('cm_drill_kill', { recreate: true });
  const db = await openPostgres({ url, poolSize: 2, statementTimeoutMs: 600_000 });
  await seed(db);
  await db.close();
  return {
    kind,
    env: { DATABASE_URL: url, CM_DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'cm-drill-kill-')) },
    open: () => openPostgres({ url, poolSize: 2, statementTimeoutMs: 600_000 }),
    cleanup: async () => {},
  };
}

async function seed(db: Db) {
  await migrate(db);
  await insertUser(db, { ...ADMIN, role: Role.Admin });
  const location = await insertLocation(db, 'Drill site', 'UTC');
  // Meters 1..METERS take imports; meter 0 takes the device's ingestion.
  for (let m = 0; m <= METERS; m += 1) {
    await insertMeter(db, {
      meterNumber: `KM-${m}`,
      locationId: location,
      meterInd: m + 1,
      installedAt: new Date(T0 - 86_400_000),
    });
  }
}

/** CSV of registers for meters 1..METERS over `rows` 15-minute steps from `start` (register rises 0.25 kWh a step). */
function csv(startStep: number, rows: number): string {
  const lines = ['meter_number,timestamp,register_kwh'];
  for (let m = 1; m <= METERS; m += 1) {
    for (let i = startStep; i < startStep + rows; i += 1) {
      lines.push(`KM-${m},${new Date(T0 + i * Q).toISOString()},${(1000 + i * 0.25).toFixed(3)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Posts a file as a stream; `onProgress` sees the bytes sent. Resolves with the status, or 0 when the connection died. */
function upload(
  base: string,
  token: string,
  body: string,
  onProgress: (sent: number) => void,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const url = new URL('/api/admin/imports', base);
    const request = http.request(url, {
      method: 'POST',
      headers: {
        [API_KEY_HEADER]: BENCH_WEB_API_KEY,
        authorization: `Bearer ${token}`,
        'content-type': 'text/csv',
      },
    });
    let answer = '';
    request.on('response', (response) => {
      response.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: answer }));
      response.on('error', () => resolve({ status: 0, body: answer }));
      // A response cut by the kill may only close.
      response.on('close', () =>
        resolve({ status: response.complete ? (response.statusCode ?? 0) : 0, body: answer }),
      );
    });
    request.on('error', () => resolve({ status: 0, body: '' }));
    request.on('close', () => setTimeout(() => resolve({ status: 0, body: '' }), 100));
    const data = Buffer.from(body);
    const chunk = 64 * 1024;
    let offset = 0;
    const writeMore = () => {
      while (offset < data.length) {
        const ok = request.write(data.subarray(offset, offset + chunk));
        offset += chunk;
        onProgress(Math.min(offset, data.length));
        if (!ok) {
          request.once('drain', writeMore);
          return;
        }
      }
      request.end();
    };
    writeMore();
  });
}

/** Uploads, waiting out 503s: a server that is too busy says so (503, Retry-After), as designed. */
async function uploadWhenReady(base: string, token: string, body: string) {
  for (let attempt = 0; ; attempt += 1) {
    const answer = await upload(base, token, body, () => {});
    if (answer.status !== 503 || attempt >= 20) return answer;
    await sleep(1000);
  }
}

async function countRange(db: Db, fromStep: number, rows: number, meters: string[]): Promise<number> {
  const result = await db.query<{ n: number }>(
    `SELECT count(*)::int8 AS n FROM register_readings r JOIN meters m ON m.device_id = r.meter_id
     WHERE m.meter_number = ANY($1) AND r.read_at >= $2 AND r.read_at < $3`,
    [meters, new Date(T0 + fromStep * Q), new Date(T0 + (fromStep + rows) * Q)],
  );
  return result[0]?.n ?? 0;
}

interface Round {
  target: string;
  moment: string;
  ackedImportRows: number;
  ackedIngestRows: number;
  lostAcked: number;
  killedFileRows: string;
  duplicates: number;
  reimport: string;
  ok: boolean;
}

async function drill(kind: Target['kind']): Promise<Round[]> {
  const target = await prepare(kind);
  const importMeters = Array.from({ length: METERS }, (_, i) => `KM-${i + 1}`);
  const rounds: Round[] = [];
  let server: ServerProcess | undefined;
  let step = 0;
  const acked: Array<{ from: number; rows: number }> = [];
  let ingestAcked = 0;
  let ingestStep = 0;
  try {
    server = await startBenchServer(target.env);
    // Time one big import first (acknowledged, so it must survive every later kill too).
    let token = await login(server.url, ADMIN.email, ADMIN.password);
    const keyAnswer = await call(`${server.url}/api/admin/api-keys`, {
      method: 'POST',
      token,
      body: { name: 'Drill device', scopes: ['ingest'] },
    });
    const ingestKey = (JSON.parse(keyAnswer.body) as { key: string }).key;
    log(`${kind}: timing one import of ${BIG_ROWS_PER_METER * METERS} readings`);
    const started = Date.now();
    const first = await upload(server.url, token, csv(step, BIG_ROWS_PER_METER), () => {});
    const fullMs = Date.now() - started;
    if (first.status !== 200) throw new Error(`first import: ${first.status} ${first.body.slice(0, 300)}`);
    acked.push({ from: step, rows: BIG_ROWS_PER_METER });
    step += BIG_ROWS_PER_METER;

    const moments: Array<{
      name: string;
      when: (sentAll: boolean, sinceEnd: number, sent: number, total: number) => boolean;
    }> = [
      { name: 'mid-upload (40 % sent)', when: (_all, _since, sent, total) => sent >= total * 0.4 },
      { name: 'upload just finished', when: (all) => all },
      {
        name: `processing (${Math.round(fullMs * 0.5)} ms after the upload)`,
        when: (all, since) => all && since >= fullMs * 0.5,
      },
      {
        name: `late (${Math.round(fullMs * 0.85)} ms after the upload)`,
        when: (all, since) => all && since >= fullMs * 0.85,
      },
    ];
    for (const moment of moments) {
      log(`${kind}: ${moment.name}`);
      // Acknowledged small files first.
      for (let f = 0; f < SMALL_FILES; f += 1) {
        const answer = await uploadWhenReady(server.url, token, csv(step, SMALL_ROWS_PER_METER));
        if (answer.status !== 200)
          throw new Error(`small import: ${answer.status} ${answer.body.slice(0, 200)}`);
        acked.push({ from: step, rows: SMALL_ROWS_PER_METER });
        step += SMALL_ROWS_PER_METER;
      }
      // A device keeps ingesting during the big import.
      let ingesting = true;
      const device = (async () => {
        const base = server?.url ?? '';
        while (ingesting) {
          const readings = Array.from({ length: 20 }, (_, i) => ({
            meterNumber: 'KM-0',
            readAt: new Date(T0 + (ingestStep + i) * Q).toISOString(),
            register: 10 + (ingestStep + i) * 0.1,
          }));
          const answer = await fetch(`${base}/api/ingest/readings`, {
            method: 'POST',
            headers: { [API_KEY_HEADER]: ingestKey, 'content-type': 'application/json' },
            body: JSON.stringify({ readings }),
          }).then(
            async (response) => ({
              status: response.status,
              body: (await response.json()) as { accepted: number; duplicates: number },
            }),
            () => undefined,
          );
          if (answer?.status === 200) {
            ingestAcked += 20;
            ingestStep += 20;
          } else {
            await sleep(50);
          }
        }
      })();
      const bigFrom = step;
      const body = csv(bigFrom, BIG_ROWS_PER_METER);
      let sentAll = false;
      let endedAt = 0;
      let killed = false;
      const kill = () => {
        if (killed || !server) return;
        killed = true;
        server.child.kill('SIGKILL');
      };
      const result = upload(server.url, token, body, (sent) => {
        if (sent >= body.length && !sentAll) {
          sentAll = true;
          endedAt = Date.now();
        }
        if (moment.when(sentAll, 0, sent, body.length)) kill();
      });
      while (!killed) {
        if (moment.when(sentAll, sentAll ? Date.now() - endedAt : 0, sentAll ? body.length : 0, body.length))
          kill();
        const settled = await Promise.race([result.then(() => true), sleep(5).then(() => false)]);
        if (settled && !killed) break;
      }
      // Answered before the moment came: kill now anyway, the acknowledged file must survive it.
      kill();
      log(`${kind}: killed, waiting for the upload to end`);
      const answer = await result;
      log(`${kind}: upload ended (${answer.status}), stopping the device`);
      ingesting = false;
      await device;
      log(`${kind}: device stopped`);
      await new Promise((resolve) =>
        server?.child.exitCode !== null || server?.child.signalCode !== null
          ? resolve(undefined)
          : server?.child.once('exit', resolve),
      );
      const bigAcked = answer.status === 200;
      if (bigAcked) acked.push({ from: bigFrom, rows: BIG_ROWS_PER_METER });
      step += BIG_ROWS_PER_METER;

      log(`${kind}: counting`);
      // Open the data the killed server left (one CM per embedded data folder, so before restarting) and count.
      const db = await target.open().catch((error: unknown) => {
        throw new Error(`database does not open after the kill: ${String(error)}`);
      });
      let lostAcked = 0;
      let ackedRows = 0;
      for (const file of acked) {
        const want = file.rows * METERS;
        ackedRows += want;
        lostAcked += want - (await countRange(db, file.from, file.rows, importMeters));
      }
      const ingested = await countRange(db, 0, ingestStep, ['KM-0']);
      lostAcked += Math.max(0, ingestAcked - ingested);
      const killedRows = await countRange(db, bigFrom, BIG_ROWS_PER_METER, importMeters);
      const duplicates =
        (
          await db.query<{ n: number }>(
            'SELECT (count(*) - count(DISTINCT (meter_id, channel, read_at)))::int8 AS n FROM register_readings',
          )
        )[0]?.n ?? -1;
      await db.close();
      server = await startBenchServer(target.env);
      token = await login(server.url, ADMIN.email, ADMIN.password);
      const again = await uploadWhenReady(server.url, token, body);
      const report =
        again.status === 200
          ? (JSON.parse(again.body) as { inserted: number; unchanged: number })
          : undefined;
      const want = BIG_ROWS_PER_METER * METERS;
      const isAllOrNothing = killedRows === 0 || killedRows === want;
      const reimportOk =
        !!report && report.inserted + report.unchanged === want && report.unchanged === killedRows;
      rounds.push({
        target: kind,
        moment: `${moment.name}${bigAcked ? ' (answered before the kill)' : ''}`,
        ackedImportRows: ackedRows,
        ackedIngestRows: ingestAcked,
        lostAcked,
        killedFileRows: `${killedRows} of ${want}${isAllOrNothing ? '' : ' (PARTIAL)'}`,
        duplicates,
        reimport: report
          ? `200: ${report.inserted} new, ${report.unchanged} unchanged`
          : `${again.status} ${again.body.slice(0, 80)}`,
        ok: lostAcked === 0 && isAllOrNothing && duplicates === 0 && reimportOk,
      });
      acked.push({ from: bigFrom, rows: BIG_ROWS_PER_METER });
    }
  } finally {
    await server?.stop('SIGTERM');
    await target.cleanup();
  }
  return rounds;
}

async function main() {
  const which = process.env.CM_DRILL_DB ?? 'both';
  const kinds: Array<Target['kind']> =
    which === 'both' ? ['embedded', 'postgres'] : [which === 'postgres' ? 'postgres' : 'embedded'];
  const rounds: Round[] = [];
  for (const kind of kinds) rounds.push(...(await drill(kind)));
  printTable(
    `kill -9 during a ${(BIG_ROWS_PER_METER * METERS).toLocaleString('en')}-reading CSV import, while a device ingests (run ${randomBytes(3).toString('hex')})`,
    [
      'database',
      'killed',
      'acknowledged import rows',
      'acknowledged ingested',
      'acknowledged lost',
      'killed file stored',
      'duplicates',
      'same file again',
      'result',
    ],
    rounds.map((r) => [
      r.target,
      r.moment,
      r.ackedImportRows,
      r.ackedIngestRows,
      r.lostAcked,
      r.killedFileRows,
      r.duplicates,
      r.reimport,
      r.ok ? 'pass' : 'FAIL',
    ]),
  );
  if (rounds.some((r) => !r.ok)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
