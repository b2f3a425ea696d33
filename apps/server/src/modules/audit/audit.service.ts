import type { SqlRunner } from '../../db/client.ts';
import { insertAuditEntry } from './audit.queries.ts';

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
