// `npm run bench:alerts` — alert evaluation at scale on PostgreSQL: 10,000 meters at 100
// locations, four rules each location (silent 6 h, a day above N kWh, a day above 2 × its usual, a
// register going down), 29 days of hourly registers (7 million rows). Times the evaluation after
// an import (the first pass, which opens the episodes and writes the notifications) and a steady
// one (nothing new). Prints a table; asserts nothing.
import os from 'node:os';
import { Role } from '@cm/contracts/enums.ts';
import { openPostgres, type Db } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { evaluateAlerts } from '../apps/server/src/modules/alerts/evaluate.ts';
import { insertUser } from '../apps/server/src/test/test-app.ts';
import { benchDatabase } from './lib/postgres.ts';
import { printTable } from './lib/table.ts';

const LOCATIONS = 100;
const METERS_PER_LOCATION = Number(process.env.CM_BENCH_ALERT_METERS ?? 100);
const DAYS = 29;
const HOUR = 3_600_000;
const SCHEMA_MARK = `alerts-v1-${METERS_PER_LOCATION}`;

async function seed(db: Db, nowMs: number): Promise<void> {
  await insertUser(db, { email: 'admin@bench.cm', password: 'Bench!admin1', role: Role.Admin });
  await db.query(
    `INSERT INTO locations (public_name, address, time_zone)
     SELECT 'Alert site ' || l, '', CASE WHEN l % 2 = 0 THEN 'Europe/Berlin' ELSE 'America/New_York' END
     FROM generate_series(1, $1) AS l`,
    [LOCATIONS],
  );
  // One Cube per location under one AccessPoint; a tenth of the Cubes went quiet a day ago.
  await db.query(
    `INSERT INTO devices (type, serial, location_id, last_seen_at)
     SELECT 1, 'AP-' || id, id, $1::timestamptz FROM locations`,
    [new Date(nowMs)],
  );
  await db.query(
    `INSERT INTO devices (type, serial, parent_id, location_id, last_seen_at)
     SELECT 2, 'CU-' || l.id, ap.id, l.id, CASE WHEN l.id % 10 = 0 THEN $1::timestamptz ELSE $2::timestamptz END
     FROM locations l JOIN devices ap ON ap.location_id = l.id AND ap.type = 1`,
    [new Date(nowMs - 24 * HOUR), new Date(nowMs)],
  );
  await db.query(
    `INSERT INTO devices (type, serial, parent_id, location_id, last_seen_at)
     SELECT 3, 'AM-' || l.id || '-' || m, cu.id, l.id, $2::timestamptz
     FROM locations l JOIN devices cu ON cu.location_id = l.id AND cu.type = 2, generate_series(1, $1) AS m`,
    [METERS_PER_LOCATION, new Date(nowMs)],
  );
  await db.query(
    `INSERT INTO meters (device_id, meter_number, location_id, meter_ind, installed_at)
     SELECT d.id, d.serial, d.location_id, row_number() OVER (PARTITION BY d.location_id ORDER BY d.id), $1::timestamptz
     FROM devices d WHERE d.type = 3`,
    [new Date(nowMs - 60 * 24 * HOUR)],
  );
  const from = Math.floor((nowMs - DAYS * 24 * HOUR) / HOUR) * HOUR;
  await db.query('SELECT cm_ensure_reading_partitions($1, $2)', [new Date(from), new Date(nowMs)]);
  // Hourly registers; the Cube that went quiet stops its meters a day ago; a few meters use four
  // times as much yesterday, and one in a thousand has its register go down.
  await db.query(
    `INSERT INTO register_readings (meter_id, channel, read_at, value_micro, quality)
     SELECT m.device_id, 1, $1::timestamptz + h * interval '1 hour',
            1000000::int8 * (1000 + h * (1 + m.device_id % 3)
              + CASE WHEN m.device_id % 97 = 0 AND h > $2 - 48 THEN 3 * (h - ($2 - 48)) ELSE 0 END
              - CASE WHEN m.device_id % 1000 = 0 AND h > $2 - 10 THEN 500 ELSE 0 END), 0
     FROM meters m JOIN devices d ON d.id = m.device_id JOIN devices cu ON cu.id = d.parent_id,
          generate_series(0, $2) AS h
     WHERE $1::timestamptz + h * interval '1 hour' <= coalesce(cu.last_seen_at, now())`,
    [new Date(from), DAYS * 24],
  );
  await db.query(
    `INSERT INTO alert_rules (location_id, kind, threshold)
     SELECT l.id, k.kind, k.threshold FROM locations l,
       (VALUES ('silent', 6::numeric), ('dailyAbove', 100::numeric), ('usualAbove', 2::numeric), ('registerDecrease', NULL::numeric)) AS k(kind, threshold)`,
  );
  await db.query(`INSERT INTO settings (key, value) VALUES ('bench_alerts', '"${SCHEMA_MARK}"')`);
  await db.query('VACUUM ANALYZE register_readings');
}

async function main() {
  const nowMs = Date.now();
  const { url } = await benchDatabase('cm_bench_alerts', { recreate: true });
  const db = await openPostgres({ url, poolSize: 10, statementTimeoutMs: 120_000 });
  await migrate(db);
  const started = Date.now();
  await seed(db, nowMs);
  const rows =
    (await db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM register_readings'))[0]?.n ?? 0;
  console.log(
    `seeded ${LOCATIONS * METERS_PER_LOCATION} meters, ${rows.toLocaleString('en')} readings in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  const load = () => os.loadavg()[0]?.toFixed(2) ?? '?';

  const time = async () => {
    const t0 = performance.now();
    const result = await evaluateAlerts(db, nowMs);
    return { seconds: (performance.now() - t0) / 1000, result };
  };
  const loadBefore = load();
  const first = await time();
  const steady = await time();
  const again = await time();
  const meters = LOCATIONS * METERS_PER_LOCATION;
  printTable(
    `Alert evaluation on PostgreSQL: ${meters.toLocaleString('en')} meters, ${LOCATIONS * 4} rules, ${rows.toLocaleString('en')} readings (load average ${loadBefore} before, ${load()} after)`,
    ['measure', 'target', 'CM', 'baseline', 'ratio'],
    [
      [
        `evaluation after an import: every rule × every meter, ${first.result.fired.toLocaleString('en')} episodes opened and told`,
        '< 10 s',
        `${first.seconds.toFixed(2)} s`,
        `${meters.toLocaleString('en')} meters`,
        `${((first.seconds * 1000) / meters).toFixed(3)} ms a meter`,
      ],
      [
        'evaluation with nothing new (steady state, best of two)',
        '< 10 s',
        `${Math.min(steady.seconds, again.seconds).toFixed(2)} s`,
        `first pass ${first.seconds.toFixed(2)} s`,
        `${((Math.min(steady.seconds, again.seconds) / first.seconds) * 100).toFixed(0)} % of it`,
      ],
    ],
  );
  const notifications = (
    await db.query<{ n: number }>('SELECT count(*)::int AS n FROM alert_notifications')
  )[0]?.n;
  console.log(`first pass: ${JSON.stringify(first.result)}; notifications written: ${notifications}`);
  await db.close();
}

await main();
