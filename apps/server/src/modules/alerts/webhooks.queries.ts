import type { SqlRunner } from '../../db/client.ts';

export interface WebhookRow {
  id: number;
  url: string;
  secret: string;
  created_at: Date;
  delivered: number;
  pending: number;
  failed: number;
}

export function findWebhooks(db: SqlRunner): Promise<WebhookRow[]> {
  return db.query<WebhookRow>(
    `SELECT w.id, w.url, w.secret, w.created_at,
            count(*) FILTER (WHERE d.status = 'delivered')::int AS delivered,
            count(*) FILTER (WHERE d.status = 'pending')::int AS pending,
            count(*) FILTER (WHERE d.status = 'failed')::int AS failed
     FROM webhooks w LEFT JOIN webhook_deliveries d ON d.webhook_id = w.id
     GROUP BY w.id ORDER BY w.id`,
  );
}

export async function insertWebhook(db: SqlRunner, url: string, secret: string): Promise<number> {
  const rows = await db.query<{ id: number }>(
    'INSERT INTO webhooks (url, secret) VALUES ($1, $2) RETURNING id',
    [url, secret],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into webhooks returned no id');
  return id;
}

/** Webhooks whose secret is stored in clear (written before secrets were sealed). */
export function findClearWebhookSecrets(
  db: SqlRunner,
  sealedPrefix: string,
): Promise<{ id: number; secret: string }[]> {
  return db.query('SELECT id, secret FROM webhooks WHERE NOT starts_with(secret, $1)', [sealedPrefix]);
}

/** Replaces a webhook's stored secret, if it is still `from`. */
export async function replaceWebhookSecret(
  db: SqlRunner,
  id: number,
  from: string,
  to: string,
): Promise<void> {
  await db.query('UPDATE webhooks SET secret = $3 WHERE id = $1 AND secret = $2', [id, from, to]);
}

export async function deleteWebhook(db: SqlRunner, id: number): Promise<boolean> {
  return (await db.query('DELETE FROM webhooks WHERE id = $1 RETURNING id', [id])).length > 0;
}

/** Queues one delivery of each event to every webhook. */
export async function queueDeliveries(
  db: SqlRunner,
  events: readonly { event: 'alert.fired' | 'alert.cleared'; payload: object }[],
): Promise<void> {
  if (events.length === 0) return;
  await db.query(
    `INSERT INTO webhook_deliveries (webhook_id, event, payload)
     SELECT w.id, e.event, e.payload FROM webhooks w, unnest($1::text[], $2::jsonb[]) AS e(event, payload)`,
    [events.map((e) => e.event), events.map((e) => JSON.stringify(e.payload))],
  );
}

export interface DueDeliveryRow {
  id: number;
  webhook_id: number;
  url: string;
  secret: string;
  event: string;
  payload: object;
  attempts: number;
  /** The meter the alert is about (null once its episode is gone). */
  meter_id: number | null;
}

/**
 * Pending deliveries due at `now`, oldest first, claimed (moved a minute on) so two runs do not send
 * one twice. Due by the database's clock too: a delivery queued
 * a moment ago has `next_attempt_at` = the database's now(), in microseconds, which a `now` read in
 * whole milliseconds just after may still precede (it then waited for the next run, a minute later).
 */
export function claimDueDeliveries(db: SqlRunner, now: Date, limit: number): Promise<DueDeliveryRow[]> {
  return db.query<DueDeliveryRow>(
    `UPDATE webhook_deliveries d SET next_attempt_at = $1::timestamptz + interval '1 minute'
     FROM webhooks w
     WHERE d.id IN (SELECT id FROM webhook_deliveries
                    WHERE status = 'pending' AND next_attempt_at <= GREATEST($1::timestamptz, now())
                    ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
       AND w.id = d.webhook_id
     RETURNING d.id, d.webhook_id, w.url, w.secret, d.event, d.payload, d.attempts,
       (SELECT e.meter_id FROM alert_episodes e WHERE e.id = (d.payload->'alert'->>'id')::bigint)`,
    [now, limit],
  );
}

export async function recordAttempt(
  db: SqlRunner,
  id: number,
  outcome: {
    status: 'pending' | 'delivered' | 'failed';
    result: string;
    nextAttemptAt: Date | null;
    at: Date;
  },
): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET attempts = attempts + 1, status = $2, last_result = $3,
       next_attempt_at = coalesce($4::timestamptz, next_attempt_at),
       delivered_at = CASE WHEN $2 = 'delivered' THEN $5::timestamptz ELSE NULL END
     WHERE id = $1`,
    [id, outcome.status, outcome.result.slice(0, 500), outcome.nextAttemptAt, outcome.at],
  );
}

export function findDeliveries(
  db: SqlRunner,
  webhookId: number,
  limit: number,
): Promise<
  {
    id: number;
    event: string;
    status: string;
    attempts: number;
    last_result: string | null;
    created_at: Date;
    next_attempt_at: Date;
    delivered_at: Date | null;
  }[]
> {
  return db.query(
    `SELECT id, event, status, attempts, last_result, created_at, next_attempt_at, delivered_at
     FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [webhookId, limit],
  );
}
