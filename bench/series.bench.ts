// `npm run bench:series` — dynamic prices and carbon (issue 36): a year of 15-minute interval
// readings priced from a 15-minute price series (35,040 prices, a margin and a tax on top) and
// weighed by a 15-minute carbon series (35,040 intensities), against the same year's readings at a
// location without them, request by request in turn (with, without, without, with, …) so that
// whatever else the machine does falls on both alike; as JSON (integrators) and in the binary
// columns form (what the web app asks for). Prints a table of server times and their ratio, and
// the load average before and after; asserts nothing. Every series value is generated
// deterministically in SQL. The priced walks of a year are remembered per readings version
// (readings engine, remembered-walks.ts): two more rows bump both meters' version before each
// request, so every walk is new, as on the first request after a write.
import os from 'node:os';
import { BINARY_COLUMNS_TYPE } from '@cm/contracts/binary-columns.ts';
import { Role } from '@cm/contracts/enums.ts';
import type { Db } from '../apps/server/src/db/client.ts';
import { insertUser } from '../apps/server/src/test/test-app.ts';
import { insertLocation, insertMeter } from '../apps/server/src/test/factories.ts';
import { startBenchApp } from './lib/bench-app.ts';
import { relaunchWithServerMalloc } from './lib/server-malloc.ts';
import { withEmbeddedPostgres } from './lib/postgres.ts';
import { ms, percentileOf } from './lib/stats.ts';
import { printTable } from './lib/table.ts';

const RUNS = Number(process.env.CM_BENCH_RUNS ?? 80);
const YEAR_START = "'2024-12-31T23:00:00Z'::timestamptz"; // 2025-01-01 00:00 in Berlin

async function seed(db: Db): Promise<void> {
  await insertUser(db, { email: 'admin@bench.cm', password: 'Bench!admin1', role: Role.Admin });
  await db.query("SELECT cm_ensure_reading_partitions('2024-12-01T00:00:00Z', '2026-01-01T00:00:00Z')");
  for (const name of ['Dynamic site', 'Plain site']) {
    const location = await insertLocation(db, name, 'Europe/Berlin');
    const meter = await insertMeter(db, {
      meterNumber: `${name.split(' ')[0]}-1`,
      locationId: location,
      meterInd: 1,
      installedAt: new Date('2024-12-01T00:00:00Z'),
    });
    await db.query(
      `INSERT INTO interval_readings (meter_id, channel, start_at, end_at, energy_micro, quality)
       SELECT $1, 1, ${YEAR_START} + i * interval '15 minutes', ${YEAR_START} + (i + 1) * interval '15 minutes',
              1000 * (70 + floor(30 * sin(2 * pi() * i / 96.0))::int8), 0
       FROM generate_series(0, 35039) AS i`,
      [meter],
    );
  }
  // Prices in EUR/MWh around 90 with a daily wave, some hours below zero; intensities 120–420 g.
  const [price] = await db.query<{ id: number }>(
    `INSERT INTO price_series (name, interval_minutes, unit, currency, time_zone, zone)
     VALUES ('Bench day-ahead', 15, 'MWh', 'EUR', 'Europe/Berlin', 'DE-LU') RETURNING id`,
  );
  await db.query(
    `INSERT INTO price_points (series_id, starts_at, value_micro)
     SELECT $1, ${YEAR_START} + i * interval '15 minutes', 1000000 * (90 + floor(100 * sin(2 * pi() * i / 96.0))::int8) + i % 1000
     FROM generate_series(0, 35039) AS i`,
    [price?.id],
  );
  const [carbon] = await db.query<{ id: number }>(
    `INSERT INTO carbon_series (name, interval_minutes, time_zone, region)
     VALUES ('Bench grid', 15, 'Europe/Berlin', 'DE') RETURNING id`,
  );
  await db.query(
    `INSERT INTO carbon_points (series_id, starts_at, milligrams)
     SELECT $1, ${YEAR_START} + i * interval '15 minutes', 1000 * (270 + floor(150 * cos(2 * pi() * i / 96.0))::int4)
     FROM generate_series(0, 35039) AS i`,
    [carbon?.id],
  );
  await db.query(
    `INSERT INTO tariffs (location_id, effective_from, currency, energy_price, standing_charge_per_day, tax_percent,
       import_series_id, import_margin, import_tax_percent)
     SELECT id, '2024-12-01', 'EUR', 0, 0.45, 0, $1, 0.025, 21 FROM locations WHERE public_name = 'Dynamic site'`,
    [price?.id],
  );
  await db.query(
    `INSERT INTO location_carbon (location_id, series_id)
     SELECT id, $1 FROM locations WHERE public_name = 'Dynamic site'`,
    [carbon?.id],
  );
  await db.query('VACUUM ANALYZE');
}

type BenchApp = Awaited<ReturnType<typeof startBenchApp>>;

const url = (site: string, granularity: string) =>
  `/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=${encodeURIComponent(site)}&From=2025-01-01&To=2025-12-31&granularity=${granularity}`;

type Form = 'JSON' | 'binary';

async function requestOnce({ address, headers, serverTimes }: BenchApp, path: string, form: Form) {
  const response = await fetch(`${address}${path}`, {
    headers: form === 'binary' ? { ...headers, accept: BINARY_COLUMNS_TYPE } : headers,
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${body.slice(0, 200)}`);
  return serverTimes.at(-1) ?? Number.NaN;
}

/** Changes both meters' readings version, as a write to their readings does (their chunks stay). */
const bumpVersions = (db: Db) =>
  db.query("UPDATE meters SET readings_version = nextval('meter_readings_versions')");

async function compare(
  app: BenchApp,
  granularity: 'raw' | 'day',
  form: Form,
  beforeEach: () => Promise<unknown> = async () => undefined,
) {
  const withUrl = url('Dynamic site', granularity);
  const withoutUrl = url('Plain site', granularity);
  for (let i = 0; i < 5; i += 1) {
    await requestOnce(app, withUrl, form);
    await requestOnce(app, withoutUrl, form);
  }
  const withTimes: number[] = [];
  const withoutTimes: number[] = [];
  for (let i = 0; i < RUNS; i += 1)
    for (const isWith of i % 2 === 0 ? [true, false] : [false, true]) {
      await beforeEach();
      if (isWith) withTimes.push(await requestOnce(app, withUrl, form));
      else withoutTimes.push(await requestOnce(app, withoutUrl, form));
    }
  const p = (times: number[], q: number) => percentileOf(times, (time) => time, q);
  return {
    with: { p50: p(withTimes, 50), p95: p(withTimes, 95) },
    without: { p50: p(withoutTimes, 50), p95: p(withoutTimes, 95) },
  };
}

const loadAverage = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');

async function main() {
  await withEmbeddedPostgres(10, async (db) => {
    const started = Date.now();
    await seed(db);
    console.log(
      `seeded 2 × 35,040 readings, 35,040 prices and intensities in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    const app = await startBenchApp(db);
    const loadBefore = loadAverage();
    try {
      const rows: string[][] = [];
      const row = (measure: string, target: string, result: Awaited<ReturnType<typeof compare>>) =>
        rows.push([
          measure,
          target,
          `${ms(result.with.p50)} / ${ms(result.with.p95)}`,
          `${ms(result.without.p50)} / ${ms(result.without.p95)}`,
          `${((result.with.p50 / result.without.p50 - 1) * 100).toFixed(0)} %`,
        ]);
      for (const form of ['JSON', 'binary'] as const)
        for (const granularity of ['raw', 'day'] as const)
          row(
            `one year ${granularity}, ${form}, dynamic tariff + carbon vs neither`,
            'within 25 %',
            await compare(app, granularity, form),
          );
      for (const [granularity, form] of [
        ['raw', 'JSON'],
        ['day', 'binary'],
      ] as const)
        row(
          `one year ${granularity}, ${form}, readings version new at each request (no walk remembered)`,
          'report',
          await compare(app, granularity, form, () => bumpVersions(db)),
        );
      printTable(
        `Dynamic prices and carbon (issue 36): server time p50 / p95, ${RUNS} alternated pairs each; load average ${loadBefore} before, ${loadAverage()} after`,
        ['measure', 'target', 'with', 'without', 'extra'],
        rows,
      );
    } finally {
      await app.app.close();
    }
  });
}

relaunchWithServerMalloc();
main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
