import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditListQuerySchema, auditListSchema } from '@cm/contracts/admin.ts';
import { adminOnly, adminErrors as errors } from '../../plugins/admin-only.ts';
import type { AuditLogService } from './audit-log.service.ts';

const tags = ['admin'];

/** The audit log: administrators only (issue 6). */
export const auditRoutes: FastifyPluginAsyncZod<{ audit: AuditLogService }> = async (app, { audit }) => {
  adminOnly(app);
  app.get(
    '/api/admin/audit',
    {
      schema: {
        tags,
        summary:
          'The audit log, newest first, with the names of who acted and on what; filtered by time, actor, action and target.',
        querystring: auditListQuerySchema,
        response: { 200: auditListSchema, ...errors },
      },
    },
    async (request) => audit.list(request.query),
  );
};
