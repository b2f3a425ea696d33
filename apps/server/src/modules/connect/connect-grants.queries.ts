import type { SqlRunner } from '../../db/client.ts';
import { locationVisible } from '../access/index.ts';

// connect_grants: customers' consents to apps (issue 37).

export interface GrantRow {
  id: number;
  app_id: number;
  app_name: string;
  app_status: string;
  user_id: number;
  user_email: string;
  meter_ids: number[];
  meter_numbers: string[];
  data_kinds: string[];
  data_from: Date;
  until: Date;
  oidc_grant_id: string;
  created_at: Date;
  revoked_at: Date | null;
  revoked_by: string | null;
}

const SELECT = `SELECT g.id, g.app_id, a.name AS app_name, a.status AS app_status, g.user_id, u.email AS user_email,
    g.meter_ids, ARRAY(SELECT m.meter_number FROM meters m WHERE m.device_id = ANY(g.meter_ids) ORDER BY m.meter_number) AS meter_numbers,
    g.data_kinds, g.data_from, g.until, g.oidc_grant_id, g.created_at, g.revoked_at, g.revoked_by
  FROM connect_grants g JOIN connect_apps a ON a.id = g.app_id JOIN users u ON u.id = g.user_id`;

/** The meters a customer sees (their live locations'), by number. */
export function findCustomerMeters(db: SqlRunner, userId: number) {
  return db.query<{ device_id: number; meter_number: string; location_name: string }>(
    `SELECT m.device_id, m.meter_number, l.public_name AS location_name
     FROM meters m JOIN locations l ON l.id = m.location_id
     WHERE ${locationVisible('m.location_id', 1, 2)} ORDER BY m.meter_number`,
    [false, userId],
  );
}

export async function insertGrant(
  db: SqlRunner,
  grant: {
    appId: number;
    userId: number;
    meterIds: number[];
    dataKinds: string[];
    dataFrom: Date;
    until: Date;
    oidcGrantId: string;
  },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO connect_grants (app_id, user_id, meter_ids, data_kinds, data_from, until, oidc_grant_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [
      grant.appId,
      grant.userId,
      grant.meterIds,
      grant.dataKinds,
      grant.dataFrom.toISOString(),
      grant.until.toISOString(),
      grant.oidcGrantId,
    ],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert grant returned no id');
  return id;
}

/** A customer's grants (`userId`), or every grant; newest first. */
export function listGrants(db: SqlRunner, userId: number | null): Promise<GrantRow[]> {
  return db.query<GrantRow>(
    `${SELECT} WHERE ($1::int IS NULL OR g.user_id = $1) ORDER BY g.id DESC LIMIT 1000`,
    [userId],
  );
}

export async function findGrant(db: SqlRunner, id: number): Promise<GrantRow | undefined> {
  return (await db.query<GrantRow>(`${SELECT} WHERE g.id = $1`, [id]))[0];
}

export async function findGrantByOidcId(db: SqlRunner, oidcGrantId: string): Promise<GrantRow | undefined> {
  return (await db.query<GrantRow>(`${SELECT} WHERE g.oidc_grant_id = $1`, [oidcGrantId]))[0];
}

/**
 * Ends grants not ended yet (one by id, by OAuth grant, or all of an app), and deletes their codes
 * and tokens at once; answers those ended.
 */
export function revokeGrants(
  db: SqlRunner,
  which: { id: number } | { oidcGrantId: string } | { appId: number },
  by: string,
): Promise<Array<{ id: number; app_id: number; user_id: number; oidc_grant_id: string }>> {
  const [column, value] =
    'id' in which
      ? ['id', which.id]
      : 'appId' in which
        ? ['app_id', which.appId]
        : ['oidc_grant_id', which.oidcGrantId];
  return db.query(
    `WITH ended AS (
       UPDATE connect_grants SET revoked_at = now(), revoked_by = $2
       WHERE ${column} = $1 AND revoked_at IS NULL RETURNING id, app_id, user_id, oidc_grant_id),
     gone AS (
       DELETE FROM oauth_artefacts o USING ended e
       WHERE o.grant_id = e.oidc_grant_id OR (o.model = 'Grant' AND o.id = e.oidc_grant_id))
     SELECT id, app_id, user_id, oidc_grant_id FROM ended`,
    [value, by],
  );
}

/** Whether the customer still sees the meter (a location unlinked or archived ends the app's reads of it). */
export async function customerSeesMeter(db: SqlRunner, userId: number, meterId: number): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM meters m WHERE m.device_id = $3 AND ${locationVisible('m.location_id', 1, 2)}`,
    [false, userId, meterId],
  );
  return rows.length > 0;
}

/** The numbers of meters by id, for the grant's reads. */
export function findMeterNumbers(db: SqlRunner, meterIds: readonly number[]) {
  return db.query<{ device_id: number; meter_number: string }>(
    'SELECT device_id, meter_number FROM meters WHERE device_id = ANY($1::int[]) ORDER BY device_id',
    [meterIds],
  );
}
