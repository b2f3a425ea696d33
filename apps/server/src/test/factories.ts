import type { SqlRunner } from '../db/client.ts';

// Small, explicit fixtures for route tests: each returns the ids it created.

export async function insertLocation(
  db: SqlRunner,
  publicName: string,
  timeZone = 'Europe/Berlin',
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    'INSERT INTO locations (public_name, address, time_zone) VALUES ($1, $2, $3) RETURNING id',
    [publicName, `${publicName} street 1`, timeZone],
  );
  return rows[0]?.id ?? 0;
}

export async function linkUserToLocation(db: SqlRunner, userId: number, locationId: number): Promise<void> {
  await db.query('INSERT INTO user_locations (user_id, location_id) VALUES ($1, $2)', [userId, locationId]);
}

export async function insertDevice(
  db: SqlRunner,
  device: {
    type: 1 | 2 | 3;
    serial: string;
    locationId: number;
    parentId?: number | null;
    status?: string;
    priority?: number;
    lastSeenAt?: Date | null;
  },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO devices (type, serial, parent_id, location_id, priority, status, last_seen_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [
      device.type,
      device.serial,
      device.parentId ?? null,
      device.locationId,
      device.priority ?? 1,
      device.status ?? 'active',
      device.lastSeenAt ?? null,
    ],
  );
  return rows[0]?.id ?? 0;
}

export interface MeterFixture {
  meterNumber: string;
  locationId: number;
  meterInd: number;
  cubeId?: number;
  multiplier?: number;
  registerDigits?: number;
  installedAt: Date;
  removedAt?: Date | null;
  status?: string;
  intervalMinutes?: number;
  /** The meter has an export channel too. */
  hasExport?: boolean;
}

export async function insertMeter(db: SqlRunner, meter: MeterFixture): Promise<number> {
  const deviceId = await insertDevice(db, {
    type: 3,
    serial: meter.meterNumber,
    locationId: meter.locationId,
    parentId: meter.cubeId ?? null,
    status: meter.status ?? (meter.removedAt ? 'removed' : 'active'),
  });
  await db.query(
    `INSERT INTO meters (device_id, meter_number, location_id, meter_ind, multiplier, register_digits, interval_minutes,
                         installed_at, removed_at, channels)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      deviceId,
      meter.meterNumber,
      meter.locationId,
      meter.meterInd,
      meter.multiplier ?? 1,
      meter.registerDigits ?? 6,
      meter.intervalMinutes ?? 15,
      meter.installedAt,
      meter.removedAt ?? null,
      meter.hasExport ? [1, 2] : [1],
    ],
  );
  return deviceId;
}

/** Creates the readings tables' partitions for [fromMs, toMs] (tests write readings directly). */
async function ensurePartitionsFor(db: SqlRunner, fromMs: number, toMs: number): Promise<void> {
  await db.query('SELECT cm_ensure_reading_partitions($1, $2)', [new Date(fromMs), new Date(toMs)]);
}

/** Inserts register readings given as [epoch ms, register in thousandths of a kWh (Wh), quality?] (channel 1 unless given). */
export async function insertReadings(
  db: SqlRunner,
  meterId: number,
  readings: ReadonlyArray<readonly [number, number, number?]>,
  channel = 1,
): Promise<void> {
  if (readings.length === 0) return;
  await ensurePartitionsFor(db, readings[0]?.[0] ?? 0, readings[readings.length - 1]?.[0] ?? 0);
  for (let start = 0; start < readings.length; start += 5000) {
    const chunk = readings.slice(start, start + 5000);
    await db.query(
      `INSERT INTO register_readings (meter_id, channel, read_at, value_micro, quality)
       SELECT $1, $5, to_timestamp(t / 1000.0), v * 1000, q FROM unnest($2::float8[], $3::int8[], $4::int2[]) AS r(t, v, q)`,
      [meterId, chunk.map((r) => r[0]), chunk.map((r) => r[1]), chunk.map((r) => r[2] ?? 0), channel],
    );
  }
}

/** Inserts interval readings given as [start ms, end ms, energy in millionths of a kWh (mWh), quality?]. */
export async function insertIntervals(
  db: SqlRunner,
  meterId: number,
  intervals: ReadonlyArray<readonly [number, number, number, number?]>,
  channel = 1,
): Promise<void> {
  if (intervals.length === 0) return;
  await ensurePartitionsFor(db, intervals[0]?.[0] ?? 0, intervals[intervals.length - 1]?.[0] ?? 0);
  for (let start = 0; start < intervals.length; start += 5000) {
    const chunk = intervals.slice(start, start + 5000);
    await db.query(
      `INSERT INTO interval_readings (meter_id, channel, start_at, end_at, energy_micro, quality)
       SELECT $1, $6, to_timestamp(s / 1000.0), to_timestamp(e / 1000.0), v, q
       FROM unnest($2::float8[], $3::float8[], $4::int8[], $5::int2[]) AS r(s, e, v, q)`,
      [
        meterId,
        chunk.map((r) => r[0]),
        chunk.map((r) => r[1]),
        chunk.map((r) => r[2]),
        chunk.map((r) => r[3] ?? 0),
        channel,
      ],
    );
  }
}

/** Regular readings every `intervalMs` from `fromMs` to `toMs` inclusive, the register rising by `step(i)` milli-units each interval. */
export function regularReadings(
  fromMs: number,
  toMs: number,
  intervalMs: number,
  startMilli: number,
  step: (i: number) => number,
): Array<[number, number]> {
  const readings: Array<[number, number]> = [];
  let register = startMilli;
  for (let t = fromMs, i = 0; t <= toMs; t += intervalMs, i += 1) {
    if (i > 0) register += step(i);
    readings.push([t, register]);
  }
  return readings;
}
