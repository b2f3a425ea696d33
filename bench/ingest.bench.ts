// Ingest benchmark (issue 6): generates a 1,000,000-row CSV, imports it into a fresh PostgreSQL
// database through the import service, compares with two plain COPYs of the same rows (into a
// bare unlogged table, and into readings itself with its key, foreign key and trigger), samples the
// process's peak RSS during the import, and measures the ingest API in batches of 1,000.
// Prints the detailed table, then the summary table `npm run bench` collects; asserts nothing. Run: npm run bench:ingest (needs postgres://root@127.0.0.1:5432).
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { API_KEY_HEADER } from '@cm/contracts/enums.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openPostgres } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { createApiKey } from '../apps/server/src/modules/api-keys/api-keys.service.ts';
import { ImportsService } from '../apps/server/src/modules/imports/imports.service.ts';
import { printTable } from './lib/table.ts';

const ADMIN_URL = process.env.CM_BENCH_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const METERS = 100;
const ROWS_PER_METER = 10_000;
const ROWS = METERS * ROWS_PER_METER;
const INGEST_BATCHES = 50;
const INGEST_BATCH_SIZE = 1000;
const START_MS = Date.parse('2025-01-01T00:00:00Z');
const STEP_MS = 15 * 60_000;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const rate = (rows: number, ms: number) => `${Math.round(rows / (ms / 1000)).toLocaleString('en-US')} rows/s`;

// The CSV, and the same rows as register_readings' own COPY text (meter id, channel, instant, mWh, source, quality).
async function generateCsv(file: string, resolvedFile: string, meterIds: readonly number[]): Promise<void> {
  const resolved = createWriteStream(resolvedFile);
  async function* lines() {
    yield 'meter_number,timestamp,register_kwh\n';
    for (let m = 0; m < METERS; m++) {
      let chunk = '';
      let copyChunk = '';
      let register = 1000 * m;
      for (let i = 0; i < ROWS_PER_METER; i++) {
        register += 0.05 + ((i * 7919 + m) % 97) / 1000;
        const at = new Date(START_MS + i * STEP_MS).toISOString();
        const kwh = register.toFixed(3);
        chunk += `BM-${String(m).padStart(4, '0')},${at},${kwh}\n`;
        copyChunk += `${meterIds[m] ?? 0}\t1\t${at}\t${kwh.replace('.', '')}000\t1\t0\n`;
        if (i % 2000 === 1999) {
          resolved.write(copyChunk);
          copyChunk = '';
          yield chunk;
          chunk = '';
        }
      }
      resolved.write(copyChunk);
      if (chunk) yield chunk;
    }
  }
  await pipeline(lines, createWriteStream(file));
  await new Promise<void>((resolve, reject) =>
    resolved.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

async function main() {
  const name = `cm_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const db = await openPostgres({ url: url.toString(), poolSize: 4, statementTimeoutMs: 600_000 });
  const dir = await mkdtemp(path.join(tmpdir(), 'cm-bench-'));
  const rows: Array<[string, string]> = [];
  const summary: string[][] = [];
  try {
    await migrate(db);
    const [location] = await db.query<{ id: number }>(
      `INSERT INTO locations (public_name, time_zone) VALUES ('Bench site', 'Europe/Berlin') RETURNING id`,
    );
    const meterIds: number[] = [];
    for (let m = 0; m < METERS; m++) {
      const number = `BM-${String(m).padStart(4, '0')}`;
      const [device] = await db.query<{ id: number }>(
        `INSERT INTO devices (type, serial, location_id) VALUES (3, $1, $2) RETURNING id`,
        [number, location?.id],
      );
      await db.query(
        `INSERT INTO meters (device_id, meter_number, location_id, meter_ind, register_digits, installed_at)
         VALUES ($1, $2, $3, $4, 8, '2024-01-01T00:00:00Z')`,
        [device?.id, number, location?.id, m + 1],
      );
      meterIds.push(device?.id ?? 0);
    }

    const file = path.join(dir, 'readings.csv');
    const resolvedFile = path.join(dir, 'readings.copy');
    let t0 = performance.now();
    await generateCsv(file, resolvedFile, meterIds);
    rows.push([
      'CSV generated',
      `${ROWS.toLocaleString('en-US')} rows, ${mb(statSync(file).size)} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    ]);

    // Plain COPY of the same file into a bare table: the floor no validating import can beat.
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    await client.query(
      'CREATE UNLOGGED TABLE plain_copy (meter_number text, read_at timestamptz, register_kwh numeric)',
    );
    t0 = performance.now();
    await pipeline(
      createReadStream(file),
      client.query(copyFrom('COPY plain_copy FROM STDIN WITH (FORMAT csv, HEADER true)')),
    );
    const bareCopyMs = performance.now() - t0;
    rows.push([
      'plain COPY, bare unlogged table',
      `${(bareCopyMs / 1000).toFixed(1)} s, ${rate(ROWS, bareCopyMs)}`,
    ]);

    // The same rows, already resolved to meter ids and mWh, COPYed into register_readings itself:
    // primary key, the foreign key to meters (checked row by row) and the chunk trigger, WAL-logged.
    // This is the floor for storing them; then the table is emptied again for the import.
    await client.query("SELECT cm_ensure_reading_partitions('2024-01-01T00:00:00Z', now())");
    t0 = performance.now();
    await client.query('BEGIN');
    await pipeline(
      createReadStream(resolvedFile),
      client.query(
        copyFrom(
          'COPY register_readings (meter_id, channel, read_at, value_micro, source, quality) FROM STDIN',
        ),
      ),
    );
    await client.query('COMMIT');
    const copyMs = performance.now() - t0;
    await client.query('TRUNCATE register_readings');
    await client.query('CHECKPOINT');
    await client.end();
    rows.push([
      'plain COPY into register_readings',
      `${(copyMs / 1000).toFixed(1)} s, ${rate(ROWS, copyMs)}`,
    ]);

    // The import service, as POST /api/admin/imports runs it, with RSS sampled meanwhile.
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peakRss = rssBefore;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 25);
    t0 = performance.now();
    const report = await new ImportsService(db).importReadings(
      { userId: null, apiKeyId: null },
      { open: () => createReadStream(file) },
      {
        format: 'csv',
        strict: false,
        corrections: false,
      },
    );
    const importMs = performance.now() - t0;
    clearInterval(sampler);
    rows.push([
      'import service (COPY staging)',
      `${(importMs / 1000).toFixed(1)} s, ${rate(report.inserted, importMs)}`,
    ]);
    rows.push([
      '  vs COPY into readings',
      `${(importMs / copyMs).toFixed(1)}× the time, ${((copyMs / importMs) * 100).toFixed(0)} % of its throughput (target ≥ 60 %)`,
    ]);
    rows.push([
      '  vs bare COPY',
      `${(importMs / bareCopyMs).toFixed(1)}× the time, ${((bareCopyMs / importMs) * 100).toFixed(0)} % of its throughput`,
    ]);
    rows.push([
      '  report',
      `read ${report.rowsRead}, inserted ${report.inserted}, rejected ${report.rejectedCount}`,
    ]);
    rows.push(['process RSS before → peak', `${mb(rssBefore)} → ${mb(peakRss)} (target < 300 MB)`]);
    summary.push(
      [
        `import of a ${ROWS.toLocaleString('en-US')}-row CSV (import service)`,
        '≥ 60 % of plain COPY',
        `${(importMs / 1000).toFixed(1)} s, ${rate(report.inserted, importMs)}`,
        `plain COPY into readings: ${(copyMs / 1000).toFixed(1)} s, ${rate(ROWS, copyMs)}`,
        `${((copyMs / importMs) * 100).toFixed(0)} % of its throughput`,
      ],
      [
        'peak RSS of the process during the import',
        '< 300 MB',
        mb(peakRss),
        `before the import: ${mb(rssBefore)}`,
        `+${mb(peakRss - rssBefore)}`,
      ],
    );

    t0 = performance.now();
    const again = await new ImportsService(db).importReadings(
      { userId: null, apiKeyId: null },
      { open: () => createReadStream(file) },
      {
        format: 'csv',
        strict: false,
        corrections: false,
      },
    );
    const againMs = performance.now() - t0;
    rows.push([
      're-import (all unchanged)',
      `${(againMs / 1000).toFixed(1)} s, unchanged ${again.unchanged}, inserted ${again.inserted}`,
    ]);

    // The ingest API over HTTP, batches of 1,000 new readings.
    const app = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent', CM_WEB_DIST: '/nonexistent' }),
      db,
      webApiKey: 'unused-web-key-unused-web-key',
      jwtSecret: 'bench-secret-bench-secret-bench-secret-0',
    });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const { key } = await createApiKey(db, 'Bench gateway', ['ingest']);
    const after = START_MS + ROWS_PER_METER * STEP_MS;
    t0 = performance.now();
    let accepted = 0;
    for (let b = 0; b < INGEST_BATCHES; b++) {
      const readings = Array.from({ length: INGEST_BATCH_SIZE }, (_v, i) => {
        const meter = (b * INGEST_BATCH_SIZE + i) % METERS;
        const step = Math.floor((b * INGEST_BATCH_SIZE + i) / METERS);
        return {
          meterNumber: `BM-${String(meter).padStart(4, '0')}`,
          readAt: new Date(after + step * STEP_MS).toISOString(),
          register: 1_000_000 + step,
        };
      });
      const response = await fetch(`${address}/api/ingest/readings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [API_KEY_HEADER]: key },
        body: JSON.stringify({ readings }),
      });
      const body = (await response.json()) as { accepted: number };
      accepted += body.accepted;
    }
    const ingestMs = performance.now() - t0;
    await app.close();
    rows.push([
      `ingest API (${INGEST_BATCHES} × ${INGEST_BATCH_SIZE})`,
      `${(ingestMs / 1000).toFixed(1)} s, ${rate(accepted, ingestMs)} (${accepted} accepted)`,
    ]);
    summary.push([
      `ingest API over HTTP, ${INGEST_BATCHES} batches of ${INGEST_BATCH_SIZE.toLocaleString('en-US')}`,
      'report rows/s',
      rate(accepted, ingestMs),
      `import service: ${rate(report.inserted, importMs)}`,
      `${((accepted / ingestMs / (report.inserted / importMs)) * 100).toFixed(0)} % of its throughput`,
    ]);
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
    const dropper = new pg.Client({ connectionString: ADMIN_URL });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropper.end();
  }
  printTable(`Ingest benchmark, details (PostgreSQL, Node ${process.version})`, ['step', 'result'], rows);
  printTable('Ingest benchmark', ['measure', 'target', 'CM', 'baseline', 'ratio'], summary);
}

await main();
