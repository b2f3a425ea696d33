// Scale benchmark (issue 19): `npm run bench:scale` (root, PostgreSQL at 127.0.0.1:5432; about
// 15–30 minutes for both sizes, 60 GB free disk). Prints tables, asserts nothing.
//
// One database grows from 10 million to 100 million readings: 100,000 meters at 1,000 locations
// (all searchable), of which the first 143, then 1,425, have two years of 15-minute registers
// (2024–2025, 70,177 each), written with INSERT … SELECT through the readings tables' own key
// and triggers. At each size: the months the writes queued are packed as the server
// packs them (packQueuedMonths), the tables vacuumed, then PostgreSQL is restarted and the OS page
// cache dropped, and a fresh CM process answers: one meter's 2025 raw and daily (cold: the first
// request for that meter since start, nothing cached anywhere but the benchmark's own HTTP client,
// warmed on a throwaway server of its own; cold meter: the first request for a
// meter not read yet, once the process has answered others; warm: the same again), GetMeterInfo,
// search over the 100,000 meters, and an import of new readings (CSV through the import API) while
// a client keeps reading, then at least 20 s of writes straight into the readings tables while it reads
// — with the read latency it sees meanwhile. Then the disk each reading
// takes (table, indexes, chunks) and how each figure grew from 10M to 100M.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { Role } from '@cm/contracts/enums.ts';
import { openPostgres, type Db } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { packQueuedMonths } from '../apps/server/src/modules/readings/index.ts';
import { insertUser } from '../apps/server/src/test/test-app.ts';
import { call, login, warmUpClient } from './lib/http.ts';
import { benchDatabase } from './lib/postgres.ts';
import { startBenchServer } from './lib/server-process.ts';
import { percentile, ms } from './lib/stats.ts';
import { printTable } from './lib/table.ts';

const DATABASE = 'cm_bench_scale';
const TOTAL_METERS = 100_000;
const METERS_PER_LOCATION = 100;
const FIRST = Date.parse('2024-01-01T00:00:00Z');
const END = Date.parse('2026-01-01T00:00:00Z');
const PER_METER = (END - FIRST) / 900_000 + 1;
const SIZES = [
  { label: '10M', meters: 143 },
  { label: '100M', meters: 1_425 },
].filter((size) => !process.env.CM_SCALE_SIZES || process.env.CM_SCALE_SIZES.split(',').includes(size.label));
const COLD_METERS = 20;
const WARM_RUNS = 5;
const IMPORT_METERS = 100;
const IMPORT_DAYS = 31;

const client = { email: 'client@scale.cm', password: 'Scale!client-01' };
const admin = { email: 'admin@scale.cm', password: 'Scale!admin-01' };
const meterNumber = (i: number) => `SM-${String(i).padStart(6, '0')}`;
const locationName = (l: number) => `Scale site ${String(l).padStart(4, '0')}`;
const rate = (rows: number, millis: number) =>
  `${Math.round(rows / (millis / 1000)).toLocaleString('en-US')} rows/s`;
const gb = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(2)} GB`;
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

async function createSite(db: Db) {
  await migrate(db);
  await insertUser(db, { ...admin, role: Role.Admin });
  const clientId = await insertUser(db, client);
  await db.query(
    `INSERT INTO locations (public_name, address, time_zone)
     SELECT 'Scale site ' || lpad(l::text, 4, '0'), 'Street ' || l, 'Europe/Berlin' FROM generate_series(0, $1 - 1) AS l`,
    [TOTAL_METERS / METERS_PER_LOCATION],
  );
  // The client sees every location: search runs over all 100,000 meters.
  await db.query('INSERT INTO user_locations (user_id, location_id) SELECT $1, id FROM locations', [
    clientId,
  ]);
  await db.query(
    `WITH d AS (
       INSERT INTO devices (type, serial, parent_id, location_id, priority, status)
       SELECT 3, 'SM-' || lpad(i::text, 6, '0'), NULL, l.id, 1, 'active'
       FROM generate_series(0, $1 - 1) AS i
       JOIN locations l ON l.public_name = 'Scale site ' || lpad((i / $2)::text, 4, '0')
       RETURNING id, serial, location_id)
     INSERT INTO meters (device_id, meter_number, location_id, meter_ind, multiplier, register_digits, interval_minutes, installed_at, channels)
     SELECT id, serial, location_id, (substring(serial from 4)::int % $2) + 1, 1, 9, 15, $3, '{1}' FROM d`,
    [TOTAL_METERS, METERS_PER_LOCATION, new Date(FIRST - 86_400_000)],
  );
}

/**
 * 15-minute registers from `startMs` on, `count` of them, for meters [from, to), a few meters per
 * statement, through the readings tables' own key and triggers; answers the milliseconds taken.
 * `offset`: where the register stands at `startMs`, in steps.
 */
async function writeRegisters(
  db: Db,
  meters: { from: number; to: number },
  startMs: number,
  count: number,
  offset: number,
): Promise<number> {
  const started = performance.now();
  for (let first = meters.from; first < meters.to; first += 10) {
    await db.query(
      `INSERT INTO register_readings (meter_id, channel, read_at, value_micro)
       SELECT m.device_id, 1, $3::timestamptz + i * interval '15 minutes', 1000000::int8 * (1000 + $5 + i) + (i * 7919 + m.device_id) % 900000
       FROM meters m CROSS JOIN generate_series(0, $4 - 1) AS i
       WHERE m.meter_number >= $1 AND m.meter_number < $2`,
      [meterNumber(first), meterNumber(Math.min(first + 10, meters.to)), new Date(startMs), count, offset],
    );
  }
  return performance.now() - started;
}

/** Two years of registers for meters [from, to). */
async function fill(db: Db, from: number, to: number): Promise<number> {
  await db.query('SELECT cm_ensure_reading_partitions($1, $2)', [
    new Date(FIRST),
    new Date(END + 62 * 86_400_000),
  ]);
  return writeRegisters(db, { from, to }, FIRST, PER_METER, 0);
}

function restartPostgresCold() {
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', '15', 'main', 'restart'], { stdio: 'inherit' });
  execFileSync('sh', ['-c', 'sync; echo 3 > /proc/sys/vm/drop_caches']);
  for (let i = 0; i < 30; i++) {
    try {
      execFileSync('pg_isready', ['-q', '-h', '127.0.0.1', '-p', '5432']);
      return;
    } catch {
      execFileSync('sleep', ['1']);
    }
  }
}

async function diskPerReading(db: Db, readings: number) {
  const rows = await db.query<{ readings: number; chunks: number; queue: number }>(
    `SELECT
       (SELECT coalesce(sum(pg_total_relation_size(i.inhrelid)), 0) FROM pg_inherits i WHERE i.inhparent = 'register_readings'::regclass) AS readings,
       (SELECT coalesce(sum(pg_total_relation_size(i.inhrelid)), 0) FROM pg_inherits i WHERE i.inhparent = 'reading_chunks'::regclass) AS chunks,
       pg_total_relation_size('reading_chunk_queue') AS queue`,
  );
  const row = rows[0] ?? { readings: 0, chunks: 0, queue: 0 };
  const tables = await db.query<{ heap: number }>(
    `SELECT coalesce(sum(pg_relation_size(i.inhrelid)), 0) AS heap FROM pg_inherits i WHERE i.inhparent = 'register_readings'::regclass`,
  );
  const heap = tables[0]?.heap ?? 0;
  return {
    heap: heap / readings,
    indexes: (row.readings - heap) / readings,
    chunks: row.chunks / readings,
    total: (row.readings + row.chunks) / readings,
    bytes: row.readings + row.chunks,
  };
}

/** The import's CSV: IMPORT_DAYS of 15-minute registers in January 2026 for IMPORT_METERS meters. */
function importCsv(firstMeter: number): { csv: string; rows: number } {
  const lines = ['meter_number,timestamp,register_kwh'];
  for (let m = firstMeter; m < firstMeter + IMPORT_METERS; m++) {
    for (let i = 1; i <= IMPORT_DAYS * 96; i++) {
      const at = new Date(END + i * 900_000).toISOString();
      lines.push(`${meterNumber(m)},${at},${(1000 + PER_METER + i).toFixed(3)}`);
    }
  }
  return { csv: `${lines.join('\n')}\n`, rows: lines.length - 1 };
}

interface Figures {
  label: string;
  /** Written by the fill of this size and the ones before. */
  readings: number;
  /** Stored when measured: also the earlier sizes' imports and sustained writes. */
  stored: number;
  writeMs: number;
  packMs: number;
  packed: number;
  coldRaw: number[];
  coldMeterRaw: number[];
  processColdRaw: number[];
  warmRaw: number[];
  coldDay: number[];
  warmDay: number[];
  info: number[];
  search: number[];
  importRows: number;
  importMs: number;
  readsDuringImport: number[];
  sustainedRows: number;
  sustainedMs: number;
  readsDuringWrites: number[];
  disk: Awaited<ReturnType<typeof diskPerReading>>;
}

/** Four weeks at a time from February 2026 for the meters written at this size, after the import's last reading (1 February 00:00). */
const SUSTAINED_FROM = END + 31 * 86_400_000 + 900_000;
const SUSTAINED_PER_METER = 28 * 96;
const SUSTAINED_BLOCK_MS = SUSTAINED_PER_METER * 900_000;
const SUSTAINED_MS = 20_000;
const SUSTAINED_MAX_BLOCKS = 24;

async function measure(
  url: string,
  size: (typeof SIZES)[number],
  newMeters: { from: number; to: number },
  writeMs: number,
): Promise<Figures> {
  const db = await openPostgres({ url, poolSize: 4, statementTimeoutMs: 3_600_000 });
  const packStarted = performance.now();
  const packed = await packQueuedMonths(db, Number.MAX_SAFE_INTEGER);
  const packMs = performance.now() - packStarted;
  await db.query('VACUUM ANALYZE');
  // Measured once autovacuum has nothing left to do here: its work is not the reads'.
  for (let waited = 0; waited < 600; waited++) {
    const busy = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'",
    );
    if ((busy[0]?.n ?? 0) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  const readings = size.meters * PER_METER;
  // Every reading stored, the earlier size's sustained writes included: what the disk holds.
  const counted = await db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM register_readings');
  const stored = counted[0]?.n ?? readings;
  const disk = await diskPerReading(db, stored);
  await db.close();

  restartPostgresCold();
  // The benchmark's own client warmed on a server of its own: cold is CM's, not this process's.
  await warmUpClient();
  const serverEnv = {
    DATABASE_URL: url,
    DATABASE_POOL_SIZE: '10',
    CM_PACK_EVERY_SECONDS: '86400',
    CM_ALERT_EVERY_SECONDS: '86400',
  };
  let server = await startBenchServer(serverEnv);
  console.log(`${size.label}: measuring; load average ${load()}`);
  try {
    let token = await login(server.url, client.email, client.password);
    const meterAt = (k: number) => Math.floor(((k + 0.5) * size.meters) / (2 * COLD_METERS + 1));
    const yearOf = (m: number, granularity: 'raw' | 'day') =>
      `${server.url}/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=${encodeURIComponent(locationName(Math.floor(m / METERS_PER_LOCATION)))}&meterInd=${(m % METERS_PER_LOCATION) + 1}&From=2025-01-01&To=2025-12-31&granularity=${granularity}`;
    const timed = async (target: string) => {
      const answer = await call(target, { token, timeoutMs: 120_000 });
      if (answer.status !== 200) throw new Error(`${target}: ${answer.status} ${answer.body.slice(0, 200)}`);
      return answer.ms;
    };
    const coldRaw: number[] = [];
    const coldDay: number[] = [];
    for (let k = 0; k < COLD_METERS; k++) coldRaw.push(await timed(yearOf(meterAt(2 * k), 'raw')));
    for (let k = 0; k < COLD_METERS; k++) coldDay.push(await timed(yearOf(meterAt(2 * k + 1), 'day')));
    // Meters not read since the restart, in a CM that has answered others: a client's first look
    // at a meter in a running server (its rows, chunks and index leaves still on disk).
    const coldMeterRaw: number[] = [];
    for (let k = 0; k < COLD_METERS; k++) coldMeterRaw.push(await timed(yearOf(meterAt(2 * k) + 1, 'raw')));
    const warmRaw: number[] = [];
    const warmDay: number[] = [];
    for (let run = 0; run < WARM_RUNS; run++)
      for (let k = 0; k < COLD_METERS; k++) {
        warmRaw.push(await timed(yearOf(meterAt(2 * k), 'raw')));
        warmDay.push(await timed(yearOf(meterAt(2 * k + 1), 'day')));
      }
    // CM restarted, PostgreSQL and the OS cache as they are: the same meters' first requests again.
    await server.stop();
    server = await startBenchServer(serverEnv);
    token = await login(server.url, client.email, client.password);
    const processColdRaw: number[] = [];
    for (let k = 0; k < COLD_METERS; k++) processColdRaw.push(await timed(yearOf(meterAt(2 * k), 'raw')));
    const info: number[] = [];
    const search: number[] = [];
    for (let i = 0; i < 200; i++) {
      info.push(
        await timed(
          `${server.url}/api/CheckMeter/GetMeterInfo?meterNumber=${meterNumber((i * 4999) % TOTAL_METERS)}`,
        ),
      );
      search.push(
        await timed(
          `${server.url}/api/search?q=${encodeURIComponent(`SM-0${String((i * 37) % 10000).padStart(4, '0')}`.slice(0, 7))}`,
        ),
      );
    }

    // Work done while a client reads a year of another meter over and over: the reads it saw.
    const whileReading = async <T>(work: () => Promise<T>) => {
      let reading = true;
      const reads: number[] = [];
      const reader = (async () => {
        for (let k = 0; reading; k = (k + 1) % COLD_METERS)
          reads.push(await timed(yearOf(meterAt(2 * k), 'raw')));
      })();
      try {
        return { result: await work(), reads };
      } finally {
        reading = false;
        await reader;
      }
    };

    // An import of new readings (CSV through the import API).
    const adminToken = await login(server.url, admin.email, admin.password);
    const { csv, rows } = importCsv(size.meters - IMPORT_METERS);
    const started = performance.now();
    const { result: imported, reads: readsDuringImport } = await whileReading(() =>
      call(`${server.url}/api/admin/imports?format=csv`, {
        method: 'POST',
        token: adminToken,
        rawBody: csv,
        contentType: 'text/csv',
        timeoutMs: 600_000,
      }),
    );
    const importMs = performance.now() - started;
    if (imported.status >= 300) throw new Error(`import: ${imported.status} ${imported.body.slice(0, 300)}`);

    // Sustained writes straight through the readings tables (key, triggers), as an ingest feed
    // or a bulk load writes them: four weeks of this size's new meters after another, for at
    // least SUSTAINED_MS (a month of the 143 meters alone is over in about a second).
    const writer = await openPostgres({ url, poolSize: 1, statementTimeoutMs: 3_600_000 });
    await writer.query('SELECT cm_ensure_reading_partitions($1, $2)', [
      new Date(SUSTAINED_FROM),
      new Date(SUSTAINED_FROM + SUSTAINED_MAX_BLOCKS * SUSTAINED_BLOCK_MS),
    ]);
    const { result: sustained, reads: readsDuringWrites } = await whileReading(async () => {
      let writtenMs = 0;
      let blocks = 0;
      while (blocks < SUSTAINED_MAX_BLOCKS && (blocks === 0 || writtenMs < SUSTAINED_MS)) {
        writtenMs += await writeRegisters(
          writer,
          newMeters,
          SUSTAINED_FROM + blocks * SUSTAINED_BLOCK_MS,
          SUSTAINED_PER_METER,
          PER_METER + 31 * 96 + blocks * SUSTAINED_PER_METER,
        );
        blocks++;
      }
      return { writtenMs, blocks };
    }).finally(() => writer.close());
    return {
      label: size.label,
      readings,
      stored,
      writeMs,
      packMs,
      packed,
      coldRaw,
      coldMeterRaw,
      processColdRaw,
      warmRaw,
      coldDay,
      warmDay,
      info,
      search,
      importRows: rows,
      importMs,
      readsDuringImport,
      sustainedRows: (newMeters.to - newMeters.from) * SUSTAINED_PER_METER * sustained.blocks,
      sustainedMs: sustained.writtenMs,
      readsDuringWrites,
      disk,
    };
  } finally {
    await server.stop();
  }
}

const p50p95 = (samples: number[]) => `${ms(percentile(samples, 50))} / ${ms(percentile(samples, 95))}`;

async function main() {
  console.log(`Machine: ${os.cpus().length} cores, load average ${load()} at start.`);
  const { url } = await benchDatabase(DATABASE, { recreate: true });
  const open = () => openPostgres({ url, poolSize: 2, statementTimeoutMs: 3_600_000 });
  let setup = await open();
  await createSite(setup);
  const results: Figures[] = [];
  let filled = 0;
  for (const size of SIZES) {
    const writeMs = await fill(setup, filled, size.meters);
    console.log(
      `${size.label}: ${((size.meters - filled) * PER_METER).toLocaleString('en-US')} readings written (${rate((size.meters - filled) * PER_METER, writeMs)}); load ${load()}`,
    );
    const newMeters = { from: filled, to: size.meters };
    filled = size.meters;
    // Measured with PostgreSQL restarted: this pool's connections end with it.
    await setup.close();
    results.push(await measure(url, size, newMeters, writeMs));
    console.log(`${size.label} measured; load average ${load()}`);
    setup = await open();
  }
  await setup.close();

  const columns = [
    'measure',
    ...results.map((r) => `${r.label} readings (${r.stored.toLocaleString('en-US')} stored)`),
  ];
  const row = (name: string, pick: (r: Figures) => string) => [name, ...results.map(pick)];
  printTable('Scale: per-meter reads, search, import and disk as readings grow (p50 / p95)', columns, [
    row(
      'one meter, 2025 raw, cold (first request since start; PostgreSQL restarted, OS cache dropped)',
      (r) => p50p95(r.coldRaw),
    ),
    row(
      'one meter, 2025 raw, cold meter (first request for it in a running CM; not read since PostgreSQL restarted)',
      (r) => p50p95(r.coldMeterRaw),
    ),
    row('one meter, 2025 raw, cold process (CM restarted; database caches as they were)', (r) =>
      p50p95(r.processColdRaw),
    ),
    row('one meter, 2025 raw, warm', (r) => p50p95(r.warmRaw)),
    row('one meter, 2025 daily, cold', (r) => p50p95(r.coldDay)),
    row('one meter, 2025 daily, warm', (r) => p50p95(r.warmDay)),
    row('GetMeterInfo', (r) => p50p95(r.info)),
    row(`search over ${TOTAL_METERS.toLocaleString('en-US')} meters`, (r) => p50p95(r.search)),
    row(
      `import (CSV API, ${IMPORT_METERS} meters × ${IMPORT_DAYS} days) while a client reads`,
      (r) => `${rate(r.importRows, r.importMs)} (${r.importRows.toLocaleString('en-US')} rows)`,
    ),
    row(
      'that client’s year raw meanwhile',
      (r) => `${p50p95(r.readsDuringImport)} (${r.readsDuringImport.length} reads)`,
    ),
    row('writing the readings (INSERT … SELECT through key and triggers, nothing else running)', (r) =>
      rate(r.readings - (results[results.indexOf(r) - 1]?.readings ?? 0), r.writeMs),
    ),
    row(
      `sustained writes (15-minute registers for the new meters, four weeks a round, INSERT … SELECT, ≥ ${SUSTAINED_MS / 1000} s) while a client reads`,
      (r) => `${rate(r.sustainedRows, r.sustainedMs)} (${r.sustainedRows.toLocaleString('en-US')} rows)`,
    ),
    row(
      'that client’s year raw meanwhile',
      (r) => `${p50p95(r.readsDuringWrites)} (${r.readsDuringWrites.length} reads)`,
    ),
    row(
      'packing the queued months (as the server does in the background)',
      (r) => `${r.packed.toLocaleString('en-US')} months in ${(r.packMs / 1000).toFixed(0)} s`,
    ),
    row(
      'disk per reading: table / indexes / chunks / total',
      (r) =>
        `${r.disk.heap.toFixed(1)} / ${r.disk.indexes.toFixed(1)} / ${r.disk.chunks.toFixed(1)} / ${r.disk.total.toFixed(1)} B`,
    ),
    row('disk in all (readings and chunks)', (r) => gb(r.disk.bytes)),
  ]);
  const [small, large] = results;
  if (small && large) {
    const growth = (pick: (r: Figures) => number) => `${(pick(large) / pick(small)).toFixed(2)}×`;
    printTable(
      `Growth from ${small.label} to ${large.label} readings (${(large.readings / small.readings).toFixed(1)}× the rows)`,
      ['measure', 'growth'],
      [
        ['cold year raw p50', growth((r) => percentile(r.coldRaw, 50))],
        ['cold-meter year raw p50', growth((r) => percentile(r.coldMeterRaw, 50))],
        ['cold-process year raw p50', growth((r) => percentile(r.processColdRaw, 50))],
        ['warm year raw p50', growth((r) => percentile(r.warmRaw, 50))],
        ['cold year daily p50', growth((r) => percentile(r.coldDay, 50))],
        ['warm year daily p50', growth((r) => percentile(r.warmDay, 50))],
        ['GetMeterInfo p50', growth((r) => percentile(r.info, 50))],
        ['search p50', growth((r) => percentile(r.search, 50))],
        ['import rows/s', growth((r) => r.importRows / r.importMs)],
        ['sustained writes rows/s', growth((r) => r.sustainedRows / r.sustainedMs)],
        ['disk bytes per reading', growth((r) => r.disk.total)],
      ],
    );
  }
  console.log(`Load average at the end: ${load()}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
