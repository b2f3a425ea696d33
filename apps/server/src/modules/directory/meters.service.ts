import type { SqlRunner } from '../../db/client.ts';
import type { Scope } from '../auth/scope.ts';
import {
  addChannels,
  findCurrentMeters,
  findExportMeter,
  findLocationMeters,
  findMetersByNumber,
  findVisibleLocation,
  findVisibleMeter,
  findVisibleItem,
  listVisibleItems,
  loadMeterFacts,
  searchVisibleItems,
  touchChains,
  findAlertMeters,
} from './meters.queries.ts';

export type {
  DeviceRow,
  ExportMeterRow,
  IngestMeterRow,
  ItemRow,
  LocationRow,
  MeterDetailsRow,
  MeterRow,
} from './meters.queries.ts';

/** What a readings file or batch is checked against, for one meter. */
export interface MeterFacts {
  id: number;
  meterNumber: string;
  multiplier: number;
  registerDigits: number;
  intervalMinutes: number;
  installedAtMs: number;
  removedAtMs: number | null;
  /** Stored channel numbers the meter has (1 import, 2 export). */
  channels: number[];
  /** The IANA zone of the meter's location: local times of a file are read in it by default. */
  timeZone: string;
  /** The public name of the meter's location. */
  locationName: string;
}

/**
 * The directory (locations, the device network and its meters) as the other modules read and
 * touch it. The directory module owns these tables; visibility for a caller is the auth
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
  /** Meters of a location whose time there overlaps [from, to]. */
  locationMeters: (db: SqlRunner, locationId: number, meterInd: number | undefined, from: Date, to: Date) =>
    findLocationMeters(db, locationId, meterInd, from, to),
  /** The current meter at each indicator of a location, with its chain. */
  currentMeters: (db: SqlRunner, locationId: number, meterInd: number | undefined) =>
    findCurrentMeters(db, locationId, meterInd),
  /** Locations then meters the caller may see, by name. */
  visibleItems: (db: SqlRunner, scope: Scope, limit: number) => listVisibleItems(db, scope, limit),
  /** The caller's meters and locations matching `q`, best first. */
  searchVisible: (db: SqlRunner, scope: Scope, q: string, limit: number) =>
    searchVisibleItems(db, scope, q, limit),
  /** The meter or location as a list item, if the caller may see it. */
  visibleItem: (db: SqlRunner, scope: Scope, kind: 'location' | 'meter', key: string) =>
    findVisibleItem(db, scope, kind, key),
  /** A meter and its location's zone, for an export. */
  forExport: (db: SqlRunner, meterNumber: string) => findExportMeter(db, meterNumber),
  byNumbers: (db: SqlRunner, numbers: readonly string[]) => findMetersByNumber(db, numbers),
  /** Every meter's facts, by meter number. */
  facts: (db: SqlRunner) => loadMeterFacts(db),
  /** The meters, their Cubes and AccessPoints were heard from now. */
  heardFrom: (db: SqlRunner, meterIds: readonly number[]) => touchChains(db, meterIds),
  /** A meter gets a channel (export) once readings of it are stored. */
  addChannels: (db: SqlRunner, pairs: ReadonlyArray<{ meterId: number; channel: number }>) =>
    addChannels(db, pairs),
};
