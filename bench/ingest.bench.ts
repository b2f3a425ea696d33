// Ingest benchmark (issue 6): generates a 1,000,000-row CSV, imports it into a fresh PostgreSQL
// database through the import service, compares with two plain COPYs of the same rows (into a
// bare unlogged table, and into readings itself with its key, foreign key and trigger), samples the
// process's peak RSS during the import, and measures the ingest API in batches of 1,000. Then the
// mapped path: a 1,000,000-row delimited file as utilities write them (semicolons, decimal commas,
// local dates and times in separate columns, Wh per interval, a status column) imported with a
// column mapping, on this PostgreSQL and on the embedded one, each with its peak RSS.
// Then AEMO's NEM12 as retailers send it, zipped (1,103,040 intervals: 99 NMIs of 30-minute data for
// 210 days and one of 5-minute data for a year), uploaded, started and run as an import job over
// HTTP; and the export of that 5-minute meter's year (105,120 intervals) as CSV and ESPI, streamed,
// with rows/s and peak RSS.
// Prints the detailed table, then the summary table `npm run bench` collects; asserts nothing. Run: npm run bench:ingest (needs postgres://root@127.0.0.1:5432).
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { API_KEY_HEADER, Role } from '@cm/contracts/enums.ts';
import type { DelimitedMapping } from '@cm/contracts/import-mapping.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openPostgres, type Db } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { createApiKey } from '../apps/server/src/modules/api-keys/api-keys.service.ts';
import { ImportsService, type ImportOptions } from '../apps/server/src/modules/imports/imports.service.ts';
import { insertLocation, insertMeter } from '../apps/server/src/test/factories.ts';
import { insertUser, TEST_SECRETS } from '../apps/server/src/test/test-app.ts';
import { nem12File, type Nem12Stream } from './lib/nem12-file.ts';
import { withEmbeddedPostgres } from './lib/postgres.ts';
import { zipOf } from './lib/zip-file.ts';
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

// Berlin's offset over the mapped file's span (1 January to mid-April 2025): CET until summer time
// began on 30 March 2025 at 01:00 UTC, CEST after. Local times are written as a utility's export
// writes them; converting from UTC never produces the skipped hour.
const SUMMER_TIME_FROM = Date.parse('2025-03-30T01:00:00Z');
const pad2 = (n: number) => String(n).padStart(2, '0');

/** The mapped layout: `Zähler;Datum;Uhrzeit;Verbrauch (Wh);Status`, interval starts in local time. */
async function generateMappedCsv(file: string): Promise<void> {
  async function* lines() {
    yield 'Zähler;Datum;Uhrzeit;Verbrauch (Wh);Status\n';
    for (let m = 0; m < METERS; m++) {
      let chunk = '';
      for (let i = 0; i < ROWS_PER_METER; i++) {
        const at = START_MS + i * STEP_MS;
        const local = new Date(at + (at >= SUMMER_TIME_FROM ? 2 : 1) * 3_600_000);
        const date = `${pad2(local.getUTCDate())}.${pad2(local.getUTCMonth() + 1)}.${local.getUTCFullYear()}`;
        const time = `${pad2(local.getUTCHours())}:${pad2(local.getUTCMinutes())}`;
        const wh = `${50 + ((i * 7919 + m) % 97)},${(i + m) % 10}`;
        chunk += `BM-${String(m).padStart(4, '0')};${date};${time};${wh};${i % 3000 === 5 ? 'E' : 'A'}\n`;
        if (i % 2000 === 1999) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk) yield chunk;
    }
  }
  await pipeline(lines, createWriteStream(file));
}

const MAPPING: DelimitedMapping = {
  delimiter: ';',
  decimal: ',',
  skipLines: 0,
  header: true,
  time: { column: 'Datum', timeColumn: 'Uhrzeit', layout: 'dmy', stamp: 'start', endInclusiveMinute: false },
  timeZone: 'Europe/Berlin',
  intervalMinutes: 15,
  value: { column: 'Verbrauch (Wh)', unit: 'Wh', kind: 'interval' },
  missingValues: [],
  meter: { column: 'Zähler' },
  channel: { fixed: 'import' },
  quality: { column: 'Status', estimated: ['E'], substituted: [] },
};

/** Bench site with the 100 meters both files name; their device ids. */
async function createMeters(db: Db): Promise<number[]> {
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
  return meterIds;
}

/** Samples this process's RSS every 25 ms until `stop`: the peak, and the value at the start. */
function rssSampler() {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 25);
  return {
    before,
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

/**
 * Imports `file` through the import service, as POST /api/admin/imports runs it, sampling the
 * process's RSS meanwhile and noting when each phase began: reading (parse and stage), checking
 * (against what is stored), storing.
 */
async function measuredImport(db: Db, file: string, read: Pick<ImportOptions, 'format' | 'mapping'>) {
  const rss = rssSampler();
  const phases = new Map<string, number>();
  const t0 = performance.now();
  try {
    const report = await new ImportsService(db).importReadings(
      { userId: null, apiKeyId: null },
      { open: () => createReadStream(file) },
      {
        ...read,
        strict: false,
        corrections: false,
        onProgress: ({ phase }) => {
          if (!phases.has(phase)) phases.set(phase, performance.now() - t0);
        },
      },
    );
    const ms = performance.now() - t0;
    const ends = [...phases.values(), ms];
    const phaseText = [...phases.keys()]
      .map((phase, i) => `${phase} ${(((ends[i + 1] ?? 0) - (ends[i] ?? 0)) / 1000).toFixed(1)} s`)
      .join(', ');
    return { report, ms, rssBefore: rss.before, peakRss: rss.stop(), phaseText };
  } finally {
    rss.stop();
  }
}

const NEM12_STREAMS: Nem12Stream[] = [
  ...Array.from({ length: 99 }, (_v, i) => ({
    nmi: `BN${String(i).padStart(8, '0')}`,
    intervalMinutes: 30,
    days: 210,
  })),
  { nmi: 'BN00000099', intervalMinutes: 5, days: 365 },
];
const EXPORT_NMI = 'BN00000099';

/**
 * The zipped NEM12 file through the import-job routes (upload, start, poll), then the export of one
 * meter's year as CSV and ESPI, over HTTP on the server in this process.
 */
async function nem12AndExport(db: Db, rows: Array<[string, string]>, summary: string[][]) {
  const generated = nem12File(NEM12_STREAMS, '2025-01-01');
  const text = Buffer.from(generated.text);
  const zipped = zipOf('bench-nem12.csv', text);
  rows.push([
    'NEM12 generated',
    `${generated.intervals.toLocaleString('en-US')} intervals, ${mb(text.length)}, zipped ${mb(zipped.length)}; ${(generated.totalWh / 1000).toLocaleString('en-US')} kWh in all`,
  ]);
  for (const [i, stream] of NEM12_STREAMS.entries()) {
    const locationId = await insertLocation(db, `NEM12 bench ${i}`, 'Australia/Brisbane');
    await insertMeter(db, {
      meterNumber: stream.nmi,
      locationId,
      meterInd: 1,
      intervalMinutes: stream.intervalMinutes,
      installedAt: new Date('2024-12-01T00:00:00Z'),
    });
  }
  await insertUser(db, { email: 'bench@bench.cm', password: 'Bench!admin-2026', role: Role.Admin });
  const { key } = await createApiKey(db, 'Bench web', ['web']);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cm-bench-nem12-'));
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent', CM_WEB_DIST: '/nonexistent', CM_DATA_DIR: dataDir }),
    db,
    webApiKey: key,
    jwtSecret: 'bench-secret-bench-secret-bench-secret-0',
    secrets: TEST_SECRETS,
  });
  try {
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const ask = async (method: string, url: string, body?: unknown, token?: string) => {
      const response = await fetch(`${base}${url}`, {
        method,
        headers: {
          [API_KEY_HEADER]: key,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body instanceof Buffer
            ? { 'content-type': 'application/octet-stream' }
            : body !== undefined
              ? { 'content-type': 'application/json' }
              : {}),
        },
        ...(body instanceof Buffer ? { body } : body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const answer = (await response.json()) as Record<string, unknown>;
      if (response.status >= 300)
        throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(answer)}`);
      return answer;
    };
    const { token } = (await ask('POST', '/api/auth/login', {
      email: 'bench@bench.cm',
      password: 'Bench!admin-2026',
    })) as { token: string };

    const rss = rssSampler();
    const t0 = performance.now();
    const job = (await ask('POST', '/api/admin/imports/jobs?fileName=bench-nem12.zip', zipped, token)) as {
      id: string;
    };
    await ask('POST', `/api/admin/imports/jobs/${job.id}/start`, {}, token);
    let done: { status: string; report?: { inserted: number; rejectedCount: number } } | undefined;
    for (;;) {
      done = (await ask('GET', `/api/admin/imports/jobs/${job.id}`, undefined, token)) as typeof done;
      if (done && !['queued', 'running', 'uploaded'].includes(done.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const importMs = performance.now() - t0;
    const importPeak = rss.stop();
    const inserted = done?.report?.inserted ?? 0;
    rows.push([
      'NEM12 zipped, import job over HTTP',
      `${done?.status}: ${(importMs / 1000).toFixed(1)} s, ${rate(inserted, importMs)}; inserted ${inserted.toLocaleString('en-US')} of ${generated.intervals.toLocaleString('en-US')}, rejected ${done?.report?.rejectedCount}; RSS ${mb(rss.before)} → ${mb(importPeak)}`,
    ]);
    // Micro-kWh are milli-Wh: the file's Wh × 1,000, exactly.
    const [stored] = await db.query<{ n: number; micro: string }>(
      'SELECT count(*)::int AS n, sum(energy_micro)::text AS micro FROM interval_readings',
    );
    const storedWh = Number(stored?.micro ?? 0) / 1000;
    rows.push([
      '  stored against the file',
      `${stored?.n.toLocaleString('en-US')} intervals, ${storedWh} Wh (file: ${generated.intervals.toLocaleString('en-US')}, ${generated.totalWh} Wh)`,
    ]);
    summary.push(
      [
        `NEM12 import job, zipped, ${generated.intervals.toLocaleString('en-US')} intervals (upload → done)`,
        'report rows/s',
        `${(importMs / 1000).toFixed(1)} s, ${rate(inserted, importMs)}`,
        `stored ${stored?.n.toLocaleString('en-US')} = file ${generated.intervals.toLocaleString('en-US')}: ${stored?.n === generated.intervals && stored?.micro === String(generated.totalWh * 1000) ? 'equal' : 'DIFFERENT'}`,
        '—',
      ],
      [
        'peak RSS during the NEM12 import job',
        '< 300 MB',
        mb(importPeak),
        `before: ${mb(rss.before)}`,
        `+${mb(importPeak - rss.before)}`,
      ],
    );

    for (const format of ['csv', 'espi'] as const) {
      const exportRss = rssSampler();
      const t1 = performance.now();
      const response = await fetch(
        `${base}/api/admin/exports/readings?meterNumber=${EXPORT_NMI}&From=2025-01-01&To=2025-12-31&format=${format}`,
        { headers: { [API_KEY_HEADER]: key, authorization: `Bearer ${token}` } },
      );
      let bytes = 0;
      let records = 0;
      // CSV: lines; ESPI: IntervalReading elements, a marker cut between two chunks counted once.
      const marker = '<espi:IntervalReading>';
      const decoder = new TextDecoder();
      let tail = '';
      for await (const chunk of response.body ?? []) {
        const piece = chunk as Uint8Array;
        bytes += piece.length;
        if (format === 'csv') {
          for (const byte of piece) if (byte === 0x0a) records += 1;
        } else {
          const text = tail + decoder.decode(piece, { stream: true });
          records += text.split(marker).length - 1;
          tail = text.slice(-(marker.length - 1));
        }
      }
      const exportMs = performance.now() - t1;
      const exportPeak = exportRss.stop();
      // The CSV: a header line and one line per interval; ESPI: one IntervalReading per interval.
      const intervals = format === 'csv' ? records - 1 : records;
      rows.push([
        `export of one meter-year (5-minute), ${format.toUpperCase()}`,
        `${response.status}: ${(exportMs / 1000).toFixed(2)} s, ${mb(bytes)}, ${intervals.toLocaleString('en-US')} intervals, ${rate(intervals, exportMs)}; RSS ${mb(exportRss.before)} → ${mb(exportPeak)}`,
      ]);
      summary.push([
        `export of one meter-year of 5-minute intervals (105,120), ${format.toUpperCase()}, streamed`,
        'report rows/s; RSS < 300 MB',
        `${(exportMs / 1000).toFixed(2)} s, ${rate(intervals, exportMs)}`,
        `${intervals.toLocaleString('en-US')} intervals, ${mb(bytes)}`,
        `peak RSS ${mb(exportPeak)}`,
      ]);
    }
  } finally {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
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
    const meterIds = await createMeters(db);

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

    const csvImport = await measuredImport(db, file, { format: 'csv' });
    const { report, rssBefore, peakRss } = csvImport;
    const importMs = csvImport.ms;
    rows.push(['  of which', csvImport.phaseText]);
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
      secrets: TEST_SECRETS,
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

    // The mapped path, on this PostgreSQL and then on the embedded one.
    const mappedFile = path.join(dir, 'readings-mapped.csv');
    t0 = performance.now();
    await generateMappedCsv(mappedFile);
    rows.push([
      'mapped CSV generated',
      `${ROWS.toLocaleString('en-US')} rows, ${mb(statSync(mappedFile).size)} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    ]);
    const onPostgres = await measuredImport(db, mappedFile, { format: 'delimited', mapping: MAPPING });
    const onEmbedded = await withEmbeddedPostgres(4, async (embeddedDb) => {
      await createMeters(embeddedDb);
      return measuredImport(embeddedDb, mappedFile, { format: 'delimited', mapping: MAPPING });
    });
    for (const [where, run] of [
      ['PostgreSQL', onPostgres],
      ['embedded PostgreSQL', onEmbedded],
    ] as const) {
      rows.push([
        `mapped CSV import, ${where}`,
        `${(run.ms / 1000).toFixed(1)} s (${run.phaseText}), ${rate(run.report.inserted, run.ms)}; read ${run.report.rowsRead}, inserted ${run.report.inserted}, rejected ${run.report.rejectedCount}; RSS ${mb(run.rssBefore)} → ${mb(run.peakRss)}`,
      ]);
    }
    summary.push(
      [
        `import of a ${ROWS.toLocaleString('en-US')}-row mapped CSV (semicolons, decimal commas, local date and time columns, Wh), PostgreSQL`,
        'report rows/s',
        `${(onPostgres.ms / 1000).toFixed(1)} s, ${rate(onPostgres.report.inserted, onPostgres.ms)}`,
        `Check Meter CSV: ${rate(report.inserted, importMs)}`,
        `${((onPostgres.report.inserted / onPostgres.ms / (report.inserted / importMs)) * 100).toFixed(0)} % of its throughput`,
      ],
      [
        'the same mapped CSV on the embedded PostgreSQL',
        'report rows/s',
        `${(onEmbedded.ms / 1000).toFixed(1)} s, ${rate(onEmbedded.report.inserted, onEmbedded.ms)}`,
        `PostgreSQL: ${rate(onPostgres.report.inserted, onPostgres.ms)}`,
        `${((onEmbedded.report.inserted / onEmbedded.ms / (onPostgres.report.inserted / onPostgres.ms)) * 100).toFixed(0)} % of its throughput`,
      ],
      [
        'peak RSS during the mapped import (PostgreSQL / embedded)',
        '< 300 MB',
        `${mb(onPostgres.peakRss)} / ${mb(onEmbedded.peakRss)}`,
        `before: ${mb(onPostgres.rssBefore)} / ${mb(onEmbedded.rssBefore)}`,
        `+${mb(onPostgres.peakRss - onPostgres.rssBefore)} / +${mb(onEmbedded.peakRss - onEmbedded.rssBefore)}`,
      ],
    );

    // Readings so far are in the way of the stored-against-file check: the tables are emptied first.
    await db.query('TRUNCATE register_readings, interval_readings');
    await nem12AndExport(db, rows, summary);
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
