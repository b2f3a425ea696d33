import type { SqlRunner } from '../../db/client.ts';
import type { auditLog } from '../../db/schema.ts';
import type { RowOf } from '../../db/rows.ts';
import type { Actor } from '../access/index.ts';
import type { AuditEntry } from './audit-entry.ts';

export async function insertAuditEntry(tx: SqlRunner, actor: Actor, entry: AuditEntry): Promise<void> {
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

export type AuditRow = RowOf<typeof auditLog> & { total: number };

export async function listAudit(
  db: SqlRunner,
  filter: {
    targetType: string | undefined;
    targetId: string | undefined;
    from: Date | undefined;
    to: Date | undefined;
    actorUserId: number | undefined;
    action: string | undefined;
    limit: number;
    offset: number;
  },
): Promise<AuditRow[]> {
  return db.query<AuditRow>(
    `SELECT id, at, actor_user_id, actor_api_key_id, action, target_type, target_id, detail,
            count(*) OVER () AS total
     FROM audit_log
     WHERE ($1::text IS NULL OR target_type = $1) AND ($2::text IS NULL OR target_id = $2)
       AND ($3::timestamptz IS NULL OR at >= $3) AND ($4::timestamptz IS NULL OR at < $4)
       AND ($5::int IS NULL OR actor_user_id = $5) AND ($6::text IS NULL OR action = $6)
     ORDER BY id DESC LIMIT $7 OFFSET $8`,
    [
      filter.targetType ?? null,
      filter.targetId ?? null,
      filter.from ?? null,
      filter.to ?? null,
      filter.actorUserId ?? null,
      filter.action ?? null,
      filter.limit,
      filter.offset,
    ],
  );
}
