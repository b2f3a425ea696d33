import type { SqlRunner } from '../../db/client.ts';
import type { MeterRef } from './import-rows.ts';

export async function loadMeters(db: SqlRunner): Promise<Map<string, MeterRef>> {
  const rows = await db.queryArrays(
    `SELECT device_id, meter_number, multiplier, register_digits, interval_minutes,
            (extract(epoch FROM installed_at) * 1000)::float8, (extract(epoch FROM removed_at) * 1000)::float8, channels
     FROM meters`,
  );
  const meters = new Map<string, MeterRef>();
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
    });
  }
  return meters;
}
