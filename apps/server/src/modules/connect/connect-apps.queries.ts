import type { SqlRunner } from '../../db/client.ts';
import type { connectApps } from '../../db/schema.ts';
import type { RowOf } from '../../db/rows.ts';

export type ConnectAppRow = Omit<RowOf<typeof connectApps>, 'secret_hash' | 'removed_at'>;

const columns = `id, name, contact, client_id, redirect_uris, data_kinds, notification_uri, status,
  created_at, suspended_at`;

export async function insertConnectApp(
  db: SqlRunner,
  app: {
    name: string;
    contact: string;
    clientId: string;
    secretHash: string;
    redirectUris: string[];
    dataKinds: string[];
    notificationUri: string | null;
  },
): Promise<ConnectAppRow> {
  const rows = await db.query<ConnectAppRow>(
    `INSERT INTO connect_apps (name, contact, client_id, secret_hash, redirect_uris, data_kinds, notification_uri)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${columns}`,
    [
      app.name,
      app.contact,
      app.clientId,
      app.secretHash,
      app.redirectUris,
      app.dataKinds,
      app.notificationUri,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('insert connect app returned no row');
  return row;
}

/** The apps not removed, newest first. */
export function listConnectApps(db: SqlRunner): Promise<ConnectAppRow[]> {
  return db.query<ConnectAppRow>(
    `SELECT ${columns} FROM connect_apps WHERE status <> 'removed' ORDER BY id DESC`,
  );
}

/** An app not removed, locked for a change when `lock`. */
export async function findConnectApp(
  db: SqlRunner,
  id: number,
  lock = false,
): Promise<ConnectAppRow | undefined> {
  const rows = await db.query<ConnectAppRow>(
    `SELECT ${columns} FROM connect_apps WHERE id = $1 AND status <> 'removed'${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0];
}

/** Moves an app to `status`, stamping when it was suspended or removed. */
export async function setConnectAppStatus(
  db: SqlRunner,
  id: number,
  status: 'active' | 'suspended' | 'removed',
): Promise<void> {
  await db.query(
    `UPDATE connect_apps SET status = $2,
       suspended_at = CASE WHEN $2 = 'suspended' THEN now() WHEN $2 = 'active' THEN NULL ELSE suspended_at END,
       removed_at = CASE WHEN $2 = 'removed' THEN now() ELSE removed_at END
     WHERE id = $1`,
    [id, status],
  );
}

/** Apps' names by id, removed ones too (the audit log names them). */
export function findConnectAppNames(db: SqlRunner, ids: readonly number[]) {
  return db.query<{ id: number; name: string }>(
    `SELECT id, name FROM connect_apps WHERE id = ANY($1::int[])`,
    [ids],
  );
}

/** An active app by client ID, with its secret's hash: what the OAuth server checks a client against. */
export async function findActiveAppByClientId(
  db: SqlRunner,
  clientId: string,
): Promise<(ConnectAppRow & { secret_hash: string }) | undefined> {
  const rows = await db.query<ConnectAppRow & { secret_hash: string }>(
    `SELECT ${columns}, secret_hash FROM connect_apps WHERE client_id = $1 AND status = 'active'`,
    [clientId],
  );
  return rows[0];
}
