// The audit module's face: the writer every module calls in the transaction of its change, and
// the log's reader and routes for the app's wiring. It imports no other module but access: the
// names the log shows are looked up through the lookups app.ts hands to AuditLogService.
export { AuditLogService } from './audit-log.service.ts';
export { auditRoutes } from './audit.routes.ts';
export { recordAudit } from './audit.service.ts';
