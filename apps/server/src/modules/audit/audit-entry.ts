/** One change, as the audit log keeps it. */
export interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string | number | null;
  detail?: unknown;
}
