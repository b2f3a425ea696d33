import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditListQuerySchema, auditListSchema } from '@cm/contracts/admin.ts';
import { adminOnly, adminErrors as errors } from '../../plugins/admin-only.ts';
import type { AuditService } from './audit.service.ts';

const tags = ['admin'];

/** The audit log: administrators only (issue 6). */
export const auditRoutes: FastifyPluginAsyncZod<{ audit: AuditService }> = async (app, { audit }) => {
  adminOnly(app);
  app.get(
    '/api/admin/audit',
    {
      schema: {
        tags,
        summary: 'The audit log, newest first.',
        querystring: auditListQuerySchema,
        response: { 200: auditListSchema, ...errors },
      },
    },
    async (request) => audit.list(request.query),
  );
};
