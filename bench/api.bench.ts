// `npm run bench:api` — the check API on realistic volume: PostgreSQL with 300 meters × one year of
// 15-minute readings (10.5 million rows), warm. Prints a table; asserts nothing.
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { and, asc, eq, gte, lte } from 'drizzle-orm';
import { BINARY_COLUMNS_TYPE } from '@cm/contracts/binary-columns.ts';
import { Role } from '@cm/contracts/enums.ts';
import { openPostgres, type Db } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { registerReadings } from '../apps/server/src/db/schema.ts';
import { insertUser } from '../apps/server/src/test/test-app.ts';
import { insertLocation, insertMeter } from '../apps/server/src/test/factories.ts';
import { startBenchApp } from './lib/bench-app.ts';
import { relaunchWithServerMalloc } from './lib/server-malloc.ts';
import { benchDatabase, withEmbeddedPostgres } from './lib/postgres.ts';
import { ms, percentile, percentileOf, sample } from './lib/stats.ts';
import { printTable } from './lib/table.ts';
import { packQueuedMonths } from '../apps/server/src/modules/readings/index.ts';

const METERS = Number(process.env.CM_BENCH_METERS ?? 300);
const LOCATIONS = 10;
const YEAR_FROM = '2025-01-01';
const YEAR_TO = '2025-12-31';
const RUNS = Number(process.env.CM_BENCH_RUNS ?? 40);
// The kept benchmark database is filled again when this changes (v2: the readings model of
// migration 0005; v3: an import + export meter and an interval-sourced meter beside the others).
const SCHEMA_MARK = 'v3';

/**
 * One year of 15-minute cumulative registers per meter, generated in SQL: a base load, a daily
 * wave and a seasonal wave whose step never goes negative, different per meter.
 */
async function fillReadings(db: Db, meterIds: number[], channel: 1 | 2 = 1): Promise<void> {
  await db.query("SELECT cm_ensure_reading_partitions('2024-12-01T00:00:00Z', '2026-01-01T00:00:00Z')");
  for (const id of meterIds) {
    // Registers in Wh (× 1000: stored in mWh); $2 varies the shape per meter and channel.
    await db.query(
      `INSERT INTO register_readings (meter_id, channel, read_at, value_micro, quality)
       SELECT $1, $3, '2024-12-31T23:00:00Z'::timestamptz + i * interval '15 minutes',
              1000 * (1000000 * ($2 % 7) + i * (40 + $2 % 30)
                + floor(30 * sin(2 * pi() * i / 96.0 + $2))::int8 + floor(400 * sin(2 * pi() * i / 35040.0))::int8 + 400),
              CASE WHEN i % 5000 = 17 THEN 1 ELSE 0 END
       FROM generate_series(0, 35040) AS i`,
      [id, id + (channel - 1) * 11, channel],
    );
  }
}

/**
 * The two other shapes of the readings model at Bench site 3: a meter with an import and an
 * export channel (registers on both: the answer carries import, export and net), and a meter whose
 * year is 35,040 interval energies instead of registers.
 */
async function fillOtherShapes(db: Db, locationId: number): Promise<void> {
  const installedAt = new Date('2024-12-01T00:00:00Z');
  const twoChannel = await insertMeter(db, { meterNumber: 'BM-3-PV', locationId, meterInd: 31, installedAt });
  await db.query("UPDATE meters SET channels = '{1,2}' WHERE device_id = $1", [twoChannel]);
  await fillReadings(db, [twoChannel], 1);
  await fillReadings(db, [twoChannel], 2);
  const interval = await insertMeter(db, { meterNumber: 'BM-3-HH', locationId, meterInd: 32, installedAt });
  await db.query(
    `INSERT INTO interval_readings (meter_id, channel, start_at, end_at, energy_micro, quality)
     SELECT $1, 1, '2024-12-31T23:00:00Z'::timestamptz + i * interval '15 minutes',
            '2024-12-31T23:00:00Z'::timestamptz + (i + 1) * interval '15 minutes',
            1000 * (70 + floor(30 * sin(2 * pi() * i / 96.0))::int8), CASE WHEN i % 5000 = 17 THEN 1 ELSE 0 END
     FROM generate_series(0, 35039) AS i`,
    [interval],
  );
}

async function seed(db: Db): Promise<void> {
  await insertUser(db, { email: 'admin@bench.cm', password: 'Bench!admin1', role: Role.Admin });
  const meterIds: number[] = [];
  let site3 = 0;
  for (let l = 0; l < LOCATIONS; l += 1) {
    const location = await insertLocation(db, `Bench site ${l}`, 'Europe/Berlin');
    if (l === 3) site3 = location;
    for (let m = 0; m < METERS / LOCATIONS; m += 1) {
      meterIds.push(
        await insertMeter(db, {
          meterNumber: `BM-${l}-${m + 1}`,
          locationId: location,
          meterInd: m + 1,
          installedAt: new Date('2024-12-01T00:00:00Z'),
        }),
      );
    }
  }
  const started = Date.now();
  await fillReadings(db, meterIds);
  await fillOtherShapes(db, site3);
  await db.query(`INSERT INTO settings (key, value) VALUES ('bench_api', '"${SCHEMA_MARK}"')`);
  await db.query('VACUUM ANALYZE register_readings');
  await db.query('VACUUM ANALYZE interval_readings');
  console.log(`seeded ${meterIds.length} meters in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/** CM on `db`, with a route of the same hooks as the real ones (API key + bearer token) and no work: the ceiling. */
function prepareApp(db: Db) {
  return startBenchApp(db, (app) => {
    app.get('/api/bench/bare', { preHandler: app.requireUser }, async () => ({ ok: true }));
  });
}

type BenchApp = Awaited<ReturnType<typeof prepareApp>>;

const readingsUrl = (granularity: string, meterInd = 7, site = 3) =>
  `/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=Bench%20site%20${site}&From=${YEAR_FROM}&To=${YEAR_TO}&meterInd=${meterInd}&granularity=${granularity}`;

/** One request over HTTP: its server time and the client's round trip to the last byte. */
async function requestOnce({ address, headers, serverTimes }: BenchApp, url: string, accept?: string) {
  const started = performance.now();
  const response = await fetch(`${address}${url}`, { headers: accept ? { ...headers, accept } : headers });
  const body = await response.arrayBuffer();
  if (response.status !== 200)
    throw new Error(`${url}: ${response.status} ${Buffer.from(body).toString('utf8', 0, 200)}`);
  return { server: serverTimes.at(-1) ?? Number.NaN, roundTrip: performance.now() - started, body };
}

type Timed = Awaited<ReturnType<typeof requestOnce>>;

/** Server time p50 and p95, and the client's round trip p50, of requests measured together. */
function summaryOf(times: readonly Timed[]) {
  return {
    p50: percentileOf(times, (time) => time.server, 50),
    p95: percentileOf(times, (time) => time.server, 95),
    roundTrip: percentileOf(times, (time) => time.roundTrip, 50),
  };
}

/**
 * Two requests measured in turn (a b, b a, a b, …; `pairs` of each after 5 warm-ups), so that
 * whatever else the machine does meanwhile falls on both alike and their ratio holds.
 */
async function inTurn(pairs: number, a: () => Promise<Timed>, b: () => Promise<Timed>) {
  for (let i = 0; i < 5; i += 1) {
    await a();
    await b();
  }
  const first: Timed[] = [];
  const second: Timed[] = [];
  for (let i = 0; i < pairs; i += 1)
    for (const isFirst of i % 2 === 0 ? [true, false] : [false, true]) {
      if (isFirst) first.push(await a());
      else second.push(await b());
    }
  const [aTimes, bTimes] = [summaryOf(first), summaryOf(second)];
  return { a: aTimes, b: bTimes, ratio: aTimes.p50 / bTimes.p50, first, second };
}

/** Server time (p50, p95) of `url` over HTTP on 127.0.0.1, and the client's round trip to the last byte (p50). */
async function timeRoute(app: BenchApp, url: string) {
  const server: number[] = [];
  const roundTrips = await sample(async () => {
    server.push((await requestOnce(app, url)).server);
  }, RUNS);
  const measured = server.slice(-RUNS);
  return {
    p50: percentile(measured, 50),
    p95: percentile(measured, 95),
    roundTrip: percentile(roundTrips, 50),
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

const serverTime = (time: { p50: number; p95: number; roundTrip: number }) =>
  `${ms(time.p50)} / ${ms(time.p95)} (round trip ${ms(time.roundTrip)})`;

/** The naive way: Drizzle rows as objects, turned into JSON as they are. */
async function timeNaive(db: Db) {
  const meter = await db.query<{ device_id: number }>(
    "SELECT device_id FROM meters WHERE meter_number = 'BM-3-7'",
  );
  const id = meter[0]?.device_id ?? 0;
  const from = new Date('2024-12-31T23:00:00Z');
  const to = new Date('2025-12-31T23:00:00Z');
  const samples = await sample(async () => {
    const rows = await db.orm
      .select()
      .from(registerReadings)
      .where(
        and(
          eq(registerReadings.meterId, id),
          eq(registerReadings.channel, 1),
          gte(registerReadings.readAt, from),
          lte(registerReadings.readAt, to),
        ),
      )
      .orderBy(asc(registerReadings.readAt));
    JSON.stringify(rows);
  }, RUNS);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

async function throughput(url: string, headers: Record<string, string>, seconds: number) {
  const result = await autocannon({ url, headers, connections: 20, duration: seconds });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

type Throughput = Awaited<ReturnType<typeof throughput>>;

/**
 * GetMeterInfo against the bare route in alternating rounds (info, bare, bare, info, …), so that a
 * machine that speeds up or slows down during the run moves both alike. Each figure is the median
 * of the rounds; the ratio is the median of each round's pair.
 */
async function compareThroughput(address: string, headers: Record<string, string>) {
  const rounds = Number(process.env.CM_BENCH_ROUNDS ?? 5);
  const seconds = Number(process.env.CM_BENCH_SECONDS ?? 4);
  const info: Throughput[] = [];
  const bare: Throughput[] = [];
  const infoUrl = `${address}/api/CheckMeter/GetMeterInfo?meterNumber=BM-3-7`;
  const bareUrl = `${address}/api/bench/bare`;
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? [true, false] : [false, true];
    for (const isInfo of order) {
      if (isInfo) info.push(await throughput(infoUrl, headers, seconds));
      else bare.push(await throughput(bareUrl, headers, seconds));
    }
  }
  const median = (runs: Throughput[]): Throughput => ({
    rps: percentileOf(runs, (run) => run.rps, 50),
    p50: percentileOf(runs, (run) => run.p50, 50),
    p99: percentileOf(runs, (run) => run.p99, 50),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  });
  const ratios = info.map((run, round) => run.rps / (bare[round]?.rps ?? Number.NaN));
  return { info: median(info), bare: median(bare), ratio: percentile(ratios, 50), rounds, seconds };
}

const TARIFF_WINDOWS = (night: string, peak: string) =>
  JSON.stringify([
    {
      label: 'night',
      price: night,
      days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun', 'holiday'],
      from: '00:00',
      to: '07:00',
    },
    {
      label: 'peak',
      price: peak,
      days: ['mon', 'tue', 'wed', 'thu', 'fri'],
      from: '17:00',
      to: '20:00',
      months: [1, 2, 3, 10, 11, 12],
    },
  ]);

/**
 * Gives Bench site 3 two tariff versions: time-of-use (night 00:00–07:00 every day, a weekday
 * peak 17:00–20:00 in winter months, holidays) and a price change on 2025-07-01; or removes them,
 * so the kept database stays as it was.
 */
async function setTariffs(db: Db, priced: boolean): Promise<void> {
  await db.query(
    "DELETE FROM tariffs WHERE location_id = (SELECT id FROM locations WHERE public_name = 'Bench site 3')",
  );
  if (!priced) return;
  const insert = `INSERT INTO tariffs (location_id, effective_from, currency, energy_price, windows, holidays,
      standing_charge_per_day, tax_percent, feed_in_price)
    SELECT id, $1::date, 'EUR', $2::numeric, $3::jsonb, '{2025-01-01,2025-05-01,2025-12-25,2025-12-26}'::date[], 0.45, 19, 0.08
    FROM locations WHERE public_name = 'Bench site 3'`;
  await db.query(insert, ['2024-12-01', '0.2890', TARIFF_WINDOWS('0.1520', '0.3970')]);
  await db.query(insert, ['2025-07-01', '0.3120', TARIFF_WINDOWS('0.1640', '0.4210')]);
}

/**
 * A year of Bench site 3's meter 7 with the tariffs against the same year of Bench site 4's meter 7
 * (the same readings' shape, no tariff), request by request in turn (priced, plain, plain, priced,
 * …), so that whatever the machine does meanwhile falls on both alike.
 */
async function compareCost(db: Db, app: BenchApp, granularity: 'raw' | 'day') {
  const pairs = RUNS * 4;
  await setTariffs(db, true);
  try {
    const measured = await inTurn(
      pairs,
      () => requestOnce(app, readingsUrl(granularity, 7, 3)),
      () => requestOnce(app, readingsUrl(granularity, 7, 4)),
    );
    return { priced: measured.a, plain: measured.b, ratio: measured.ratio, pairs };
  } finally {
    await setTariffs(db, false);
  }
}

/**
 * A year raw in the binary columns form (issue 38) against the same request's JSON, request by
 * request in turn: server times, and the bytes each sends gzipped (as a compressing proxy would).
 */
async function compareBinary(app: BenchApp) {
  const url = readingsUrl('raw');
  const { a, b, first, second } = await inTurn(
    RUNS * 2,
    () => requestOnce(app, url, BINARY_COLUMNS_TYPE),
    () => requestOnce(app, url),
  );
  const sizes = (body: ArrayBuffer | undefined) => {
    const bytes = Buffer.from(body ?? new ArrayBuffer(0));
    return { plain: bytes.length, gzip: gzipSync(bytes).length };
  };
  return { binary: a, json: b, binaryBytes: sizes(first[0]?.body), jsonBytes: sizes(second[0]?.body) };
}

/**
 * Another meter's year (`meterInd` at site 3) in turn with the one-channel register meter's same
 * request: the ratio of the two in one run.
 */
async function compareWithOneChannel(
  app: BenchApp,
  granularity: 'raw' | 'day',
  meterInd: number,
  accept?: string,
) {
  const { a, b, ratio } = await inTurn(
    RUNS * 2,
    () => requestOnce(app, readingsUrl(granularity, meterInd), accept),
    () => requestOnce(app, readingsUrl(granularity), accept),
  );
  return { other: a, oneChannel: b, ratio };
}

async function main() {
  let { url, existed } = await benchDatabase('cm_bench_api', {
    recreate: process.env.CM_BENCH_FRESH === '1',
  });
  if (existed) {
    // A database kept from an earlier run is reused only when it was filled for this schema.
    const probe = await openPostgres({ url, poolSize: 1, statementTimeoutMs: 60_000 });
    const mark = await probe
      .query<{ value: string }>("SELECT value FROM settings WHERE key = 'bench_api'")
      .catch(() => []);
    await probe.close();
    if (mark[0]?.value !== SCHEMA_MARK)
      ({ url, existed } = await benchDatabase('cm_bench_api', { recreate: true }));
  }
  const pgDb = await openPostgres({ url, poolSize: 10, statementTimeoutMs: 60_000 });
  await migrate(pgDb);
  if (!existed) {
    console.log(`filling ${url} with ${METERS} meters × one year of 15-minute readings…`);
    await seed(pgDb);
  }
  // The months the fill queued are packed first, as the server does in its first minutes after a
  // bulk load: requests are measured in the steady state, not beside the background packer.
  await packQueuedMonths(pgDb, Number.MAX_SAFE_INTEGER);
  const rowCount =
    (await pgDb.query<{ n: number }>('SELECT count(*)::int8 AS n FROM register_readings'))[0]?.n ?? 0;
  const pgApp = await prepareApp(pgDb);
  const { app, headers, address } = pgApp;
  const raw = await timeRoute(pgApp, readingsUrl('raw'));
  const day = await timeRoute(pgApp, readingsUrl('day'));
  const binary = await compareBinary(pgApp);
  // Cost (issue 18), measured right beside its baseline: a year under a time-of-use tariff that
  // changes in the middle of it, request by request in turn with the same year unpriced.
  const costRaw = await compareCost(pgDb, pgApp, 'raw');
  const costDay = await compareCost(pgDb, pgApp, 'day');
  // The import + export meter (31) and the interval-sourced one (32), each in turn with meter 7.
  const pvRaw = await compareWithOneChannel(pgApp, 'raw', 31);
  const pvDay = await compareWithOneChannel(pgApp, 'day', 31);
  const pvRawBinary = await compareWithOneChannel(pgApp, 'raw', 31, BINARY_COLUMNS_TYPE);
  const hhRaw = await compareWithOneChannel(pgApp, 'raw', 32);
  const hhDay = await compareWithOneChannel(pgApp, 'day', 32);
  const naive = await timeNaive(pgDb);

  const { info, bare, ratio, rounds, seconds } = await compareThroughput(address, headers);
  await app.close();
  await pgDb.close();

  // The same year on the embedded PostgreSQL (one meter is enough: every query reads one meter).
  const { liteRaw, liteDay } = await withEmbeddedPostgres(10, async (lite) => {
    await insertUser(lite, { email: 'admin@bench.cm', password: 'Bench!admin1', role: Role.Admin });
    const liteLocation = await insertLocation(lite, 'Bench site 3', 'Europe/Berlin');
    const liteMeter = await insertMeter(lite, {
      meterNumber: 'BM-3-7',
      locationId: liteLocation,
      meterInd: 7,
      installedAt: new Date('2024-12-01T00:00:00Z'),
    });
    await fillReadings(lite, [liteMeter]);
    await packQueuedMonths(lite, Number.MAX_SAFE_INTEGER);
    const liteApp = await prepareApp(lite);
    try {
      return {
        liteRaw: await timeRoute(liteApp, readingsUrl('raw')),
        liteDay: await timeRoute(liteApp, readingsUrl('day')),
      };
    } finally {
      await liteApp.app.close();
    }
  });

  printTable(
    `Check API on PostgreSQL, ${rowCount.toLocaleString('en')} readings, ${METERS} meters (server time p50 / p95 of ${RUNS} warm requests over HTTP on 127.0.0.1: arrival → last byte written)`,
    ['measure', 'target', 'CM', 'baseline', 'ratio'],
    [
      [
        'one meter, one year, raw (35,041 points)',
        'p50 ≤ 15 ms',
        serverTime(raw),
        `naive row objects (query + JSON.stringify, no HTTP): ${ms(naive.p50)} / ${ms(naive.p95)}`,
        `${(naive.p50 / raw.p50).toFixed(1)}× faster`,
      ],
      [
        'one meter, one year, raw, binary columns form (Accept)',
        'p50 ≤ 8 ms',
        serverTime(binary.binary),
        `JSON in turn with it: ${serverTime(binary.json)}`,
        `${((binary.binary.p50 / binary.json.p50) * 100).toFixed(0)} % of its time`,
      ],
      [
        'bytes of that year raw, gzipped (plain)',
        '≤ 40 % of the JSON gzipped',
        `${kb(binary.binaryBytes.gzip)} (${kb(binary.binaryBytes.plain)})`,
        `JSON: ${kb(binary.jsonBytes.gzip)} (${kb(binary.jsonBytes.plain)})`,
        `${((binary.binaryBytes.gzip / binary.jsonBytes.gzip) * 100).toFixed(0)} % of its bytes`,
      ],
      ['one meter, one year, daily', 'p50 ≤ 5 ms', serverTime(day), '—', '—'],
      [
        'one year raw with cost: time-of-use tariff (night, weekday peak) changing on 1 July',
        '≤ 115 % of no cost',
        serverTime(costRaw.priced),
        `no cost (site 4’s meter 7, ${costRaw.pairs} requests in turn with these): ${ms(costRaw.plain.p50)}`,
        `${(costRaw.ratio * 100).toFixed(0)} %`,
      ],
      [
        'one year daily with cost, same tariff',
        '≤ 115 % of no cost',
        serverTime(costDay.priced),
        `no cost (site 4’s meter 7, ${costDay.pairs} requests in turn with these): ${ms(costDay.plain.p50)}`,
        `${(costDay.ratio * 100).toFixed(0)} %`,
      ],
      [
        'import + export meter (registers on both channels, with net), one year raw',
        '≤ 1.3× one channel',
        serverTime(pvRaw.other),
        `one channel, in turn with it: ${ms(pvRaw.oneChannel.p50)}`,
        `${pvRaw.ratio.toFixed(2)}× one channel`,
      ],
      [
        'import + export meter, one year daily',
        '≤ 1.3× one channel',
        serverTime(pvDay.other),
        `one channel, in turn with it: ${ms(pvDay.oneChannel.p50)}`,
        `${pvDay.ratio.toFixed(2)}× one channel`,
      ],
      [
        'import + export meter, one year raw, binary columns form (Accept)',
        '≤ 1.3× one channel',
        serverTime(pvRawBinary.other),
        `one channel, binary, in turn with it: ${ms(pvRawBinary.oneChannel.p50)}`,
        `${pvRawBinary.ratio.toFixed(2)}× one channel`,
      ],
      [
        'interval-sourced meter (35,040 interval energies), one year raw',
        'p50 ≤ 15 ms',
        serverTime(hhRaw.other),
        `registers, in turn with it: ${ms(hhRaw.oneChannel.p50)}`,
        `${hhRaw.ratio.toFixed(2)}× registers`,
      ],
      [
        'interval-sourced meter, one year daily',
        'p50 ≤ 8 ms',
        serverTime(hhDay.other),
        `registers, in turn with it: ${ms(hhDay.oneChannel.p50)}`,
        `${hhDay.ratio.toFixed(2)}× registers`,
      ],
      [
        `GetMeterInfo over HTTP, 20 connections (median of ${rounds} alternating rounds of ${seconds} s)`,
        '≥ 60 % of bare route',
        `${info.rps.toFixed(0)} req/s, p50 ${info.p50} ms, p99 ${info.p99} ms, ${info.errors} errors`,
        `bare route with same auth hooks: ${bare.rps.toFixed(0)} req/s, p50 ${bare.p50} ms, p99 ${bare.p99} ms`,
        `${(ratio * 100).toFixed(0)} %`,
      ],
      [
        'same year raw on the embedded PostgreSQL',
        'report',
        serverTime(liteRaw),
        `PostgreSQL ${ms(raw.p50)}`,
        `${(liteRaw.p50 / raw.p50).toFixed(1)}× PostgreSQL`,
      ],
      [
        'same year daily on the embedded PostgreSQL',
        'report',
        serverTime(liteDay),
        `PostgreSQL ${ms(day.p50)}`,
        `${(liteDay.p50 / day.p50).toFixed(1)}× PostgreSQL`,
      ],
    ],
  );
}

relaunchWithServerMalloc();
main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
