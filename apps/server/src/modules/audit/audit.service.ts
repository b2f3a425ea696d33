import type { Db, SqlRunner } from '../../db/client.ts';
import { insertAuditEntry, listAudit, type AuditRow } from './audit.queries.ts';

/** Who made a change: a signed-in user (through an API key), or a device's API key alone. */
export interface Actor {
  userId: number | null;
  apiKeyId: number | null;
}

/** One change, as the audit log keeps it. */
export interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string | number | null;
  detail?: unknown;
}

/**
 * Writes one audit entry. Every module that changes something records it here, with the
 * transaction of the change, so that both are kept or neither; the audit module alone owns the table.
 */
export function recordAudit(tx: SqlRunner, actor: Actor, entry: AuditEntry): Promise<void> {
  return insertAuditEntry(tx, actor, entry);
}

function presentAudit(row: AuditRow) {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actorUserId: row.actor_user_id,
    actorApiKeyId: row.actor_api_key_id,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    detail: row.detail,
  };
}

/** The audit log, newest first, as administrators page through it. */
export class AuditService {
  constructor(private readonly db: Db) {}

  async list(query: {
    page: number;
    pageSize: number;
    targetType?: string | undefined;
    targetId?: string | undefined;
  }) {
    const rows = await listAudit(this.db, {
      targetType: query.targetType || undefined,
      targetId: query.targetId || undefined,
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    return {
      items: rows.map(presentAudit),
      total: rows[0]?.total ?? 0,
      page: query.page,
      pageSize: query.pageSize,
    };
  }
}
