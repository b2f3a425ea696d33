import { sql } from 'drizzle-orm';
import {
  bigint,
  customType,
  date,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

// Every instant is timestamptz (STYLE.md); drizzle hands them over as Date.
const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const roles = pgTable('roles', {
  id: smallint('id').primaryKey(),
  name: text('name').notNull().unique(),
});

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    // Stored lower-cased so that uniqueness and login ignore case.
    email: text('email').notNull(),
    fullName: text('full_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    roleId: smallint('role_id')
      .notNull()
      .references(() => roles.id),
    isDisabled: boolean('is_disabled').notNull().default(false),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    lastLoginAt: instant('last_login_at'),
    createdAt: instant('created_at').notNull().defaultNow(),
    // The language the user reads CM in (en, fr, de, pt): alert e-mails are written in it.
    language: text('language').notNull().default('en'),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    check('users_language_check', sql`${t.language} in ('en', 'fr', 'de', 'pt')`),
  ],
);

export const locations = pgTable(
  'locations',
  {
    id: serial('id').primaryKey(),
    publicName: text('public_name').notNull().unique(),
    address: text('address').notNull().default(''),
    timeZone: text('time_zone').notNull(),
    // Day of the month a bill starts (1–28); null for calendar months.
    billingDay: smallint('billing_day'),
    archivedAt: instant('archived_at'),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [check('locations_billing_day_check', sql`${t.billingDay} between 1 and 28`)],
);

/**
 * Price series (issue 36): one price per interval of a market zone, owned by the series module.
 * A value is an integer in millionths of `currency` per `unit` (kWh or MWh), signed (market prices
 * go below zero); an interval without a row has no price. `revision` changes with every write, so
 * remembered price timelines know when to be rebuilt.
 */
export const priceSeries = pgTable(
  'price_series',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull().unique(),
    intervalMinutes: smallint('interval_minutes').notNull(),
    unit: text('unit').notNull(),
    currency: text('currency').notNull(),
    timeZone: text('time_zone').notNull(),
    zone: text('zone').notNull(),
    revision: integer('revision').notNull().default(0),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('price_series_interval_check', sql`${t.intervalMinutes} in (5, 15, 30, 60)`),
    check('price_series_unit_check', sql`${t.unit} in ('kWh', 'MWh')`),
    check('price_series_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
  ],
);

export const pricePoints = pgTable(
  'price_points',
  {
    seriesId: integer('series_id')
      .notNull()
      .references(() => priceSeries.id, { onDelete: 'cascade' }),
    startsAt: instant('starts_at').notNull(),
    valueMicro: bigint('value_micro', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.seriesId, t.startsAt] })],
);

/**
 * Carbon intensity series (issue 36): gCO2e per kWh of a grid region per interval, as integer
 * milligrams per kWh; an interval without a row has no known intensity.
 */
export const carbonSeries = pgTable(
  'carbon_series',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull().unique(),
    intervalMinutes: smallint('interval_minutes').notNull(),
    timeZone: text('time_zone').notNull(),
    region: text('region').notNull(),
    revision: integer('revision').notNull().default(0),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [check('carbon_series_interval_check', sql`${t.intervalMinutes} in (5, 15, 30, 60)`)],
);

export const carbonPoints = pgTable(
  'carbon_points',
  {
    seriesId: integer('series_id')
      .notNull()
      .references(() => carbonSeries.id, { onDelete: 'cascade' }),
    startsAt: instant('starts_at').notNull(),
    milligrams: integer('milligrams').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.seriesId, t.startsAt] }),
    check('carbon_points_milligrams_check', sql`${t.milligrams} >= 0`),
  ],
);

/** The carbon series of a location's grid region (at most one), owned by the series module. */
export const locationCarbon = pgTable('location_carbon', {
  locationId: integer('location_id')
    .primaryKey()
    .references(() => locations.id, { onDelete: 'cascade' }),
  seriesId: integer('series_id')
    .notNull()
    .references(() => carbonSeries.id, { onDelete: 'restrict' }),
});

/**
 * Tariff versions of a location (issue 18). A version applies from `effective_from` (local
 * midnight in the location's zone) until the next version's date; versions are added, never
 * edited, so what was priced stays priced. Prices are exact decimals (per kWh, per day).
 */
export const tariffs = pgTable(
  'tariffs',
  {
    id: serial('id').primaryKey(),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    effectiveFrom: date('effective_from', { mode: 'string' }).notNull(),
    currency: text('currency').notNull(),
    energyPrice: numeric('energy_price', { precision: 12, scale: 6 }).notNull(),
    // Time-of-use windows (contracts/tariffs.ts tariffWindowSchema), prices as decimal text.
    windows: jsonb('windows')
      .notNull()
      .default(sql`'[]'::jsonb`),
    holidays: date('holidays', { mode: 'string' })
      .array()
      .notNull()
      .default(sql`'{}'::date[]`),
    standingChargePerDay: numeric('standing_charge_per_day', { precision: 12, scale: 6 }).notNull(),
    taxPercent: numeric('tax_percent', { precision: 9, scale: 6 }).notNull(),
    feedInPrice: numeric('feed_in_price', { precision: 12, scale: 6 }),
    // Dynamic prices (issue 36): import and/or export priced from a price series, with a margin
    // per kWh and a tax in percent on top, per interval (docs/dynamic-prices.md).
    importSeriesId: integer('import_series_id').references(() => priceSeries.id, { onDelete: 'restrict' }),
    importMargin: numeric('import_margin', { precision: 12, scale: 6 }),
    importTaxPercent: numeric('import_tax_percent', { precision: 9, scale: 6 }),
    exportSeriesId: integer('export_series_id').references(() => priceSeries.id, { onDelete: 'restrict' }),
    exportMargin: numeric('export_margin', { precision: 12, scale: 6 }),
    exportTaxPercent: numeric('export_tax_percent', { precision: 9, scale: 6 }),
    // Demand and capacity charges (contracts/tariffs.ts tariffDemandSchema), null for none.
    demand: jsonb('demand'),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('tariffs_location_effective_key').on(t.locationId, t.effectiveFrom),
    check('tariffs_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
  ],
);

export const userLocations = pgTable(
  'user_locations',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.locationId] }),
    index('user_locations_location_idx').on(t.locationId),
  ],
);

export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    type: smallint('type').notNull(),
    serial: text('serial').notNull().unique(),
    parentId: integer('parent_id'),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id),
    priority: smallint('priority').notNull().default(1),
    status: text('status').notNull().default('active'),
    lastSeenAt: instant('last_seen_at'),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('devices_type_check', sql`${t.type} between 1 and 3`),
    check('devices_priority_check', sql`${t.priority} between 1 and 4`),
    check('devices_status_check', sql`${t.status} in ('active', 'inactive', 'faulty', 'removed')`),
    index('devices_location_idx').on(t.locationId),
    index('devices_parent_idx').on(t.parentId),
  ],
);

/** Source of meters.readings_version. */
export const meterReadingsVersions = pgSequence('meter_readings_versions');

export const meters = pgTable(
  'meters',
  {
    deviceId: integer('device_id')
      .primaryKey()
      .references(() => devices.id, { onDelete: 'cascade' }),
    meterNumber: text('meter_number').notNull().unique(),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id),
    // Position of the meter at its location (1, 2, …); an exchanged meter hands its indicator to the new one.
    meterInd: integer('meter_ind').notNull(),
    // What people call the meter ("Apt C-101", "HVAC"), set by an administrator; '' when unnamed.
    label: text('label').notNull().default(''),
    // The meter measures the location's whole supply; its other meters are sub-meters behind it.
    mainSupply: boolean('main_supply').notNull().default(false),
    // CT ratio: consumption = register difference × multiplier.
    multiplier: integer('multiplier').notNull().default(1),
    unit: text('unit').notNull().default('kWh'),
    // The register wraps to zero at 10^registerDigits units.
    registerDigits: smallint('register_digits').notNull().default(6),
    // Nominal time between readings: 1 minute to a billing period (31 days).
    intervalMinutes: integer('interval_minutes').notNull().default(15),
    // What the meter measures (channels.ts): {1} import only; {1,2} import and export.
    channels: smallint('channels')
      .array()
      .notNull()
      .default(sql`'{1}'::smallint[]`),
    installedAt: instant('installed_at').notNull(),
    removedAt: instant('removed_at'),
    /** Changes (from a sequence) whenever a statement writes this meter's readings: what results derived from them are checked against. */
    readingsVersion: bigint('readings_version', { mode: 'number' })
      .notNull()
      .default(sql`nextval('meter_readings_versions')`),
    // The newest UTC month an import-channel register reading, or interval record, was written to:
    // moved only forward by the readings triggers (migration 0021), never before the latest one,
    // so the latest is looked for in that month's partition first instead of in every partition.
    lastRegisterMonth: instant('last_register_month'),
    lastIntervalMonth: instant('last_interval_month'),
  },
  (t) => [
    check('meters_meter_ind_check', sql`${t.meterInd} >= 1`),
    check('meters_multiplier_check', sql`${t.multiplier} >= 1`),
    check('meters_register_digits_check', sql`${t.registerDigits} between 3 and 9`),
    check('meters_interval_check', sql`${t.intervalMinutes} between 1 and 44640`),
    check('meters_channels_check', sql`${t.channels} <@ '{1,2}'::smallint[] and 1 = any(${t.channels})`),
    index('meters_location_ind_idx').on(t.locationId, t.meterInd, t.installedAt),
    // A meter number as people type it: case and separators ignored (meters.queries.ts, METER_KEY).
    index('meters_number_key_idx').on(sql`regexp_replace(upper(${t.meterNumber}), '[^[:alnum:]]', '', 'g')`),
  ],
);

// Readings are kept as the source said them (docs/readings-model.md): a register value at an instant,
// or an interval's energy. Values are integers in millionths of the meter's unit (mWh for kWh), so
// sums are exact at every resolution the sources give (ESB: 0.1 Wh; ESPI: mWh). Each value has a
// channel (1 import, 2 export), a quality (0 actual, 1 estimated, 2 substituted), a source (0
// device, 1 import, 3 manual, 4 exchange) and a revision count (> 0: corrected, the replaced values
// are in reading_revisions). Both tables are partitioned by month of their time column (migration
// 0005; db/partitions.ts creates the partitions) and keyed by meter first: every query filters by
// meter, so they can be distributed by meter as well. No foreign key checks each row's meter (a
// check per row halved the write rate): the writes lock the meters they touch once per statement
// (readings-stage.queries.ts, storeStaged), and deleting a meter deletes its readings (migration
// 0018, meters_readings_deleted).

/** Register readings: the cumulative register as the meter shows it, before the CT multiplier. */
export const registerReadings = pgTable(
  'register_readings',
  {
    meterId: integer('meter_id').notNull(),
    channel: smallint('channel').notNull().default(1),
    readAt: instant('read_at').notNull(),
    valueMicro: bigint('value_micro', { mode: 'number' }).notNull(),
    quality: smallint('quality').notNull().default(0),
    source: smallint('source').notNull().default(0),
    revision: smallint('revision').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.meterId, t.channel, t.readAt] }),
    check('register_readings_value_check', sql`${t.valueMicro} >= 0`),
  ],
);

/** Interval readings: the energy of [start_at, end_at), after the CT multiplier. */
export const intervalReadings = pgTable(
  'interval_readings',
  {
    meterId: integer('meter_id').notNull(),
    channel: smallint('channel').notNull().default(1),
    startAt: instant('start_at').notNull(),
    endAt: instant('end_at').notNull(),
    energyMicro: bigint('energy_micro', { mode: 'number' }).notNull(),
    quality: smallint('quality').notNull().default(0),
    source: smallint('source').notNull().default(0),
    revision: smallint('revision').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.meterId, t.channel, t.startAt] }),
    check('interval_readings_energy_check', sql`${t.energyMicro} >= 0`),
    check('interval_readings_span_check', sql`${t.endAt} > ${t.startAt}`),
  ],
);

/** Values a correction replaced: what was shown before, when and by whom it changed. */
export const readingRevisions = pgTable(
  'reading_revisions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    meterId: integer('meter_id')
      .notNull()
      .references(() => meters.deviceId, { onDelete: 'cascade' }),
    channel: smallint('channel').notNull(),
    // 0 register (at = read_at), 1 interval (at = start_at, end_at its end).
    kind: smallint('kind').notNull(),
    at: instant('at').notNull(),
    endAt: instant('end_at'),
    oldMicro: bigint('old_micro', { mode: 'number' }).notNull(),
    oldQuality: smallint('old_quality').notNull(),
    newMicro: bigint('new_micro', { mode: 'number' }).notNull(),
    newQuality: smallint('new_quality').notNull(),
    replacedAt: instant('replaced_at').notNull().defaultNow(),
    actorUserId: integer('actor_user_id'),
    actorApiKeyId: integer('actor_api_key_id'),
    reason: text('reason').notNull(),
  },
  (t) => [index('reading_revisions_meter_idx').on(t.meterId, t.channel, t.at)],
);

/**
 * A read cache of readings: one row per meter, channel and closed UTC month holding that month's
 * readings as packed columns — registers: `rt` instants (float64 epoch ms), `rv` values (float64
 * millionths), `rq` quality + 4 × corrected (uint8); intervals: `it` starts, `ie` ends, `iv`
 * energies, `iq` — so a year of one meter is read from 12 rows instead of 35,040. Packed in the
 * background once writes queue a month (reading_chunk_queue), or on demand, from the readings
 * tables, which stay the only source of truth: statement triggers on them delete the chunks of
 * every month they touch (migrations 0005, 0016), under a per-meter advisory lock shared with the
 * builder.
 */
export const readingChunks = pgTable(
  'reading_chunks',
  {
    meterId: integer('meter_id')
      .notNull()
      .references(() => meters.deviceId, { onDelete: 'cascade' }),
    channel: smallint('channel').notNull(),
    monthStart: instant('month_start').notNull(),
    readings: integer('readings').notNull(),
    rt: bytea('rt').notNull(),
    rv: bytea('rv').notNull(),
    rq: bytea('rq').notNull(),
    it: bytea('it').notNull(),
    ie: bytea('ie').notNull(),
    iv: bytea('iv').notNull(),
    iq: bytea('iq').notNull(),
    /** Unique per stored chunk (a rebuilt month gets a new one): what a process's decoded copy is checked against. */
    version: bigserial('version', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.meterId, t.channel, t.monthStart] })],
);

/**
 * Months whose readings changed since they were last packed (the same statement triggers add them,
 * migration 0016): the server packs the settled ones in the background, so that the first request
 * for a meter's year finds its chunks stored.
 */
export const readingChunkQueue = pgTable(
  'reading_chunk_queue',
  {
    meterId: integer('meter_id')
      .notNull()
      .references(() => meters.deviceId, { onDelete: 'cascade' }),
    channel: smallint('channel').notNull(),
    monthStart: instant('month_start').notNull(),
  },
  (t) => [primaryKey({ columns: [t.meterId, t.channel, t.monthStart] })],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: instant('created_at').notNull().defaultNow(),
    lastActiveAt: instant('last_active_at').notNull().defaultNow(),
    expiresAt: instant('expires_at').notNull(),
    revokedAt: instant('revoked_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Failed sign-in counters per account, per (account, address) and per address: guessing is slowed, never a lock-out for good. */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: instant('window_started_at').notNull().defaultNow(),
  blockedUntil: instant('blocked_until'),
});

/** Addresses a user has signed in from: another address's guessing never blocks the user here (ASVS 5.0 V6.3). */
export const loginAddresses = pgTable(
  'login_addresses',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    lastSuccessAt: instant('last_success_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.address] })],
);

export const bookmarks = pgTable(
  'bookmarks',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    itemId: text('item_id').notNull(),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.itemId] })],
);

/** What a user calls a meter of theirs ("My flat"), seen by that user only; keyed like bookmarks, by meter number. */
export const meterNicknames = pgTable(
  'meter_nicknames',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    meterNumber: text('meter_number').notNull(),
    nickname: text('nickname').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.meterNumber] })],
);

export const apiKeys = pgTable('api_keys', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  // The first characters of the key, shown in lists; the key itself is only stored as a SHA-256 hash.
  prefix: text('prefix').notNull(),
  keyHash: text('key_hash').notNull().unique(),
  scopes: text('scopes').array().notNull(),
  createdAt: instant('created_at').notNull().defaultNow(),
  lastUsedAt: instant('last_used_at'),
  revokedAt: instant('revoked_at'),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: instant('at').notNull().defaultNow(),
    actorUserId: integer('actor_user_id'),
    actorApiKeyId: integer('actor_api_key_id'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    detail: jsonb('detail'),
  },
  (t) => [index('audit_log_at_idx').on(t.at)],
);

/** Small key/value store for things the server provisions once (the web app's API key id, the demo seed marker). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
});

/** Imports run as jobs (issue 16): the spooled file, what detection found, progress and the report. */
export const importJobs = pgTable(
  'import_jobs',
  {
    id: text('id').primaryKey(),
    status: text('status').notNull(),
    fileName: text('file_name'),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    detection: jsonb('detection').notNull(),
    source: jsonb('source'),
    phase: text('phase'),
    rowsRead: bigint('rows_read', { mode: 'number' }).notNull().default(0),
    bytesRead: bigint('bytes_read', { mode: 'number' }).notNull().default(0),
    report: jsonb('report'),
    error: text('error'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    apiKeyId: integer('api_key_id'),
    createdAt: instant('created_at').notNull().defaultNow(),
    startedAt: instant('started_at'),
    finishedAt: instant('finished_at'),
    /** Refreshed while a process runs the job: a running job whose heartbeat stopped is taken over. */
    heartbeatAt: instant('heartbeat_at'),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
  },
  (t) => [
    check(
      'import_jobs_status_check',
      sql`${t.status} in ('uploaded', 'queued', 'running', 'done', 'refused', 'failed', 'cancelled')`,
    ),
    index('import_jobs_created_idx').on(t.createdAt),
  ],
);

/** Mappings saved by name, so that next month's file from the same source imports in one click. */
export const importMappings = pgTable('import_mappings', {
  name: text('name').primaryKey(),
  mapping: jsonb('mapping').notNull(),
  updatedAt: instant('updated_at').notNull().defaultNow(),
});

/**
 * Alert rules (issue 18): per location, for every meter of it (meter_id null) or one meter.
 * `threshold`: hours (silent), kWh (dailyAbove), a factor (usualAbove); null for registerDecrease.
 */
export const alertRules = pgTable(
  'alert_rules',
  {
    id: serial('id').primaryKey(),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    meterId: integer('meter_id').references(() => meters.deviceId, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    threshold: numeric('threshold', { precision: 14, scale: 6 }),
    createdAt: instant('created_at').notNull().defaultNow(),
    // A customer's own rule (issue 34): only its owner sees it and is told; null: an administrator's.
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('alert_rules_owner_idx').on(t.ownerId),
    check(
      'alert_rules_kind_check',
      sql`${t.kind} in ('silent', 'dailyAbove', 'usualAbove', 'registerDecrease', 'billAbove', 'priceAbove', 'peakNear')`,
    ),
    index('alert_rules_location_idx').on(t.locationId),
  ],
);

/** An alert's episode: from when the rule's condition began to hold for a meter until it cleared. */
export const alertEpisodes = pgTable(
  'alert_episodes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ruleId: integer('rule_id')
      .notNull()
      .references(() => alertRules.id, { onDelete: 'cascade' }),
    meterId: integer('meter_id')
      .notNull()
      .references(() => meters.deviceId, { onDelete: 'cascade' }),
    startedAt: instant('started_at').notNull(),
    clearedAt: instant('cleared_at'),
    detail: jsonb('detail').notNull(),
    // As they were when it fired: what its notifications and e-mails say.
    meterNumber: text('meter_number').notNull(),
    locationName: text('location_name').notNull(),
    timeZone: text('time_zone').notNull(),
  },
  (t) => [
    // Once per episode: at most one open episode per rule and meter.
    uniqueIndex('alert_episodes_open_key')
      .on(t.ruleId, t.meterId)
      .where(sql`${t.clearedAt} IS NULL`),
  ],
);

/** What each person was told: an episode began (fired) or ended (cleared), read or not, e-mailed or not. */
export const alertNotifications = pgTable(
  'alert_notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    episodeId: bigint('episode_id', { mode: 'number' })
      .notNull()
      .references(() => alertEpisodes.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    inApp: boolean('in_app').notNull(),
    createdAt: instant('created_at').notNull().defaultNow(),
    readAt: instant('read_at'),
    // E-mail: the address it goes to (null when not asked for), then 'pending', 'sent' or why it failed.
    emailTo: text('email_to'),
    emailStatus: text('email_status'),
    // The recipient's language when the alert was queued: the e-mail is written in it.
    emailLanguage: text('email_language').notNull().default('en'),
    // Tries so far, when the next is due (null: at once), and why the last one failed; a pending
    // e-mail is tried again with the webhooks' backoff, then marked failed.
    emailAttempts: integer('email_attempts').notNull().default(0),
    emailNextAt: instant('email_next_at'),
    emailLastError: text('email_last_error'),
  },
  (t) => [
    check('alert_notifications_event_check', sql`${t.event} in ('fired', 'cleared')`),
    index('alert_notifications_user_idx').on(t.userId, t.createdAt),
  ],
);

/** How a person hears of each kind of alert; no row: in the app and by e-mail. */
export const alertPreferences = pgTable(
  'alert_preferences',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    inApp: boolean('in_app').notNull(),
    email: boolean('email').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

/** Integrators' endpoints told of every alert episode fired and cleared, signed with their secret. */
export const webhooks = pgTable('webhooks', {
  id: serial('id').primaryKey(),
  url: text('url').notNull(),
  // The HMAC-SHA256 key the deliveries are signed with (shown once, when created).
  secret: text('secret').notNull(),
  createdAt: instant('created_at').notNull().defaultNow(),
});

/** One event for one webhook: tried until delivered, with backoff, then given up. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at').notNull().defaultNow(),
    lastResult: text('last_result'),
    deliveredAt: instant('delivered_at'),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('webhook_deliveries_status_check', sql`${t.status} in ('pending', 'delivered', 'failed')`),
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt),
  ],
);

/**
 * "Who read my data" (issue 37): one row per read of a meter's data by anyone but its own customer
 * on the check page — an administrator, an API key, a webhook, a file export, an app — kept three
 * years. Who read is the name as it was then (the reader may be renamed or removed since).
 */
export const meterAccessLog = pgTable(
  'meter_access_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // No foreign key: an entry read just before its meter is removed must still be written; a
    // removed meter's entries are unreachable (ids are not reused) and go with the others at 3 years.
    meterId: integer('meter_id').notNull(),
    at: instant('at').notNull(),
    channel: text('channel').notNull(),
    readerName: text('reader_name').notNull(),
    readerUserId: integer('reader_user_id'),
    readerApiKeyId: integer('reader_api_key_id'),
    data: text('data').array().notNull(),
    rangeFrom: instant('range_from'),
    rangeTo: instant('range_to'),
    what: text('what').notNull(),
  },
  (t) => [
    check(
      'meter_access_log_channel_check',
      sql`${t.channel} in ('admin', 'api-key', 'webhook', 'export', 'app')`,
    ),
    index('meter_access_log_meter_idx').on(t.meterId, t.at),
    index('meter_access_log_at_idx').on(t.at),
  ],
);

/**
 * Third-party apps of Green Button Connect My Data (issue 37), registered by administrators. The
 * client secret is stored as its SHA-256 only (shown once). A removed app stays, so that the audit
 * log and the access log keep its name; it is never listed or asked for consent again.
 */
export const connectApps = pgTable(
  'connect_apps',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    contact: text('contact').notNull(),
    clientId: text('client_id').notNull().unique(),
    secretHash: text('secret_hash').notNull(),
    redirectUris: text('redirect_uris').array().notNull(),
    dataKinds: text('data_kinds').array().notNull(),
    notificationUri: text('notification_uri'),
    status: text('status').notNull().default('active'),
    createdAt: instant('created_at').notNull().defaultNow(),
    suspendedAt: instant('suspended_at'),
    removedAt: instant('removed_at'),
  },
  (t) => [check('connect_apps_status_check', sql`${t.status} in ('active', 'suspended', 'removed')`)],
);

/**
 * A customer's consent to a third-party app (issue 37): which of their meters, which kinds of
 * data, the data from `data_from` until `until` (the grant ends then too, at most three years after
 * it was given). `oidc_grant_id` is the OAuth server's grant its tokens are bound to; a revoked
 * grant (by the customer, an administrator, the app's removal or a refresh token used twice) keeps
 * its row, for the customer's list and the audit log.
 */
export const connectGrants = pgTable(
  'connect_grants',
  {
    id: serial('id').primaryKey(),
    appId: integer('app_id')
      .notNull()
      .references(() => connectApps.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    meterIds: integer('meter_ids').array().notNull(),
    dataKinds: text('data_kinds').array().notNull(),
    dataFrom: instant('data_from').notNull(),
    until: instant('until').notNull(),
    oidcGrantId: text('oidc_grant_id').notNull().unique(),
    createdAt: instant('created_at').notNull().defaultNow(),
    revokedAt: instant('revoked_at'),
    revokedBy: text('revoked_by'),
  },
  (t) => [
    index('connect_grants_user_idx').on(t.userId),
    index('connect_grants_app_idx').on(t.appId),
    check('connect_grants_range_check', sql`${t.dataFrom} < ${t.until}`),
  ],
);

/**
 * ESPI notifications (issue 37): after an import or a device batch adds data to a meter of a live
 * grant whose app has a notification URI, one POST of the grant's batch URI (an espi:BatchList) to
 * that URI, signed and tried again as webhooks are (signed-delivery.ts). Goes with its grant.
 */
export const espiNotifications = pgTable(
  'espi_notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    grantId: integer('grant_id')
      .notNull()
      .references(() => connectGrants.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at').notNull().defaultNow(),
    lastResult: text('last_result'),
    deliveredAt: instant('delivered_at'),
    createdAt: instant('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('espi_notifications_status_check', sql`${t.status} in ('pending', 'delivered', 'failed')`),
    index('espi_notifications_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('espi_notifications_grant_idx').on(t.grantId, t.createdAt),
  ],
);

/**
 * What the OAuth server (oidc-provider) keeps between requests: interactions, sessions, codes,
 * tokens, its grants; one JSON payload per model and id, found also by its grant and by a
 * session's uid. Expired rows are ignored when read and deleted by housekeeping.
 */
export const oauthArtefacts = pgTable(
  'oauth_artefacts',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    uid: text('uid'),
    expiresAt: instant('expires_at'),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('oauth_artefacts_grant_idx').on(t.grantId),
    index('oauth_artefacts_uid_idx').on(t.uid),
    index('oauth_artefacts_expires_idx').on(t.expiresAt),
  ],
);
