import type { SqlRunner } from '../../db/client.ts';
import { locationVisible, type Scope } from '../scope.ts';

export interface DeviceRow {
  id: number;
  serial: string;
  type: number;
  status: string;
  priority: number;
  last_seen_at: Date | null;
}

export interface MeterRow {
  device_id: number;
  meter_number: string;
  meter_ind: number;
  multiplier: number;
  unit: string;
  register_digits: number;
  interval_minutes: number;
  installed_at: Date;
  removed_at: Date | null;
  status: string;
  priority: number;
  last_seen_at: Date | null;
  parent_id: number | null;
  location_id: number;
  public_name: string;
  address: string;
  time_zone: string;
  /** Changes whenever the meter's readings are written (migration 0004). */
  readings_version: number;
}

const meterColumns = `m.device_id, m.meter_number, m.meter_ind, m.multiplier, m.unit, m.register_digits,
  m.interval_minutes, m.installed_at, m.removed_at, d.status, d.priority, d.last_seen_at, d.parent_id,
  l.id AS location_id, l.public_name, l.address, l.time_zone, m.readings_version`;

/** The window before the last reading over which completeness is checked (cheap on years of data). */
export const COMPLETENESS_WINDOW = '30 days';

/** A meter with its chain (Cube and AccessPoint) and last reading, in one round trip. */
export interface MeterDetailsRow extends MeterRow {
  up1_id: number | null;
  up1_serial: string | null;
  up1_type: number | null;
  up1_status: string | null;
  up1_priority: number | null;
  up1_last_seen_at: Date | null;
  up2_id: number | null;
  up2_serial: string | null;
  up2_type: number | null;
  up2_status: string | null;
  up2_priority: number | null;
  up2_last_seen_at: Date | null;
  last_read_at: Date | null;
  last_register_milli: number | null;
}

const meterDetails = `SELECT ${meterColumns},
    p1.id AS up1_id, p1.serial AS up1_serial, p1.type AS up1_type, p1.status AS up1_status,
    p1.priority AS up1_priority, p1.last_seen_at AS up1_last_seen_at,
    p2.id AS up2_id, p2.serial AS up2_serial, p2.type AS up2_type, p2.status AS up2_status,
    p2.priority AS up2_priority, p2.last_seen_at AS up2_last_seen_at,
    lr.read_at AS last_read_at, lr.register_milli AS last_register_milli
  FROM meters m JOIN devices d ON d.id = m.device_id JOIN locations l ON l.id = m.location_id
  LEFT JOIN devices p1 ON p1.id = d.parent_id
  LEFT JOIN devices p2 ON p2.id = p1.parent_id
  LEFT JOIN LATERAL (
    SELECT read_at, register_milli FROM readings WHERE meter_id = m.device_id ORDER BY read_at DESC LIMIT 1
  ) lr ON true`;

/** The readings in the completeness window that ends at the meter's last reading: the first one and how many. */
export async function findCompletenessWindow(
  db: SqlRunner,
  meterId: number,
  installedAt: Date,
  lastReadAt: Date,
): Promise<{ first_at: Date | null; n: number }> {
  const rows = await db.query<{ first_at: Date | null; n: number }>(
    `SELECT min(read_at) AS first_at, count(*)::int AS n FROM readings
     WHERE meter_id = $1 AND read_at <= $3 AND read_at >= greatest($2, $3::timestamptz - interval '${COMPLETENESS_WINDOW}')`,
    [meterId, installedAt, lastReadAt],
    { prepare: 'cm_completeness_window' },
  );
  return rows[0] ?? { first_at: null, n: 0 };
}

export async function findVisibleMeter(
  db: SqlRunner,
  meterNumber: string,
  scope: Scope,
): Promise<MeterDetailsRow | undefined> {
  const rows = await db.query<MeterDetailsRow>(
    `${meterDetails} WHERE m.meter_number = $1 AND ${locationVisible('m.location_id', 2, 3)}`,
    [meterNumber, scope.isAdmin, scope.userId],
    { prepare: 'cm_meter_details_by_number' },
  );
  return rows[0];
}

export interface LocationRow {
  id: number;
  public_name: string;
  address: string;
  time_zone: string;
}

export async function findVisibleLocation(
  db: SqlRunner,
  publicName: string,
  scope: Scope,
): Promise<LocationRow | undefined> {
  // Public names are unique; a person may type them in another case.
  const rows = await db.query<LocationRow>(
    `SELECT id, public_name, address, time_zone FROM locations l
     WHERE lower(l.public_name) = lower($1) AND l.archived_at IS NULL AND ${locationVisible('l.id', 2, 3)}
     ORDER BY (l.public_name = $1) DESC LIMIT 1`,
    [publicName, scope.isAdmin, scope.userId],
    { prepare: 'cm_visible_location' },
  );
  return rows[0];
}

/** Meters of a location whose time there overlaps [from, to], oldest first within each indicator. */
export async function findLocationMeters(
  db: SqlRunner,
  locationId: number,
  meterInd: number | undefined,
  from: Date,
  to: Date,
): Promise<MeterRow[]> {
  return db.query<MeterRow>(
    `SELECT ${meterColumns}
     FROM meters m JOIN devices d ON d.id = m.device_id JOIN locations l ON l.id = m.location_id
     WHERE m.location_id = $1 AND ($2::int IS NULL OR m.meter_ind = $2)
       AND m.installed_at <= $4 AND (m.removed_at IS NULL OR m.removed_at >= $3)
     ORDER BY m.meter_ind, m.installed_at`,
    [locationId, meterInd ?? null, from, to],
    { prepare: 'cm_location_meters' },
  );
}

/** The current meter at each given indicator (the last installed). */
export async function findCurrentMeters(
  db: SqlRunner,
  locationId: number,
  meterInd: number | undefined,
): Promise<MeterDetailsRow[]> {
  return db.query<MeterDetailsRow>(
    `${meterDetails}
     WHERE m.location_id = $1 AND ($2::int IS NULL OR m.meter_ind = $2)
       AND NOT EXISTS (SELECT 1 FROM meters newer WHERE newer.location_id = m.location_id
                       AND newer.meter_ind = m.meter_ind AND newer.installed_at > m.installed_at)
     ORDER BY m.meter_ind`,
    [locationId, meterInd ?? null],
    { prepare: 'cm_current_meters' },
  );
}

/** Start of the earliest gap (readings more than 1.5 intervals apart) in the window before `until`, if any. */
export async function findFirstGapSince(
  db: SqlRunner,
  meterId: number,
  intervalMinutes: number,
  since: Date,
  until: Date,
): Promise<Date | undefined> {
  const rows = await db.query<{ gap_start: Date | null }>(
    `SELECT min(prev_at) AS gap_start FROM (
       SELECT read_at, lag(read_at) OVER (ORDER BY read_at) AS prev_at
       FROM readings WHERE meter_id = $1 AND read_at >= $2 AND read_at <= $3
     ) r WHERE read_at - prev_at > make_interval(secs => $4 * 90)`,
    [meterId, since, until, intervalMinutes],
  );
  return rows[0]?.gap_start ?? undefined;
}

/**
 * One meter's readings in [from, to] (both ends: the reading at `to` closes the last interval) as
 * columns. The hot path: the primary key (meter_id, read_at) makes it one index range scan, and the
 * rows travel as three comma-separated strings instead of 35,040 result rows, because per-row
 * overhead dominates in both drivers (about 5× on embedded PGlite).
 */
export async function findReadings(
  db: SqlRunner,
  meterId: number,
  from: Date,
  to: Date,
  end: 'inclusive' | 'exclusive' = 'inclusive',
) {
  const rows = await db.queryArrays(
    `SELECT string_agg(t::text, ','), string_agg(v::text, ','), string_agg(q::text, ',')
     FROM (SELECT (date_part('epoch', read_at) * 1000)::int8 AS t, register_milli AS v, quality AS q
           FROM readings WHERE meter_id = $1 AND read_at >= $2 AND read_at ${end === 'inclusive' ? '<=' : '<'} $3
           ORDER BY read_at) r`,
    [meterId, from, to],
  );
  const [t, milli, quality] = (rows[0] ?? []).map((column) =>
    typeof column === 'string' ? column.split(',').map(Number) : [],
  );
  return { t: t ?? [], milli: milli ?? [], quality: quality ?? [] };
}

/** A stored month; its bytes are left out (null) when the caller already holds that version. */
export interface ChunkRow {
  month_start: Date;
  version: number;
  t: Uint8Array | null;
  v: Uint8Array | null;
  q: Uint8Array | null;
}

export async function findChunks(
  db: SqlRunner,
  meterId: number,
  monthStarts: Date[],
  heldVersions: number[],
): Promise<ChunkRow[]> {
  return db.query<ChunkRow>(
    `SELECT month_start, version, CASE WHEN held THEN NULL ELSE t END AS t,
       CASE WHEN held THEN NULL ELSE v END AS v, CASE WHEN held THEN NULL ELSE q END AS q
     FROM (SELECT *, version = ANY($3::int8[]) AS held FROM reading_chunks
           WHERE meter_id = $1 AND month_start = ANY($2::timestamptz[])) c`,
    [meterId, monthStarts, heldVersions],
    { prepare: 'cm_reading_chunks' },
  );
}

/** Same key as the invalidation trigger's lock (migration 0003): a chunk is built while no write to its meter is in flight. */
export async function lockMeterChunks(db: SqlRunner, meterId: number): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(4242002, $1)', [meterId]);
}

/** Stores a packed month; answers its version, or undefined when another request stored it first. */
export async function insertChunk(
  db: SqlRunner,
  meterId: number,
  chunk: { monthStart: Date; readings: number; t: Uint8Array; v: Uint8Array; q: Uint8Array },
): Promise<number | undefined> {
  const rows = await db.query<{ version: number }>(
    `INSERT INTO reading_chunks (meter_id, month_start, readings, t, v, q) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (meter_id, month_start) DO NOTHING RETURNING version`,
    [meterId, chunk.monthStart, chunk.readings, chunk.t, chunk.v, chunk.q],
  );
  return rows[0]?.version;
}
