import type { SqlRunner } from '../../db/client.ts';

// oauth_artefacts: what the OAuth server keeps between requests (oidc-provider's models).

type Payload = Record<string, unknown>;

/** Writes a model's payload, found by its grant and (a session's) uid; `expiresIn` seconds, or none. */
export async function upsertArtefact(
  db: SqlRunner,
  model: string,
  id: string,
  payload: Payload,
  expiresIn: number | undefined,
): Promise<void> {
  const grantId = typeof payload.grantId === 'string' ? payload.grantId : null;
  const uid = typeof payload.uid === 'string' ? payload.uid : null;
  await db.query(
    `INSERT INTO oauth_artefacts (model, id, payload, grant_id, uid, expires_at)
     VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::int IS NULL THEN NULL ELSE now() + make_interval(secs => $6::int) END)
     ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
       uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
    [model, id, JSON.stringify(payload), grantId, uid, expiresIn ?? null],
  );
}

const LIVE = '(expires_at IS NULL OR expires_at > now())';

/** A model's payload by id, unless expired. */
export async function findArtefact(db: SqlRunner, model: string, id: string): Promise<Payload | undefined> {
  const rows = await db.query<{ payload: Payload }>(
    `SELECT payload FROM oauth_artefacts WHERE model = $1 AND id = $2 AND ${LIVE}`,
    [model, id],
  );
  return rows[0]?.payload;
}

/** A session by its uid, unless expired. */
export async function findArtefactByUid(
  db: SqlRunner,
  model: string,
  uid: string,
): Promise<Payload | undefined> {
  const rows = await db.query<{ payload: Payload }>(
    `SELECT payload FROM oauth_artefacts WHERE model = $1 AND uid = $2 AND ${LIVE}`,
    [model, uid],
  );
  return rows[0]?.payload;
}

/** Marks a code or token used (seconds since the epoch, as oidc-provider reads it). */
export async function consumeArtefact(db: SqlRunner, model: string, id: string): Promise<void> {
  await db.query(
    `UPDATE oauth_artefacts SET payload = payload || jsonb_build_object('consumed', floor(extract(epoch FROM now()))::bigint)
     WHERE model = $1 AND id = $2`,
    [model, id],
  );
}

export async function destroyArtefact(db: SqlRunner, model: string, id: string): Promise<void> {
  await db.query('DELETE FROM oauth_artefacts WHERE model = $1 AND id = $2', [model, id]);
}

/** Every code and token of a grant (of one model, or of all with `model` null), the grant itself too. */
export async function destroyArtefactsOfGrant(db: SqlRunner, model: string | null, grantId: string) {
  await db.query(
    `DELETE FROM oauth_artefacts WHERE ($1::text IS NULL OR model = $1) AND (grant_id = $2 OR (model = 'Grant' AND id = $2 AND $1::text IS NULL))`,
    [model, grantId],
  );
}

/** Housekeeping: deletes the expired artefacts; answers how many. */
export async function purgeExpiredArtefacts(db: SqlRunner): Promise<number> {
  const rows = await db.query<{ count: number }>(
    'WITH gone AS (DELETE FROM oauth_artefacts WHERE expires_at < now() RETURNING 1) SELECT count(*)::int AS count FROM gone',
  );
  return rows[0]?.count ?? 0;
}
