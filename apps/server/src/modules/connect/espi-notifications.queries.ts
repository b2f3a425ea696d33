import type { SqlRunner } from '../../db/client.ts';

// espi_notifications: the POSTs of a grant's batch URI to its app's notification URI (issue 37).

/**
 * Queues one notification for each live grant (not revoked, not ended, its app active with a
 * notification URI) that holds one of `meterIds`; none for a grant whose last one is still waiting
 * for its first try (it names the same batch URI). Answers how many were queued.
 */
export async function queueNotifications(db: SqlRunner, meterIds: readonly number[]): Promise<number> {
  if (meterIds.length === 0) return 0;
  const rows = await db.query(
    `INSERT INTO espi_notifications (grant_id)
     SELECT g.id FROM connect_grants g JOIN connect_apps a ON a.id = g.app_id
     WHERE g.meter_ids && $1::int[] AND g.revoked_at IS NULL AND g.until > now()
       AND a.status = 'active' AND a.notification_uri IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM espi_notifications n
                       WHERE n.grant_id = g.id AND n.status = 'pending' AND n.attempts = 0)
     ORDER BY g.id
     RETURNING id`,
    [meterIds],
  );
  return rows.length;
}

export interface DueNotificationRow {
  id: number;
  grant_id: number;
  attempts: number;
  notification_uri: string | null;
  /** The client secret's SHA-256 (hex): the key the notification is signed with. */
  secret_hash: string;
  /** Whether the grant is still live (it may have ended since the notification was queued). */
  is_live: boolean;
}

/**
 * Pending notifications due at `now` (or by the database's clock), oldest first, claimed (moved a
 * minute on) so that two runs do not send one twice; as webhooks' claimDueDeliveries.
 */
export function claimDueNotifications(
  db: SqlRunner,
  now: Date,
  limit: number,
): Promise<DueNotificationRow[]> {
  return db.query<DueNotificationRow>(
    `UPDATE espi_notifications n SET next_attempt_at = $1::timestamptz + interval '1 minute'
     FROM connect_grants g JOIN connect_apps a ON a.id = g.app_id
     WHERE n.id IN (SELECT id FROM espi_notifications
                    WHERE status = 'pending' AND next_attempt_at <= GREATEST($1::timestamptz, now())
                    ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
       AND g.id = n.grant_id
     RETURNING n.id, n.grant_id, n.attempts, a.notification_uri, a.secret_hash,
       (g.revoked_at IS NULL AND g.until > now() AND a.status = 'active') AS is_live`,
    [now, limit],
  );
}

export async function recordNotificationAttempt(
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
    `UPDATE espi_notifications SET attempts = attempts + 1, status = $2, last_result = $3,
       next_attempt_at = coalesce($4::timestamptz, next_attempt_at),
       delivered_at = CASE WHEN $2 = 'delivered' THEN $5::timestamptz ELSE NULL END
     WHERE id = $1`,
    [id, outcome.status, outcome.result.slice(0, 500), outcome.nextAttemptAt, outcome.at],
  );
}

/** Gives up a notification whose grant ended before it was sent: it is not sent. */
export async function dropNotification(db: SqlRunner, id: number, why: string): Promise<void> {
  await db.query(`UPDATE espi_notifications SET status = 'failed', last_result = $2 WHERE id = $1`, [
    id,
    why,
  ]);
}
