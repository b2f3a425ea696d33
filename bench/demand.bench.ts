// `npm run bench:demand` — demand and capacity charges (issue 36). Prints tables; asserts nothing.
//
// 1. The readings call over a year of 15-minute interval records (2025, daily buckets) at three
//    locations that differ only in their tariff: a flat price (the baseline), the same with a
//    demand charge per kW of each month's peak, and the same with a capacity charge and a ratchet
//    (which read the 12 months before the range too: the meters there hold 2024 as well). Requests
//    alternate (plain, demand, capacity, plain, …) so a busy machine weighs on all alike; the
//    figure is the server time (arrival → last byte), p50 and p95.
// 2. A month's peak for 10,000 meters: the readings engine over a month of 15-minute records per
//    meter, bucketed by month (GetMonthlyPeaks' engine work), against a plain loop that takes the
//    highest record of each meter (the floor of any peak computation).
import os from 'node:os';
import { Role } from '@cm/contracts/enums.ts';
import type { Db } from '../apps/server/src/db/client.ts';
import { computeReadings } from '../apps/server/src/modules/readings/index.ts';
import { intervalSegment } from '../apps/server/src/modules/readings/engine/test-segments.ts';
import { insertUser } from '../apps/server/src/test/test-app.ts';
import { insertLocation, insertMeter } from '../apps/server/src/test/factories.ts';
import { startBenchApp } from './lib/bench-app.ts';
import { relaunchWithServerMalloc } from './lib/server-malloc.ts';
import { withEmbeddedPostgres } from './lib/postgres.ts';
import { ms, percentile } from './lib/stats.ts';
import { printTable } from './lib/table.ts';

const RUNS = Number(process.env.CM_BENCH_RUNS ?? 60);
const METERS = Number(process.env.CM_BENCH_PEAK_METERS ?? 10_000);
const QUARTER = 15 * 60_000;

const TARIFFS = {
  plain: null,
  demand: { intervalMinutes: 15, pricePerKw: '12.5' },
  capacity: { intervalMinutes: 15, pricePerKw: '12.5', ratchetPercent: '80', capacityPricePerKwYear: '52.5' },
} as const;
type Kind = keyof typeof TARIFFS;

/** A location per tariff, each with one meter holding 2024 and 2025 as 15-minute records (70,176). */
async function seed(db: Db): Promise<void> {
  await insertUser(db, { email: 'admin@bench.cm', password: 'Bench!admin1', role: Role.Admin });
  await db.query("SELECT cm_ensure_reading_partitions('2023-12-01T00:00:00Z', '2026-01-01T00:00:00Z')");
  for (const kind of Object.keys(TARIFFS) as Kind[]) {
    const location = await insertLocation(db, `Demand ${kind}`, 'Europe/Berlin');
    const meter = await insertMeter(db, {
      meterNumber: `DM-${kind}`,
      locationId: location,
      meterInd: 1,
      installedAt: new Date('2023-12-01T00:00:00Z'),
    });
    await db.query(
      `INSERT INTO interval_readings (meter_id, channel, start_at, end_at, energy_micro, quality)
       SELECT $1, 1, '2023-12-31T23:00:00Z'::timestamptz + i * interval '15 minutes',
              '2023-12-31T23:00:00Z'::timestamptz + (i + 1) * interval '15 minutes',
              1000 * (70 + floor(30 * sin(2 * pi() * i / 96.0))::int8 + (i * 7919 % 97)), 0
       FROM generate_series(0, 70175) AS i`,
      [meter],
    );
    const demand = TARIFFS[kind];
    await db.query(
      `INSERT INTO tariffs (location_id, effective_from, currency, energy_price, standing_charge_per_day,
         tax_percent, demand)
       VALUES ($1, '2020-01-01', 'EUR', 0.3, 0.5, 20, $2::jsonb)`,
      [
        location,
        demand === null
          ? null
          : JSON.stringify({
              window: null,
              ratchetPercent: null,
              capacityPricePerKwYear: null,
              capacityFloorKw: '2.5',
              ...demand,
            }),
      ],
    );
  }
  await db.query('VACUUM ANALYZE interval_readings');
}

async function timeCharges(db: Db) {
  const { app, headers, address, serverTimes } = await startBenchApp(db);
  const url = (kind: Kind) =>
    `${address}/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=Demand%20${kind}&From=2025-01-01&To=2025-12-31&granularity=day`;
  const times: Record<Kind, number[]> = { plain: [], demand: [], capacity: [] };
  const bills: Partial<Record<Kind, unknown>> = {};
  try {
    // Two warm-up rounds, then RUNS alternating rounds.
    for (let round = 0; round < RUNS + 2; round++)
      for (const kind of Object.keys(TARIFFS) as Kind[]) {
        const response = await fetch(url(kind), { headers });
        const body = (await response.json()) as { meters: { bill: unknown }[] };
        if (response.status !== 200) throw new Error(`${kind}: ${response.status} ${JSON.stringify(body)}`);
        bills[kind] = body.meters[0]?.bill;
        if (round >= 2) times[kind].push(serverTimes.at(-1) ?? Number.NaN);
      }
  } finally {
    await app.close();
  }
  return { times, bills };
}

/** A month's peak of `METERS` meters: the engine per meter (month buckets) and a plain max loop. */
function timeMonthPeaks() {
  const from = Date.UTC(2025, 2, 31, 22); // 1 April 2025 00:00 in Berlin
  const to = Date.UTC(2025, 3, 30, 22);
  const records: [number, number, number][] = [];
  for (let at = from, i = 0; at < to; at += QUARTER, i++)
    records.push([at, at + QUARTER, 1000 * (70 + ((i * 7919) % 97))]);
  const segment = intervalSegment(records, { intervalMinutes: 15 });
  const options = {
    fromMs: from,
    toMs: to,
    timeZone: 'Europe/Berlin',
    granularity: 'month' as const,
    nowMs: to,
    primary: 'import' as const,
  };
  for (let i = 0; i < 50; i++) computeReadings({ import: [segment] }, options); // warm the JIT
  let started = performance.now();
  let highest = 0;
  for (let m = 0; m < METERS; m++) {
    const peak = computeReadings({ import: [segment] }, options).primary.totals.demand?.power ?? 0;
    highest = Math.max(highest, peak);
  }
  const engineMs = performance.now() - started;
  started = performance.now();
  let plain = 0;
  for (let m = 0; m < METERS; m++) {
    const { micro, start, end } = segment.intervals;
    for (let i = 0; i < micro.length; i++)
      plain = Math.max(plain, ((micro[i] ?? 0) * 3_600_000) / ((end[i] ?? 0) - (start[i] ?? 0)));
  }
  const plainMs = performance.now() - started;
  if (Math.round(plain) !== highest) throw new Error(`peaks disagree: ${plain} vs ${highest}`);
  return { engineMs, plainMs, records: records.length };
}

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

async function main() {
  console.log(`load average before: ${load()} (${os.cpus().length} cores)`);
  const { times, bills } = await withEmbeddedPostgres(4, async (db) => {
    await seed(db);
    return timeCharges(db);
  });
  console.log('bills:', JSON.stringify(bills, null, 1));
  const plain50 = percentile(times.plain, 50);
  printTable(
    `The readings call, a year of 15-minute records by day, server time p50 / p95 of ${RUNS} alternated requests`,
    ['measure', 'target', 'CM', 'baseline', 'ratio'],
    (['demand', 'capacity'] as const).map((kind) => [
      kind === 'demand'
        ? 'with a demand charge (month peaks, 15 min)'
        : 'with demand, ratchet and capacity (+ 12 months read)',
      '≤ 1.25 × baseline',
      `${ms(percentile(times[kind], 50))} / ${ms(percentile(times[kind], 95))}`,
      `${ms(plain50)} / ${ms(percentile(times.plain, 95))} (flat tariff)`,
      `${(percentile(times[kind], 50) / plain50).toFixed(2)} ×`,
    ]),
  );
  const peaks = timeMonthPeaks();
  printTable(
    `A month's peak for ${METERS.toLocaleString('en')} meters (${peaks.records.toLocaleString('en')} quarter hours each, in memory)`,
    ['measure', 'target', 'CM', 'baseline', 'ratio'],
    [
      [
        'readings engine, month buckets',
        '< 5 s',
        ms(peaks.engineMs),
        `${ms(peaks.plainMs)} (a plain max loop)`,
        `${(peaks.engineMs / peaks.plainMs).toFixed(1)} ×`,
      ],
    ],
  );
  console.log(`load average after: ${load()}`);
}

relaunchWithServerMalloc();
await main();
