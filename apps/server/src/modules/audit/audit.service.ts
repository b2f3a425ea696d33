import type { SqlRunner } from '../../db/client.ts';
import type { Actor } from '../access/index.ts';
import type { AuditEntry } from './audit-entry.ts';
import { insertAuditEntry } from './audit.queries.ts';

/**
 * Writes one audit entry. Every module that changes something records it here, with the
 * transaction of the change, so that both are kept or neither; the audit module alone owns the table.
 */
export function recordAudit(tx: SqlRunner, actor: Actor, entry: AuditEntry): Promise<void> {
  return insertAuditEntry(tx, actor, entry);
}
