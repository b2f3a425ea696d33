import type {
  AdminDevice,
  AdminLocation,
  CreateLocationBody,
  LocationListQuery,
  UpdateLocationBody,
} from '@cm/contracts/admin.ts';
import { isValidTimeZone } from '@cm/contracts/zoned-time.ts';
import type { Db, SqlRunner } from '../../db/client.ts';
import { conflict, HttpError, notFound } from '../../http-error.ts';
import { presentDevice, presentLocation } from './directory.presenter.ts';
import type { Actor } from '../access/index.ts';
import { recordAudit } from '../audit/index.ts';
import { uniqueViolation } from '../../db/sql-helpers.ts';
import { listDevices } from './devices.queries.ts';
import {
  findAdminLocation,
  findLocationNamed,
  insertLocation,
  listLocations,
  missingLocationIds,
  setLocationArchived,
  updateLocation,
  findLocationNames,
} from './locations.queries.ts';

const LOCATION_NOT_FOUND = 'Location not found.';
const NAME_TAKEN = 'Another location already has this public name.';

function checkTimeZone(timeZone: string | undefined): void {
  if (timeZone !== undefined && !isValidTimeZone(timeZone)) {
    throw new HttpError(
      400,
      `timeZone: "${timeZone}" is not an IANA time zone such as Europe/Berlin.`,
      'timeZone',
    );
  }
}

export class AdminLocationsService {
  constructor(private readonly db: Db) {}

  async list(query: LocationListQuery) {
    const { rows, total } = await listLocations(this.db, {
      search: query.search || undefined,
      includeArchived: query.includeArchived ?? false,
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    return { items: rows.map(presentLocation), total, page: query.page, pageSize: query.pageSize };
  }

  async get(id: number): Promise<AdminLocation> {
    const row = await findAdminLocation(this.db, id);
    if (!row) throw notFound(LOCATION_NOT_FOUND);
    return presentLocation(row);
  }

  async create(actor: Actor, body: CreateLocationBody): Promise<AdminLocation> {
    checkTimeZone(body.timeZone);
    const id = await this.db
      .transaction(async (tx) => {
        await this.checkNameFree(tx, body.publicName, null);
        const locationId = await insertLocation(tx, body);
        await recordAudit(tx, actor, {
          action: 'location.create',
          targetType: 'location',
          targetId: locationId,
          detail: body,
        });
        return locationId;
      })
      .catch(rethrowNameTaken);
    return this.get(id);
  }

  async update(actor: Actor, id: number, body: UpdateLocationBody): Promise<AdminLocation> {
    checkTimeZone(body.timeZone);
    await this.db
      .transaction(async (tx) => {
        const before = await findAdminLocation(tx, id);
        if (!before) throw notFound(LOCATION_NOT_FOUND);
        if (body.publicName !== undefined) await this.checkNameFree(tx, body.publicName, id);
        await updateLocation(tx, id, body);
        await recordAudit(tx, actor, {
          action: 'location.update',
          targetType: 'location',
          targetId: id,
          detail: {
            before: {
              publicName: before.public_name,
              address: before.address,
              timeZone: before.time_zone,
              billingDay: before.billing_day,
            },
            changes: body,
          },
        });
      })
      .catch(rethrowNameTaken);
    return this.get(id);
  }

  /** Archived locations disappear from clients' lookups; their meters and readings are kept. */
  async setArchived(actor: Actor, id: number, isArchived: boolean): Promise<AdminLocation> {
    await this.db.transaction(async (tx) => {
      if (!(await findAdminLocation(tx, id))) throw notFound(LOCATION_NOT_FOUND);
      await setLocationArchived(tx, id, isArchived);
      await recordAudit(tx, actor, {
        action: isArchived ? 'location.archive' : 'location.restore',
        targetType: 'location',
        targetId: id,
      });
    });
    return this.get(id);
  }

  /** The location's meters, current and removed (newest installation first within an indicator). */
  async meters(id: number): Promise<AdminDevice[]> {
    if (!(await findAdminLocation(this.db, id))) throw notFound(LOCATION_NOT_FOUND);
    const { rows } = await listDevices(this.db, { locationId: id, type: 3, limit: 10_000, offset: 0 });
    return rows.map(presentDevice);
  }

  private async checkNameFree(tx: SqlRunner, publicName: string, exceptId: number | null): Promise<void> {
    if (await findLocationNamed(tx, publicName, exceptId)) throw conflict(NAME_TAKEN, 'publicName');
  }
}

function rethrowNameTaken(error: unknown): never {
  if (uniqueViolation(error)) throw conflict(NAME_TAKEN, 'publicName');
  throw error;
}

/** The ids among `ids` that name no location (for another module linking to locations). */
export function missingLocations(db: SqlRunner, ids: readonly number[]): Promise<number[]> {
  return missingLocationIds(db, ids);
}

/** Locations' public names, for the audit log. */
export const locationNames = (db: SqlRunner, ids: readonly number[]) => findLocationNames(db, ids);
