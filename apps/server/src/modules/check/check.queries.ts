import type { SqlRunner } from '../../db/client.ts';
import { LAST_DATA_SQL, LAST_REGISTER_SQL } from '../readings/readings.queries.ts';
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
  /** Stored channel numbers (1 import, 2 export). */
  channels: number[];
  /** Changes whenever the meter's readings are written (migrations 0004, 0005). */
  readings_version: number;
}

const meterColumns = `m.device_id, m.meter_number, m.meter_ind, m.multiplier, m.unit, m.register_digits,
  m.interval_minutes, m.installed_at, m.removed_at, d.status, d.priority, d.last_seen_at, d.parent_id,
  l.id AS location_id, l.public_name, l.address, l.time_zone, m.channels, m.readings_version`;

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
  last_value_micro: number | null;
  /** The last instant the import channel has data for: a register reading or an interval's end. */
  last_data_at: Date | null;
}

const meterDetails = `SELECT ${meterColumns},
    p1.id AS up1_id, p1.serial AS up1_serial, p1.type AS up1_type, p1.status AS up1_status,
    p1.priority AS up1_priority, p1.last_seen_at AS up1_last_seen_at,
    p2.id AS up2_id, p2.serial AS up2_serial, p2.type AS up2_type, p2.status AS up2_status,
    p2.priority AS up2_priority, p2.last_seen_at AS up2_last_seen_at,
    lr.read_at AS last_read_at, lr.value_micro AS last_value_micro, ld.at AS last_data_at
  FROM meters m JOIN devices d ON d.id = m.device_id JOIN locations l ON l.id = m.location_id
  LEFT JOIN devices p1 ON p1.id = d.parent_id
  LEFT JOIN devices p2 ON p2.id = p1.parent_id
  LEFT JOIN LATERAL (${LAST_REGISTER_SQL('m.device_id')}) lr ON true
  LEFT JOIN LATERAL (${LAST_DATA_SQL('m.device_id')}) ld ON true`;

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
