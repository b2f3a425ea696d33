import type { SqlRunner } from '../../db/client.ts';
import type { locations } from '../../db/schema.ts';
import type { RowOf } from '../../db/rows.ts';
import { likePattern, namesById } from '../../db/sql-helpers.ts';

export type AdminLocationRow = Pick<
  RowOf<typeof locations>,
  'id' | 'public_name' | 'address' | 'time_zone' | 'billing_day' | 'archived_at' | 'created_at'
> & { meter_count: number };

const locationColumns = `l.id, l.public_name, l.address, l.time_zone, l.billing_day, l.archived_at, l.created_at,
  (SELECT count(*)::int FROM meters m WHERE m.location_id = l.id AND m.removed_at IS NULL) AS meter_count`;

export async function listLocations(
  db: SqlRunner,
  filter: { search: string | undefined; includeArchived: boolean; limit: number; offset: number },
): Promise<{ rows: AdminLocationRow[]; total: number }> {
  const where = `($1::text IS NULL OR l.public_name ILIKE $1 OR l.address ILIKE $1) AND ($2::boolean OR l.archived_at IS NULL)`;
  const params = [filter.search ? likePattern(filter.search) : null, filter.includeArchived];
  const [rows, counts] = await Promise.all([
    db.query<AdminLocationRow>(
      `SELECT ${locationColumns} FROM locations l WHERE ${where} ORDER BY lower(l.public_name), l.id LIMIT $3 OFFSET $4`,
      [...params, filter.limit, filter.offset],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM locations l WHERE ${where}`, params),
  ]);
  return { rows, total: counts[0]?.total ?? 0 };
}

export async function findAdminLocation(db: SqlRunner, id: number): Promise<AdminLocationRow | undefined> {
  const rows = await db.query<AdminLocationRow>(
    `SELECT ${locationColumns} FROM locations l WHERE l.id = $1`,
    [id],
  );
  return rows[0];
}

/** Another location whose public name equals `publicName` ignoring case (clients type names in any case). */
export async function findLocationNamed(
  db: SqlRunner,
  publicName: string,
  exceptId: number | null,
): Promise<{ id: number } | undefined> {
  const rows = await db.query<{ id: number }>(
    'SELECT id FROM locations WHERE lower(public_name) = lower($1) AND ($2::int IS NULL OR id <> $2) LIMIT 1',
    [publicName, exceptId],
  );
  return rows[0];
}

export async function insertLocation(
  db: SqlRunner,
  location: { publicName: string; address: string; timeZone: string; billingDay?: number | null | undefined },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    'INSERT INTO locations (public_name, address, time_zone, billing_day) VALUES ($1, $2, $3, $4) RETURNING id',
    [location.publicName, location.address, location.timeZone, location.billingDay ?? null],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into locations returned no id');
  return id;
}

export async function updateLocation(
  db: SqlRunner,
  id: number,
  changes: {
    publicName?: string | undefined;
    address?: string | undefined;
    timeZone?: string | undefined;
    /** `null` sets calendar months; undefined keeps the day. */
    billingDay?: number | null | undefined;
  },
): Promise<void> {
  await db.query(
    `UPDATE locations SET public_name = COALESCE($2, public_name), address = COALESCE($3, address),
       time_zone = COALESCE($4, time_zone),
       billing_day = CASE WHEN $5::boolean THEN $6::smallint ELSE billing_day END WHERE id = $1`,
    [
      id,
      changes.publicName ?? null,
      changes.address ?? null,
      changes.timeZone ?? null,
      changes.billingDay !== undefined,
      changes.billingDay ?? null,
    ],
  );
}

export async function setLocationArchived(db: SqlRunner, id: number, isArchived: boolean): Promise<void> {
  await db.query(
    `UPDATE locations SET archived_at = CASE WHEN $2 THEN COALESCE(archived_at, now()) ELSE NULL END WHERE id = $1`,
    [id, isArchived],
  );
}

/** Location ids among `ids` that do not exist. */
export async function missingLocationIds(db: SqlRunner, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<{ id: number }>(
    'SELECT x.id FROM unnest($1::int[]) AS x(id) WHERE NOT EXISTS (SELECT 1 FROM locations l WHERE l.id = x.id)',
    [[...new Set(ids)]],
  );
  return rows.map((row) => row.id);
}

/** What the audit log calls each of these locations: their public names. */
export const findLocationNames = (db: SqlRunner, ids: readonly number[]) =>
  namesById(db, `SELECT id, public_name AS name FROM locations WHERE id = ANY($1::int[])`, ids);
