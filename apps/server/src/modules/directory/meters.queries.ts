import { DevicePriority } from '@cm/contracts/enums.ts';
import type { SqlRunner } from '../../db/client.ts';
import type { Nullable, RowOf } from '../../db/rows.ts';
import type { devices, locations, meters } from '../../db/schema.ts';
import { likePattern } from '../../db/sql-helpers.ts';
import { locationVisible, type Scope } from '../access/index.ts';
import type { MeterFacts } from './meter-facts.ts';
import type {
  AlertMeter,
  ParentDevice,
  DirectoryItem,
  DirectoryLocation,
  ExportMeter,
  IngestMeter,
  LocationMeter,
} from './views.ts';

// The directory's meters, devices and locations as other modules read them: the check page,
// bookmarks and search, exports, imports, alerts and device ingestion (through meters.service.ts).
// The rows stay in this file: each query answers the domain types of views.ts.

type DeviceRow = Pick<
  RowOf<typeof devices>,
  'id' | 'serial' | 'type' | 'status' | 'priority' | 'last_seen_at'
>;

type MeterRow = Pick<
  RowOf<typeof meters>,
  | 'device_id'
  | 'meter_number'
  | 'label'
  | 'main_supply'
  | 'meter_ind'
  | 'multiplier'
  | 'unit'
  | 'register_digits'
  | 'interval_minutes'
  | 'installed_at'
  | 'removed_at'
  | 'channels'
  | 'readings_version'
  | 'last_register_month'
  | 'last_interval_month'
> &
  Pick<RowOf<typeof devices>, 'status' | 'priority' | 'last_seen_at'> &
  Pick<LocationRow, 'public_name' | 'address' | 'time_zone' | 'billing_day'> & { location_id: number };

const meterColumns = `m.device_id, m.meter_number, m.label, m.main_supply, m.meter_ind, m.multiplier, m.unit, m.register_digits,
  m.interval_minutes, m.installed_at, m.removed_at, d.status, d.priority, d.last_seen_at,
  l.id AS location_id, l.public_name, l.address, l.time_zone, l.billing_day, m.channels, m.readings_version,
  m.last_register_month, m.last_interval_month`;

/** A meter with its chain (Cube and AccessPoint), in one round trip. */
type Prefixed<T, P extends string> = { [K in keyof T & string as `${P}_${K}`]: T[K] };
type MeterDetailsRow = MeterRow & Prefixed<Nullable<DeviceRow>, 'up1'> & Prefixed<Nullable<DeviceRow>, 'up2'>;

/** A meter row as the domain reads it, with its Cube and AccessPoint (a meter may hang directly under an AccessPoint). */
function locationMeterOf(row: MeterDetailsRow): LocationMeter {
  const parents = [
    chainDeviceOf(
      row.up1_id,
      row.up1_serial,
      row.up1_type,
      row.up1_status,
      row.up1_priority,
      row.up1_last_seen_at,
    ),
    chainDeviceOf(
      row.up2_id,
      row.up2_serial,
      row.up2_type,
      row.up2_status,
      row.up2_priority,
      row.up2_last_seen_at,
    ),
  ];
  return {
    id: row.device_id,
    meterNumber: row.meter_number,
    label: row.label,
    mainSupply: row.main_supply,
    meterInd: row.meter_ind,
    multiplier: row.multiplier,
    unit: row.unit,
    registerDigits: row.register_digits,
    intervalMinutes: row.interval_minutes,
    installedAt: row.installed_at,
    removedAt: row.removed_at,
    channels: row.channels,
    readingsVersion: row.readings_version,
    lastRegisterMonth: row.last_register_month,
    lastIntervalMonth: row.last_interval_month,
    status: row.status,
    priority: row.priority,
    lastSeenAt: row.last_seen_at,
    location: locationOf({ ...row, id: row.location_id }),
    cube: parents.find((device) => device?.type === 2) ?? null,
    accessPoint: parents.find((device) => device?.type === 1) ?? null,
  };
}

/** A LEFT JOINed parent device: none when the join found none. */
function chainDeviceOf(
  id: number | null,
  serial: string | null,
  type: number | null,
  status: string | null,
  priority: number | null,
  lastSeenAt: Date | null,
): ParentDevice | undefined {
  if (id === null) return undefined;
  return {
    id,
    serial: serial ?? '',
    type: type ?? 0,
    status: status ?? 'inactive',
    priority: priority ?? 1,
    lastSeenAt,
  };
}

const meterDetails = `SELECT ${meterColumns},
    p1.id AS up1_id, p1.serial AS up1_serial, p1.type AS up1_type, p1.status AS up1_status,
    p1.priority AS up1_priority, p1.last_seen_at AS up1_last_seen_at,
    p2.id AS up2_id, p2.serial AS up2_serial, p2.type AS up2_type, p2.status AS up2_status,
    p2.priority AS up2_priority, p2.last_seen_at AS up2_last_seen_at
  FROM meters m JOIN devices d ON d.id = m.device_id JOIN locations l ON l.id = m.location_id
  LEFT JOIN devices p1 ON p1.id = d.parent_id
  LEFT JOIN devices p2 ON p2.id = p1.parent_id`;

/**
 * A meter number as people type it: upper case, letters and digits only (`em-10001`, `EM10001`
 * and `EM 10001` are EM-10001). The expression of the `meters_number_key_idx` index (schema.ts).
 */
const meterKey = (value: string) => `regexp_replace(upper(${value}), '[^[:alnum:]]', '', 'g')`;

/**
 * The meter the caller may see under `meterNumber`: the exact number first; else the one meter
 * whose number matches it ignoring case and separators (none when several would).
 */
export async function findVisibleMeter(
  db: SqlRunner,
  meterNumber: string,
  scope: Scope,
): Promise<LocationMeter | undefined> {
  const params = [meterNumber, scope.isAdmin, scope.userId];
  const visible = locationVisible('m.location_id', 2, 3);
  const [exact] = await db.query<MeterDetailsRow>(
    `${meterDetails} WHERE m.meter_number = $1 AND ${visible}`,
    params,
    {
      prepare: 'cm_meter_details_by_number',
    },
  );
  if (exact) return locationMeterOf(exact);
  const typed = await db.query<MeterDetailsRow>(
    `${meterDetails} WHERE ${meterKey('m.meter_number')} = ${meterKey('$1::text')} AND ${visible} LIMIT 2`,
    params,
    { prepare: 'cm_meter_details_by_key' },
  );
  return typed.length === 1 && typed[0] ? locationMeterOf(typed[0]) : undefined;
}

type LocationRow = Pick<
  RowOf<typeof locations>,
  'id' | 'public_name' | 'address' | 'time_zone' | 'billing_day'
>;

/**
 * The live location the caller may see under the public name $1 (scope in $2, $3): public names
 * are unique, and a person may type them in another case.
 */
const visibleByName = (alias: string) =>
  `lower(${alias}.public_name) = lower($1) AND ${alias}.archived_at IS NULL AND ${locationVisible(`${alias}.id`, 2, 3)}
   ORDER BY (${alias}.public_name = $1) DESC LIMIT 1`;

export async function findVisibleLocation(
  db: SqlRunner,
  publicName: string,
  scope: Scope,
): Promise<DirectoryLocation | undefined> {
  const rows = await db.query<LocationRow>(
    `SELECT id, public_name, address, time_zone, billing_day FROM locations l WHERE ${visibleByName('l')}`,
    [publicName, scope.isAdmin, scope.userId],
    { prepare: 'cm_visible_location' },
  );
  return rows[0] && locationOf(rows[0]);
}

const locationOf = (row: LocationRow): DirectoryLocation => ({
  id: row.id,
  publicName: row.public_name,
  address: row.address,
  timeZone: row.time_zone,
  billingDay: row.billing_day,
});

/** Every meter a location had at one indicator (or at each), with its chain, oldest first within each indicator. */
export async function findLocationMeters(
  db: SqlRunner,
  locationId: number,
  meterInd: number | undefined,
): Promise<LocationMeter[]> {
  const rows = await db.query<MeterDetailsRow>(
    `${meterDetails}
     WHERE m.location_id = $1 AND ($2::int IS NULL OR m.meter_ind = $2)
     ORDER BY m.meter_ind, m.installed_at`,
    [locationId, meterInd ?? null],
    { prepare: 'cm_location_meters' },
  );
  return rows.map(locationMeterOf);
}

/**
 * findLocationMeters of the location findVisibleLocation finds, in one round trip (each row also
 * holds its location); none when that location has no meter there, or is not found.
 */
export async function findVisibleLocationMeters(
  db: SqlRunner,
  publicName: string,
  scope: Scope,
  meterInd: number | undefined,
): Promise<LocationMeter[]> {
  const rows = await db.query<MeterDetailsRow>(
    `${meterDetails}
     WHERE m.location_id = (SELECT named.id FROM locations named WHERE ${visibleByName('named')})
       AND ($4::int IS NULL OR m.meter_ind = $4)
     ORDER BY m.meter_ind, m.installed_at`,
    [publicName, scope.isAdmin, scope.userId, meterInd ?? null],
    { prepare: 'cm_visible_location_meters' },
  );
  return rows.map(locationMeterOf);
}

/** Locations then meters the caller may see, by name, at most `limit` of them. */
export async function listVisibleItems(db: SqlRunner, scope: Scope, limit: number): Promise<DirectoryItem[]> {
  return db.query<DirectoryItem>(
    `(SELECT 'location' AS kind, l.public_name AS key, l.public_name AS title, l.address AS subtitle, '' AS label, 0 AS k
      FROM locations l WHERE l.archived_at IS NULL AND ${locationVisible('l.id', 1, 2)})
     UNION ALL
     (SELECT 'meter', m.meter_number, m.meter_number, l.public_name, m.label, 1
      FROM meters m JOIN locations l ON l.id = m.location_id
      WHERE m.removed_at IS NULL AND l.archived_at IS NULL AND ${locationVisible('m.location_id', 1, 2)})
     ORDER BY k, title LIMIT $3`,
    [scope.isAdmin, scope.userId, limit],
  );
}

/**
 * The caller's meters and locations whose name matches `q` (a meter's number or its label): exact,
 * then prefix, then substring of the title; shortest first.
 */
export async function searchVisibleItems(
  db: SqlRunner,
  scope: Scope,
  q: string,
  limit: number,
): Promise<DirectoryItem[]> {
  const pattern = likePattern(q);
  return db.query<DirectoryItem>(
    `SELECT kind, key, title, subtitle, label FROM (
       SELECT 'location' AS kind, l.public_name AS key, l.public_name AS title, l.address AS subtitle,
         '' AS label
       FROM locations l
       WHERE l.archived_at IS NULL AND l.public_name ILIKE $3 AND ${locationVisible('l.id', 1, 2)}
       UNION ALL
       SELECT 'meter', m.meter_number, m.meter_number, l.public_name, m.label
       FROM meters m JOIN locations l ON l.id = m.location_id
       WHERE l.archived_at IS NULL AND (m.meter_number ILIKE $3 OR m.label ILIKE $3)
         AND ${locationVisible('m.location_id', 1, 2)}
     ) items
     ORDER BY CASE WHEN lower(title) = lower($4) THEN 0 WHEN lower(title) LIKE lower($5) THEN 1 ELSE 2 END,
              length(title), title
     LIMIT $6`,
    [scope.isAdmin, scope.userId, pattern, q, `${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, limit],
  );
}

/** This location or meter as a list item, when the caller may see it. */
export async function findVisibleItem(
  db: SqlRunner,
  scope: Scope,
  kind: 'location' | 'meter',
  key: string,
): Promise<DirectoryItem | undefined> {
  const sql =
    kind === 'location'
      ? `SELECT 'location' AS kind, l.public_name AS key, l.public_name AS title, l.address AS subtitle,
           '' AS label
         FROM locations l WHERE l.public_name = $3 AND l.archived_at IS NULL AND ${locationVisible('l.id', 1, 2)}`
      : `SELECT 'meter' AS kind, m.meter_number AS key, m.meter_number AS title,
           l.public_name AS subtitle, m.label
         FROM meters m JOIN locations l ON l.id = m.location_id
         WHERE m.meter_number = $3 AND ${locationVisible('m.location_id', 1, 2)}`;
  return (await db.query<DirectoryItem>(sql, [scope.isAdmin, scope.userId, key]))[0];
}

type ExportMeterRow = Pick<
  RowOf<typeof meters>,
  'device_id' | 'meter_number' | 'multiplier' | 'interval_minutes' | 'register_digits'
> &
  Pick<RowOf<typeof locations>, 'public_name' | 'time_zone'>;

/** A meter and its location's zone, for an export. */
export async function findExportMeter(db: SqlRunner, meterNumber: string): Promise<ExportMeter | undefined> {
  const rows = await db.query<ExportMeterRow>(
    `SELECT m.device_id, m.meter_number, m.multiplier, m.interval_minutes, m.register_digits, l.public_name,
       l.time_zone
     FROM meters m JOIN locations l ON l.id = m.location_id WHERE m.meter_number = $1`,
    [meterNumber],
  );
  const row = rows[0];
  return (
    row && {
      id: row.device_id,
      meterNumber: row.meter_number,
      multiplier: row.multiplier,
      intervalMinutes: row.interval_minutes,
      registerDigits: row.register_digits,
      locationName: row.public_name,
      timeZone: row.time_zone,
    }
  );
}

type IngestMeterRow = Pick<
  RowOf<typeof meters>,
  'device_id' | 'meter_number' | 'register_digits' | 'installed_at' | 'removed_at' | 'channels'
>;

/** The meters with these numbers, as a device batch is checked against them. */
export async function findMetersByNumber(db: SqlRunner, numbers: readonly string[]): Promise<IngestMeter[]> {
  const rows = await db.query<IngestMeterRow>(
    `SELECT device_id, meter_number, register_digits, installed_at, removed_at, channels
     FROM meters WHERE meter_number = ANY($1::text[])`,
    [numbers],
  );
  return rows.map((row) => ({
    id: row.device_id,
    meterNumber: row.meter_number,
    registerDigits: row.register_digits,
    installedAt: row.installed_at,
    removedAt: row.removed_at,
    channels: row.channels,
  }));
}

/** The meters, their Cubes and AccessPoints were heard from now. */
export async function touchChains(db: SqlRunner, meterIds: readonly number[]): Promise<void> {
  await db.query(
    `UPDATE devices SET last_seen_at = greatest(last_seen_at, now())
     WHERE id IN (
       SELECT d.id FROM devices d WHERE d.id = ANY($1::int[])
       UNION SELECT c.parent_id FROM devices c WHERE c.id = ANY($1::int[]) AND c.parent_id IS NOT NULL
       UNION SELECT a.parent_id FROM devices c JOIN devices a ON a.id = c.parent_id WHERE c.id = ANY($1::int[]) AND a.parent_id IS NOT NULL
     )`,
    [meterIds],
  );
}

/** A meter gets the export channel once readings of it arrive. */
export async function addChannels(db: SqlRunner, pairs: ReadonlyArray<{ meterId: number; channel: number }>) {
  if (pairs.length === 0) return;
  await db.query(
    `UPDATE meters m SET channels = m.channels || p.channel
     FROM unnest($1::int[], $2::int2[]) AS p(meter_id, channel)
     WHERE m.device_id = p.meter_id AND NOT p.channel = ANY(m.channels)`,
    [pairs.map((p) => p.meterId), pairs.map((p) => p.channel)],
  );
}

/** Every meter's facts a readings file is checked against, by meter number. */
export async function loadMeterFacts(db: SqlRunner): Promise<Map<string, MeterFacts>> {
  const rows = await db.queryArrays(
    `SELECT m.device_id, m.meter_number, m.multiplier, m.register_digits, m.interval_minutes,
            (extract(epoch FROM m.installed_at) * 1000)::float8, (extract(epoch FROM m.removed_at) * 1000)::float8,
            m.channels, l.time_zone, l.public_name
     FROM meters m JOIN locations l ON l.id = m.location_id`,
  );
  const meters = new Map<string, MeterFacts>();
  for (const row of rows) {
    const [
      id,
      meterNumber,
      multiplier,
      registerDigits,
      intervalMinutes,
      installedAtMs,
      removedAtMs,
      channels,
      timeZone,
      locationName,
    ] = row;
    meters.set(String(meterNumber), {
      id: Number(id),
      meterNumber: String(meterNumber),
      multiplier: Number(multiplier),
      registerDigits: Number(registerDigits),
      intervalMinutes: Number(intervalMinutes),
      installedAtMs: Number(installedAtMs),
      removedAtMs: removedAtMs === null ? null : Number(removedAtMs),
      channels: Array.isArray(channels) ? channels.map(Number) : [1],
      timeZone: String(timeZone),
      locationName: String(locationName),
    });
  }
  return meters;
}

interface AlertMeterRow {
  device_id: number;
  meter_number: string;
  location_id: number;
  location_name: string;
  time_zone: string;
  billing_day: number | null;
  multiplier: number;
  register_digits: number;
  interval_minutes: number;
  readings_version: number;
  last_register_month: Date | null;
  last_interval_month: Date | null;
  installed_at: Date;
  expects_data: boolean;
  cube_serial: string | null;
  cube_last_seen: Date | null;
  access_point_serial: string | null;
  access_point_last_seen: Date | null;
}

/** The meters installed now at these locations, with their Cube and AccessPoint. */
export async function findAlertMeters(db: SqlRunner, locationIds: readonly number[]): Promise<AlertMeter[]> {
  const rows = await db.query<AlertMeterRow>(
    `SELECT m.device_id, m.meter_number, m.location_id, l.public_name AS location_name, l.time_zone, l.billing_day, m.multiplier, m.register_digits,
            m.interval_minutes, m.readings_version, m.last_register_month, m.last_interval_month, m.installed_at,
            (d.status <> 'inactive' AND d.priority <> ${DevicePriority.NotYetOpen}) AS expects_data,
            c.serial AS cube_serial, c.last_seen_at AS cube_last_seen,
            a.serial AS access_point_serial, a.last_seen_at AS access_point_last_seen
     FROM meters m
     JOIN locations l ON l.id = m.location_id
     JOIN devices d ON d.id = m.device_id
     LEFT JOIN devices c ON c.id = d.parent_id
     LEFT JOIN devices a ON a.id = c.parent_id
     WHERE m.location_id = ANY($1::int[]) AND m.removed_at IS NULL AND l.archived_at IS NULL
     ORDER BY m.device_id`,
    [locationIds],
  );
  return rows.map((row) => ({
    id: row.device_id,
    meterNumber: row.meter_number,
    locationId: row.location_id,
    locationName: row.location_name,
    timeZone: row.time_zone,
    billingDay: row.billing_day,
    multiplier: row.multiplier,
    registerDigits: row.register_digits,
    intervalMinutes: row.interval_minutes,
    readingsVersion: row.readings_version,
    lastRegisterMonth: row.last_register_month,
    lastIntervalMonth: row.last_interval_month,
    installedAt: row.installed_at,
    expectsData: row.expects_data,
    cube: row.cube_serial === null ? null : { lastSeenAt: row.cube_last_seen },
    accessPoint: row.access_point_serial === null ? null : { lastSeenAt: row.access_point_last_seen },
  }));
}
