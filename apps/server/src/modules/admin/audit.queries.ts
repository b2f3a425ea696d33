import type { SqlRunner } from '../../db/client.ts';

/** Who made a change: a signed-in user (through an API key), or a device's API key alone. */
export interface Actor {
  userId: number | null;
  apiKeyId: number | null;
}

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string | number | null;
  detail?: unknown;
}

/** Writes one audit entry; call it with the transaction of the change, so both are kept or neither. */
export async function writeAudit(tx: SqlRunner, actor: Actor, entry: AuditEntry): Promise<void> {
  await tx.query(
    `INSERT INTO audit_log (actor_user_id, actor_api_key_id, action, target_type, target_id, detail)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      actor.userId,
      actor.apiKeyId,
      entry.action,
      entry.targetType,
      entry.targetId === null ? null : String(entry.targetId),
      entry.detail === undefined ? null : JSON.stringify(entry.detail),
    ],
  );
}

export interface AuditRow {
  id: number;
  at: Date;
  actor_user_id: number | null;
  actor_api_key_id: number | null;
  action: string;
  target_type: string;
  target_id: string | null;
  detail: unknown;
  total: number;
}

export async function listAudit(
  db: SqlRunner,
  filter: { targetType: string | undefined; targetId: string | undefined; limit: number; offset: number },
): Promise<AuditRow[]> {
  return db.query<AuditRow>(
    `SELECT id, at, actor_user_id, actor_api_key_id, action, target_type, target_id, detail,
            count(*) OVER () AS total
     FROM audit_log
     WHERE ($1::text IS NULL OR target_type = $1) AND ($2::text IS NULL OR target_id = $2)
     ORDER BY id DESC LIMIT $3 OFFSET $4`,
    [filter.targetType ?? null, filter.targetId ?? null, filter.limit, filter.offset],
  );
}
