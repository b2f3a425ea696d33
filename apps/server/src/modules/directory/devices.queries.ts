import type { SqlRunner } from '../../db/client.ts';
import type { devices, locations, meters } from '../../db/schema.ts';
import type { Nullable, RowOf } from '../../db/rows.ts';
import { likePattern, namesById } from '../../db/sql-helpers.ts';

export type AdminDeviceRow = Pick<
  RowOf<typeof devices>,
  'id' | 'type' | 'serial' | 'parent_id' | 'location_id' | 'priority' | 'status' | 'last_seen_at'
> &
  Pick<RowOf<typeof locations>, 'public_name'> & { parent_serial: string | null } & Nullable<
    Pick<
      RowOf<typeof meters>,
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
      | 'last_register_month'
    >
  >;

const deviceColumns = `d.id, d.type, d.serial, d.parent_id, p.serial AS parent_serial, d.location_id, l.public_name,
  d.priority, d.status, d.last_seen_at, m.meter_number, m.label, m.main_supply, m.meter_ind, m.multiplier, m.unit, m.register_digits,
  m.interval_minutes, m.installed_at, m.removed_at, m.last_register_month`;
const deviceFrom = `devices d JOIN locations l ON l.id = d.location_id
  LEFT JOIN devices p ON p.id = d.parent_id LEFT JOIN meters m ON m.device_id = d.id`;

export interface DeviceFilter {
  locationId?: number | undefined;
  type?: number | undefined;
  priority?: number | undefined;
  status?: string | undefined;
  search?: string | undefined;
  limit: number;
  offset: number;
}

export async function listDevices(
  db: SqlRunner,
  filter: DeviceFilter,
): Promise<{ rows: AdminDeviceRow[]; total: number }> {
  const where = `($1::int IS NULL OR d.location_id = $1) AND ($2::int IS NULL OR d.type = $2)
    AND ($3::int IS NULL OR d.priority = $3) AND ($4::text IS NULL OR d.status = $4)
    AND ($5::text IS NULL OR d.serial ILIKE $5 OR m.meter_number ILIKE $5)`;
  const params = [
    filter.locationId ?? null,
    filter.type ?? null,
    filter.priority ?? null,
    filter.status ?? null,
    filter.search ? likePattern(filter.search) : null,
  ];
  const [rows, counts] = await Promise.all([
    db.query<AdminDeviceRow>(
      `SELECT ${deviceColumns} FROM ${deviceFrom} WHERE ${where}
       ORDER BY d.location_id, d.type, m.meter_ind NULLS FIRST, m.installed_at DESC NULLS FIRST, d.serial
       LIMIT $6 OFFSET $7`,
      [...params, filter.limit, filter.offset],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${deviceFrom} WHERE ${where}`, params),
  ]);
  return { rows, total: counts[0]?.total ?? 0 };
}

export async function findDevice(db: SqlRunner, id: number): Promise<AdminDeviceRow | undefined> {
  const rows = await db.query<AdminDeviceRow>(`SELECT ${deviceColumns} FROM ${deviceFrom} WHERE d.id = $1`, [
    id,
  ]);
  return rows[0];
}

/** A meter by number, its device row locked until the transaction ends (exchange and move are read-modify-write). */
export async function findMeterDevice(
  db: SqlRunner,
  meterNumber: string,
  options: { lock: boolean } = { lock: false },
): Promise<AdminDeviceRow | undefined> {
  const rows = await db.query<AdminDeviceRow>(
    `SELECT ${deviceColumns} FROM ${deviceFrom} WHERE m.meter_number = $1${options.lock ? ' FOR UPDATE OF d, m' : ''}`,
    [meterNumber],
  );
  return rows[0];
}

export async function insertDevice(
  db: SqlRunner,
  device: {
    type: number;
    serial: string;
    parentId: number | null;
    locationId: number;
    priority: number;
    status: string;
  },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO devices (type, serial, parent_id, location_id, priority, status) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [device.type, device.serial, device.parentId, device.locationId, device.priority, device.status],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into devices returned no id');
  return id;
}

export async function insertMeter(
  db: SqlRunner,
  meter: {
    deviceId: number;
    meterNumber: string;
    label: string;
    mainSupply: boolean;
    locationId: number;
    meterInd: number;
    multiplier: number;
    registerDigits: number;
    intervalMinutes: number;
    installedAt: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO meters (device_id, meter_number, location_id, meter_ind, multiplier, register_digits, interval_minutes, installed_at, label, main_supply)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      meter.deviceId,
      meter.meterNumber,
      meter.locationId,
      meter.meterInd,
      meter.multiplier,
      meter.registerDigits,
      meter.intervalMinutes,
      meter.installedAt,
      meter.label,
      meter.mainSupply,
    ],
  );
}

export async function updateDevice(
  db: SqlRunner,
  id: number,
  changes: {
    serial?: string | undefined;
    parentId?: number | null | undefined;
    priority?: number | undefined;
    status?: string | undefined;
  },
): Promise<void> {
  await db.query(
    `UPDATE devices SET serial = COALESCE($2, serial),
       parent_id = CASE WHEN $3::boolean THEN $4::int ELSE parent_id END,
       priority = COALESCE($5, priority), status = COALESCE($6, status)
     WHERE id = $1`,
    [
      id,
      changes.serial ?? null,
      changes.parentId !== undefined,
      changes.parentId ?? null,
      changes.priority ?? null,
      changes.status ?? null,
    ],
  );
}

export async function updateMeter(
  db: SqlRunner,
  deviceId: number,
  changes: {
    meterNumber?: string | undefined;
    label?: string | undefined;
    mainSupply?: boolean | undefined;
    meterInd?: number | undefined;
    multiplier?: number | undefined;
    registerDigits?: number | undefined;
    intervalMinutes?: number | undefined;
  },
): Promise<void> {
  await db.query(
    `UPDATE meters SET meter_number = COALESCE($2, meter_number), meter_ind = COALESCE($3, meter_ind),
       multiplier = COALESCE($4, multiplier), register_digits = COALESCE($5, register_digits),
       interval_minutes = COALESCE($6, interval_minutes), label = COALESCE($7, label),
       main_supply = COALESCE($8, main_supply)
     WHERE device_id = $1`,
    [
      deviceId,
      changes.meterNumber ?? null,
      changes.meterInd ?? null,
      changes.multiplier ?? null,
      changes.registerDigits ?? null,
      changes.intervalMinutes ?? null,
      changes.label ?? null,
      changes.mainSupply ?? null,
    ],
  );
}

export async function closeMeter(db: SqlRunner, deviceId: number, removedAt: Date): Promise<void> {
  await db.query('UPDATE meters SET removed_at = $2 WHERE device_id = $1', [deviceId, removedAt]);
  await db.query(`UPDATE devices SET status = 'removed' WHERE id = $1`, [deviceId]);
}

/** Another meter that currently holds this location and indicator (not removed). */
export async function currentMeterAtInd(
  db: SqlRunner,
  locationId: number,
  meterInd: number,
  exceptId: number,
): Promise<boolean> {
  const rows = await db.query(
    'SELECT 1 FROM meters WHERE location_id = $1 AND meter_ind = $2 AND device_id <> $3 AND removed_at IS NULL LIMIT 1',
    [locationId, meterInd, exceptId],
  );
  return rows.length > 0;
}

/** What the audit log calls each of these devices: a meter by its number, others by their serial. */
export const findDeviceNames = (db: SqlRunner, ids: readonly number[]) =>
  namesById(
    db,
    `SELECT d.id, COALESCE(m.meter_number, d.serial) AS name FROM devices d LEFT JOIN meters m ON m.device_id = d.id WHERE d.id = ANY($1::int[])`,
    ids,
  );
