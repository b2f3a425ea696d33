import type { SqlRunner } from '../../db/client.ts';
import type { Scope } from '../access/index.ts';
import {
  addChannels,
  findExportMeter,
  findLocationMeters,
  findMetersByNumber,
  findVisibleLocation,
  findVisibleLocationMeters,
  findVisibleMeter,
  findVisibleItem,
  listVisibleItems,
  loadMeterFacts,
  searchVisibleItems,
  touchChains,
  findAlertMeters,
} from './meters.queries.ts';
import type {
  ExportMeterRow,
  IngestMeterRow,
  LocationRow,
  MeterDetailsRow,
  MeterRow,
} from './meters.queries.ts';
import { findAdminLocation } from './locations.queries.ts';
import type { ExportMeter, IngestMeter } from './views.ts';

export type { DeviceRow, LocationRow, MeterDetailsRow, MeterRow } from './meters.queries.ts';

/**
 * The directory (locations, the device network and its meters) as the other modules read and
 * touch it. The directory module owns these tables; visibility for a caller is the access
 * module's rule (scope.ts), applied inside each query.
 */
export const meters = {
  /** The meters installed now at these locations, with their chain's last contact (alerts). */
  alertMeters: (db: SqlRunner, locationIds: readonly number[]) => findAlertMeters(db, locationIds),
  /** A meter the caller may see, with its Cube and AccessPoint. */
  visibleMeter: (db: SqlRunner, meterNumber: string, scope: Scope) =>
    findVisibleMeter(db, meterNumber, scope),
  /** A live location the caller may see, by public name in any case. */
  visibleLocation: (db: SqlRunner, publicName: string, scope: Scope) =>
    findVisibleLocation(db, publicName, scope),
  /**
   * The live location the caller may see by public name, with every meter it had at `meterInd`
   * (or at each indicator): one round trip, a second only when it has none there.
   */
  visibleLocationMeters: async (
    db: SqlRunner,
    publicName: string,
    scope: Scope,
    meterInd: number | undefined,
  ): Promise<{ location: LocationRow; meters: MeterDetailsRow[] } | undefined> => {
    const found = await findVisibleLocationMeters(db, publicName, scope, meterInd);
    const first = found[0];
    if (first) return { location: locationOf(first), meters: found };
    const location = await findVisibleLocation(db, publicName, scope);
    return location ? { location, meters: [] } : undefined;
  },
  /** Every meter a location had at `meterInd` (or at each indicator), oldest first within each. */
  locationMeters: (db: SqlRunner, locationId: number, meterInd: number | undefined) =>
    findLocationMeters(db, locationId, meterInd),
  /** Locations then meters the caller may see, by name. */
  visibleItems: (db: SqlRunner, scope: Scope, limit: number) => listVisibleItems(db, scope, limit),
  /** The caller's meters and locations matching `q`, best first. */
  searchVisible: (db: SqlRunner, scope: Scope, q: string, limit: number) =>
    searchVisibleItems(db, scope, q, limit),
  /** The meter or location as a list item, if the caller may see it. */
  visibleItem: (db: SqlRunner, scope: Scope, kind: 'location' | 'meter', key: string) =>
    findVisibleItem(db, scope, kind, key),
  /** A meter and its location's zone, for an export. */
  forExport: async (db: SqlRunner, meterNumber: string): Promise<ExportMeter | undefined> => {
    const row = await findExportMeter(db, meterNumber);
    return row && exportMeterOf(row);
  },
  /** The meters with these numbers, as a device batch is checked against them. */
  byNumbers: async (db: SqlRunner, numbers: readonly string[]): Promise<IngestMeter[]> =>
    (await findMetersByNumber(db, numbers)).map(ingestMeterOf),
  /** A location by id (archived ones too), with its zone. */
  location: (db: SqlRunner, id: number) => findAdminLocation(db, id),
  /** Every meter's facts, by meter number. */
  facts: (db: SqlRunner) => loadMeterFacts(db),
  /** The meters, their Cubes and AccessPoints were heard from now. */
  heardFrom: (db: SqlRunner, meterIds: readonly number[]) => touchChains(db, meterIds),
  /** A meter gets a channel (export) once readings of it are stored. */
  addChannels: (db: SqlRunner, pairs: ReadonlyArray<{ meterId: number; channel: number }>) =>
    addChannels(db, pairs),
};

const exportMeterOf = (row: ExportMeterRow): ExportMeter => ({
  id: row.device_id,
  meterNumber: row.meter_number,
  multiplier: row.multiplier,
  intervalMinutes: row.interval_minutes,
  registerDigits: row.register_digits,
  locationName: row.public_name,
  timeZone: row.time_zone,
});

const ingestMeterOf = (row: IngestMeterRow): IngestMeter => ({
  id: row.device_id,
  meterNumber: row.meter_number,
  registerDigits: row.register_digits,
  installedAt: row.installed_at,
  removedAt: row.removed_at,
  channels: row.channels,
});

/** The location a meter row holds. */
function locationOf(meter: MeterDetailsRow): LocationRow {
  return {
    id: meter.location_id,
    public_name: meter.public_name,
    address: meter.address,
    time_zone: meter.time_zone,
    billing_day: meter.billing_day,
  };
}

/**
 * Of a location's meters (oldest first within each indicator): each indicator's current meter
 * (the last installed), and the meters installed there at some time in [from, to].
 */
export function metersDuring<T extends MeterRow>(
  meters: readonly T[],
  from: Date,
  to: Date,
): { current: T[]; overlapping: T[] } {
  const current = meters.filter((meter, i) => meters[i + 1]?.meter_ind !== meter.meter_ind);
  const overlapping = meters.filter(
    (meter) => meter.installed_at <= to && (meter.removed_at === null || meter.removed_at >= from),
  );
  return { current, overlapping };
}
