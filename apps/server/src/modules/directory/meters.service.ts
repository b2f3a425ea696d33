import type { SqlRunner } from '../../db/client.ts';
import type { Scope } from '../access/index.ts';
import { findAdminLocation } from './locations.queries.ts';
import { findVisibleLocation, findVisibleLocationMeters } from './meters.queries.ts';
import type { DirectoryLocation, ImportLocation, LocationMeter } from './views.ts';

// The directory (locations, the device network and its meters) as the other modules read and
// touch it. The directory module owns these tables; visibility for a caller is the access
// module's rule (scope.ts), applied inside each query. The queries below answer domain types
// (views.ts, meter-facts.ts), so the face hands them out as they are, under their own names.

export {
  addChannels,
  findAlertMeters,
  findExportMeter,
  findLocationMeters,
  findMetersByNumber,
  findVisibleItem,
  findVisibleLocation,
  findVisibleMeter,
  listVisibleItems,
  loadMeterFacts,
  searchVisibleItems,
  touchChains,
} from './meters.queries.ts';

/**
 * The live location the caller may see by public name, with every meter it had at `meterInd`
 * (or at each indicator): one round trip, a second only when it has none there.
 */
export async function findVisibleLocationWithMeters(
  db: SqlRunner,
  publicName: string,
  scope: Scope,
  meterInd: number | undefined,
): Promise<{ location: DirectoryLocation; meters: LocationMeter[] } | undefined> {
  const found = await findVisibleLocationMeters(db, publicName, scope, meterInd);
  const first = found[0];
  if (first) return { location: first.location, meters: found };
  const location = await findVisibleLocation(db, publicName, scope);
  return location ? { location, meters: [] } : undefined;
}

/** A location by id (archived ones too), with its zone: where an import creates meters. */
export async function findImportLocation(db: SqlRunner, id: number): Promise<ImportLocation | undefined> {
  const row = await findAdminLocation(db, id);
  return (
    row && {
      id: row.id,
      publicName: row.public_name,
      timeZone: row.time_zone,
      isArchived: row.archived_at !== null,
    }
  );
}

/**
 * Of a location's meters (oldest first within each indicator): each indicator's current meter
 * (the last installed), and the meters installed there at some time in [from, to].
 */
export function metersDuring<T extends Pick<LocationMeter, 'meterInd' | 'installedAt' | 'removedAt'>>(
  meters: readonly T[],
  from: Date,
  to: Date,
): { current: T[]; overlapping: T[] } {
  const current = meters.filter((meter, i) => meters[i + 1]?.meterInd !== meter.meterInd);
  const overlapping = meters.filter(
    (meter) => meter.installedAt <= to && (meter.removedAt === null || meter.removedAt >= from),
  );
  return { current, overlapping };
}
