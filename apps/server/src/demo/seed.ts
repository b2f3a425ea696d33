import { Role, type RoleId } from '@cm/contracts/enums.ts';
import { hashPassword } from '../modules/auth/index.ts';
import type { Db, SqlRunner } from '../db/client.ts';
import type { DemoClientKey } from './demo-content.ts';
import { buildDemoPlan, type DemoPlan, type DemoSummary, type ReadingSeries } from './demo-plan.ts';
import { STEP_MS } from './load-profile.ts';

export type { DemoSummary } from './demo-plan.ts';

export interface DemoLogin {
  key: 'admin' | DemoClientKey;
  role: 'admin' | 'client';
  roleId: RoleId;
  email: string;
  password: string;
  fullName: string;
}

/**
 * The demo accounts, printed at start-up and listed in the README. Public on purpose: they exist only
 * in a database the demo seeded, which start-up does only when the database is empty.
 */
export const DEMO_LOGINS: readonly DemoLogin[] = [
  {
    key: 'admin',
    role: 'admin',
    roleId: Role.Admin,
    email: 'admin@demo.cm',
    password: 'Admin!2026',
    fullName: 'Dana Whitfield',
  },
  {
    key: 'clientA',
    role: 'client',
    roleId: Role.Client,
    email: 'client.a@demo.cm',
    password: 'ClientA!2026',
    fullName: 'Ana Sousa',
  },
  {
    key: 'clientB',
    role: 'client',
    roleId: Role.Client,
    email: 'client.b@demo.cm',
    password: 'ClientB!2026',
    fullName: 'Ben Carter',
  },
];

export interface DemoOptions {
  /** PRNG seed: the same seed and `now` give byte-identical data (password hashes aside: argon2 salts them). */
  seed?: number;
  /** End of the period; rounded down to the 15-minute mark. Default: the current time. */
  now?: Date;
  /** Length of the period in calendar months (default 13); tests use shorter ones. */
  months?: number;
}

export const DEFAULT_DEMO_SEED = 20_260_101;
const DEFAULT_MONTHS = 13;
// Rows per readings INSERT: each column travels as one array parameter, so a chunk is one round trip
// whatever its size; 20,000 rows keep each parameter around half a megabyte.
const READINGS_CHUNK = 20_000;

/** True when no user exists yet: start-up seeds the demo only then, never over real data. */
export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const rows = await db.query<{ empty: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM users) AS empty');
  return rows[0]?.empty ?? true;
}

// Array parameters are sent as PostgreSQL array literals built here, so that neither the driver's own
// array serialisation nor its handling of Dates comes into play.
const numberArray = (values: ArrayLike<number>) => `{${Array.prototype.join.call(values, ',')}}`;
const quote = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const textArray = (values: readonly (string | null)[]) =>
  `{${values.map((v) => (v === null ? 'NULL' : quote(v))).join(',')}}`;
const instantArray = (values: readonly (Date | null)[]) =>
  textArray(values.map((v) => (v ? v.toISOString() : null)));

async function idsBy(tx: SqlRunner, sql: string): Promise<Map<string, number>> {
  const rows = await tx.query<{ id: number; key: string }>(sql);
  return new Map(rows.map((r) => [r.key, r.id]));
}

function need(map: Map<string, number>, key: string): number {
  const id = map.get(key);
  if (id === undefined) throw new Error(`demo seed: no id for ${key}`);
  return id;
}

/** One channel's register readings (1 import, 2 export). */
async function insertReadings(tx: SqlRunner, meterId: number, series: ReadingSeries, channel: 1 | 2) {
  for (let from = 0; from < series.readAtMs.length; from += READINGS_CHUNK) {
    const to = Math.min(from + READINGS_CHUNK, series.readAtMs.length);
    const seconds = series.readAtMs.subarray(from, to).map((ms) => ms / 1000);
    // The plan's registers are thousandths of a kWh; stored as millionths.
    await tx.query(
      `INSERT INTO register_readings (meter_id, channel, read_at, value_micro, source, quality)
       SELECT $1::int, $6::int2, to_timestamp(t), r * 1000, s, q FROM unnest($2::int8[], $3::int8[], $4::int2[], $5::int2[]) AS u(t, r, s, q)`,
      [
        meterId,
        numberArray(seconds),
        numberArray(series.registerMilli.subarray(from, to)),
        numberArray(series.source.subarray(from, to)),
        numberArray(series.quality.subarray(from, to)),
        channel,
      ],
    );
  }
}

async function writePlan(tx: SqlRunner, plan: DemoPlan, marker: object) {
  const existing = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  if ((existing[0]?.n ?? 0) > 0)
    throw new Error('demo seed: the database already has users; the demo is only created in an empty one');

  // Rows go in with explicit created_at values and in a fixed order, so serial ids and every column
  // come out the same on each run.
  await tx.query(
    `INSERT INTO locations (public_name, address, time_zone, created_at, billing_day)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::int2[])`,
    [
      textArray(plan.locations.map((l) => l.publicName)),
      textArray(plan.locations.map((l) => l.address)),
      textArray(plan.locations.map((l) => l.timeZone)),
      instantArray(plan.locations.map((l) => l.createdAt)),
      plan.locations.map((l) => l.billingDay),
    ],
  );
  const locationIds = await idsBy(tx, 'SELECT id, public_name AS key FROM locations');
  await tx.query(
    `INSERT INTO alert_rules (location_id, kind, threshold, created_at)
     SELECT * FROM unnest($1::int[], $2::text[], $3::numeric[], $4::timestamptz[])`,
    [
      numberArray(plan.alertRules.map((rule) => need(locationIds, rule.locationName))),
      textArray(plan.alertRules.map((rule) => rule.kind)),
      plan.alertRules.map((rule) => rule.threshold),
      instantArray(plan.alertRules.map(() => plan.users[0]?.createdAt ?? new Date(0))),
    ],
  );
  // Tariff versions as an administrator set them over the history (the API adds only from today on).
  for (const { locationName, tariff } of plan.tariffs) {
    await tx.query(
      `INSERT INTO tariffs (location_id, effective_from, currency, energy_price, windows, holidays,
         standing_charge_per_day, tax_percent, feed_in_price, demand, created_at)
       VALUES ($1, $2::date, $3, $4::numeric, $5::jsonb, $6::date[], $7::numeric, $8::numeric, $9::numeric,
         $10::jsonb, $2::date)`,
      [
        need(locationIds, locationName),
        tariff.effectiveFrom,
        tariff.currency,
        tariff.energyPrice,
        JSON.stringify(tariff.windows),
        tariff.holidays,
        tariff.standingChargePerDay,
        tariff.taxPercent,
        tariff.feedInPrice,
        tariff.demand === null ? null : JSON.stringify(tariff.demand),
      ],
    );
  }

  await tx.query(
    `INSERT INTO users (email, full_name, password_hash, role_id, created_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int2[], $5::timestamptz[])`,
    [
      textArray(plan.users.map((u) => u.email.toLowerCase())),
      textArray(plan.users.map((u) => u.fullName)),
      textArray(plan.users.map((u) => u.passwordHash)),
      numberArray(plan.users.map((u) => u.roleId)),
      instantArray(plan.users.map((u) => u.createdAt)),
    ],
  );
  const userIds = await idsBy(tx, 'SELECT id, email AS key FROM users');

  await tx.query(
    'INSERT INTO user_locations (user_id, location_id) SELECT * FROM unnest($1::int[], $2::int[])',
    [
      numberArray(plan.userLocations.map((ul) => need(userIds, ul.email))),
      numberArray(plan.userLocations.map((ul) => need(locationIds, ul.locationName))),
    ],
  );

  // Parents first: each tier's ids are looked up before the next tier names them as parent_id.
  const deviceIds = new Map<string, number>();
  for (const type of [1, 2, 3]) {
    const tier = plan.devices.filter((d) => d.type === type);
    await tx.query(
      `INSERT INTO devices (type, serial, parent_id, location_id, priority, status, last_seen_at, created_at)
       SELECT * FROM unnest($1::int2[], $2::text[], $3::int[], $4::int[], $5::int2[], $6::text[], $7::timestamptz[], $8::timestamptz[])`,
      [
        numberArray(tier.map((d) => d.type)),
        textArray(tier.map((d) => d.serial)),
        textArray(
          tier.map((d) => (d.parentSerial === null ? null : String(need(deviceIds, d.parentSerial)))),
        ),
        numberArray(tier.map((d) => need(locationIds, d.locationName))),
        numberArray(tier.map((d) => d.priority)),
        textArray(tier.map((d) => d.status)),
        instantArray(tier.map((d) => d.lastSeenAt)),
        instantArray(tier.map((d) => d.createdAt)),
      ],
    );
    for (const [serial, id] of await idsBy(
      tx,
      `SELECT id, serial AS key FROM devices WHERE type = ${type}`,
    )) {
      deviceIds.set(serial, id);
    }
  }

  await tx.query(
    `INSERT INTO meters (device_id, meter_number, location_id, meter_ind, multiplier, register_digits, interval_minutes, installed_at, removed_at, label, main_supply)
     SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::int[], $5::int[], $6::int2[], $7::int2[], $8::timestamptz[], $9::timestamptz[], $10::text[], $11::boolean[])`,
    [
      numberArray(plan.meters.map((m) => need(deviceIds, m.deviceSerial))),
      textArray(plan.meters.map((m) => m.meterNumber)),
      numberArray(plan.meters.map((m) => need(locationIds, m.locationName))),
      numberArray(plan.meters.map((m) => m.meterInd)),
      numberArray(plan.meters.map((m) => m.multiplier)),
      numberArray(plan.meters.map((m) => m.registerDigits)),
      numberArray(plan.meters.map(() => STEP_MS / 60_000)),
      instantArray(plan.meters.map((m) => m.installedAt)),
      instantArray(plan.meters.map((m) => m.removedAt)),
      textArray(plan.meters.map((m) => m.label)),
      textArray(plan.meters.map((m) => String(m.mainSupply))),
    ],
  );

  // The readings tables' monthly partitions for the plan's months (no one else uses the database yet).
  await tx.query(`SELECT cm_ensure_reading_partitions($1::timestamptz - interval '31 days', $2)`, [
    plan.summary.from,
    plan.summary.now,
  ]);
  // Meter by meter, each in time order: rows arrive in primary-key order and the index only grows at its right edge.
  for (const meter of plan.meters) {
    const meterId = need(deviceIds, meter.deviceSerial);
    await insertReadings(tx, meterId, meter.readings, 1);
    if (meter.exportReadings) {
      await tx.query("UPDATE meters SET channels = '{1,2}' WHERE device_id = $1", [meterId]);
      await insertReadings(tx, meterId, meter.exportReadings, 2);
    }
  }

  await writeSeries(tx, plan, locationIds);

  // Bookmark ids follow the contract's suggestion ids: `location:<id>`, `meter:<meter number>`.
  await tx.query(
    'INSERT INTO bookmarks (user_id, item_id, created_at) SELECT * FROM unnest($1::int[], $2::text[], $3::timestamptz[])',
    [
      numberArray(plan.bookmarks.map((b) => need(userIds, b.email))),
      textArray(
        plan.bookmarks.map((b) =>
          b.item.kind === 'location'
            ? `location:${need(locationIds, b.item.locationName)}`
            : `meter:${b.item.meterNumber}`,
        ),
      ),
      instantArray(plan.bookmarks.map((b) => b.createdAt)),
    ],
  );

  // Marks the database as a demo (and which one), for support questions and for start-up messages.
  await tx.query("INSERT INTO settings (key, value) VALUES ('demo_seed', $1::jsonb)", [
    JSON.stringify(marker),
  ]);
}

/**
 * Creates the demo site in an empty database (after migrations), in one transaction: it is there
 * completely or not at all. See demo-content.ts for the site and demo-plan.ts for the special cases
 * (DST days, communication gap, register rollover, meter exchange, stale Cube, estimates).
 */
/** The demo's grid regions, by its locations' zones. */
const REGIONS: Record<string, string> = {
  'Europe/Lisbon': 'PT',
  'Europe/Berlin': 'DE',
  'America/New_York': 'US-NY',
};
/** The demo location whose energy is priced from the half-hourly day-ahead series. */
const DYNAMIC_LOCATION = 'Marina Quay / Pier 4';

/**
 * Price and carbon series (issue 36), generated deterministically: every value is a formula of
 * its interval's index from the history's first hour (a daily and a weekly wave and an integer
 * hash for the wiggle), no randomness, so the same plan always holds the same series. They run
 * from the history's start to two days past now, so tomorrow's cleanest hours have "forecasts".
 * Marina Quay takes its import price from the day-ahead series from the start of last month.
 */
async function writeSeries(tx: SqlRunner, plan: DemoPlan, locationIds: Map<string, number>): Promise<void> {
  const range = [plan.summary.from, plan.summary.now];
  const halfHours = `generate_series(0, (extract(epoch FROM ($2::timestamptz + interval '2 days'
      - date_trunc('hour', $1::timestamptz))) / 1800)::int - 1) AS i`;
  const start = `date_trunc('hour', $1::timestamptz) + i * interval '30 minutes'`;
  const [price] = await tx.query<{ id: number }>(
    `INSERT INTO price_series (name, interval_minutes, unit, currency, time_zone, zone)
     VALUES ('Demo day-ahead DE-LU', 30, 'MWh', 'EUR', 'Europe/Berlin', 'DE-LU') RETURNING id`,
  );
  // EUR/MWh: about 90, dearer in the morning and evening, a cheap midday, a weekend dip.
  await tx.query(
    `INSERT INTO price_points (series_id, starts_at, value_micro)
     SELECT $3, ${start}, 1000 * (90000 + round(35000 * sin(2 * pi() * (i % 48) / 24.0))::int8
       - CASE WHEN (i / 48) % 7 IN (5, 6) THEN 25000 ELSE 0 END + (i * 7919) % 9001 - 4500)
     FROM ${halfHours}`,
    [...range, price?.id],
  );
  const regions = [...new Set(plan.locations.map((l) => REGIONS[l.timeZone]).filter((r) => r !== undefined))];
  for (const [k, region] of regions.entries()) {
    const [carbon] = await tx.query<{ id: number }>(
      `INSERT INTO carbon_series (name, interval_minutes, time_zone, region) VALUES ($1, 30, 'UTC', $2) RETURNING id`,
      [`Demo grid ${region}`, region],
    );
    // g/kWh: a base per region, cleaner around midday (solar), a wiggle from an integer hash.
    await tx.query(
      `INSERT INTO carbon_points (series_id, starts_at, milligrams)
       SELECT $3, ${start}, (200000 + 80000 * $4 + round(90000 * cos(2 * pi() * (i % 48) / 48.0))::int
         + (i * 104729) % 20011)::int
       FROM ${halfHours}`,
      [...range, carbon?.id, k],
    );
    for (const location of plan.locations)
      if (REGIONS[location.timeZone] === region)
        await tx.query('INSERT INTO location_carbon (location_id, series_id) VALUES ($1, $2)', [
          need(locationIds, location.publicName),
          carbon?.id,
        ]);
  }
  if (plan.locations.some((l) => l.publicName === DYNAMIC_LOCATION))
    await tx.query(
      `INSERT INTO tariffs (location_id, effective_from, currency, energy_price, standing_charge_per_day,
         tax_percent, import_series_id, import_margin, import_tax_percent, created_at)
       SELECT $1, d, 'EUR', 0, 0.52, 0, $2, 0.12, 19, d
       FROM (SELECT (date_trunc('month', $3::timestamptz AT TIME ZONE 'Europe/Berlin') - interval '1 month')::date AS d) AS m
       WHERE d > (SELECT max(effective_from) FROM tariffs WHERE location_id = $1)`,
      [need(locationIds, DYNAMIC_LOCATION), price?.id, plan.summary.now],
    );
}

export async function seedDemo(db: Db, options: DemoOptions = {}): Promise<DemoSummary> {
  const seed = options.seed ?? DEFAULT_DEMO_SEED;
  const months = options.months ?? DEFAULT_MONTHS;
  if (!Number.isInteger(months) || months < 1 || months > 36)
    throw new RangeError('months must be an integer from 1 to 36');
  const nowMs = Math.floor((options.now ?? new Date()).getTime() / STEP_MS) * STEP_MS;
  if (!Number.isFinite(nowMs)) throw new RangeError('now must be a valid date');
  // Hashing is slow on purpose (argon2): done before the transaction opens, so it holds no locks meanwhile.
  const users = await Promise.all(
    DEMO_LOGINS.map(async (login) => ({ ...login, passwordHash: await hashPassword(login.password) })),
  );
  const plan = buildDemoPlan({ seed, nowMs, months, users });
  await db.transaction((tx) => writePlan(tx, plan, { seed, months, now: plan.summary.now, version: 1 }));
  return plan.summary;
}
