import type { SqlRunner } from '../../db/client.ts';

export interface ExportMeterRow {
  device_id: number;
  meter_number: string;
  multiplier: number;
  interval_minutes: number;
  public_name: string;
  time_zone: string;
}

export async function findExportMeter(
  db: SqlRunner,
  meterNumber: string,
): Promise<ExportMeterRow | undefined> {
  const rows = await db.query<ExportMeterRow>(
    `SELECT m.device_id, m.meter_number, m.multiplier, m.interval_minutes, l.public_name, l.time_zone
     FROM meters m JOIN locations l ON l.id = m.location_id WHERE m.meter_number = $1`,
    [meterNumber],
  );
  return rows[0];
}
