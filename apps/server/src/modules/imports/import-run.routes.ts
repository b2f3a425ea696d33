import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import {
  importJobSchema,
  reconciliationQuerySchema,
  startImportBodySchema,
  storedReconciliationSchema,
} from '@cm/contracts/import-jobs.ts';
import { z } from 'zod';
import { actorOf, adminErrors } from '../../plugins/admin-only.ts';
import { jobParams, refuseUnknownZone, type ImportsRoutesOptions } from './imports-http.ts';

/**
 * Running a job and what it leaves: start it, cancel it, the lines it refused as CSV, and the
 * reconciliation of a meter's stored registers against its intervals.
 */
export const importRunRoutes: FastifyPluginAsyncZod<ImportsRoutesOptions> = async (app, { jobs }) => {
  const tags = ['admin'];
  app.post(
    '/api/admin/imports/jobs/:id/start',
    {
      schema: {
        tags,
        summary:
          'Run the import in the background (202); follow it with GET …/jobs/{id}. The mapping may be saved by name.',
        params: jobParams,
        body: startImportBodySchema,
        response: { 202: importJobSchema, ...adminErrors },
      },
    },
    async (request, reply) => {
      refuseUnknownZone(request.body.timeZone);
      return reply.status(202).send(await jobs.startJob(request.params.id, request.body));
    },
  );
  app.post(
    '/api/admin/imports/jobs/:id/cancel',
    {
      schema: {
        tags,
        summary:
          'Cancel an import: at once if it has not started, at its next batch if it runs; nothing of it is stored.',
        params: jobParams,
        response: { 200: importJobSchema, ...adminErrors },
      },
    },
    async (request) => jobs.cancel(actorOf(request), request.params.id),
  );
  app.get(
    '/api/admin/imports/jobs/:id/rejected.csv',
    {
      schema: {
        tags,
        summary: "The lines a finished import refused, and why, as CSV (the report's first 1,000).",
        params: jobParams,
        produces: ['text/csv'],
        response: { 200: z.string(), ...adminErrors },
      },
    },
    async (request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="import-${request.params.id}-rejected.csv"`)
        .send(await jobs.rejectedCsv(request.params.id)),
  );
  app.get(
    '/api/admin/imports/reconciliation',
    {
      schema: {
        tags,
        summary:
          "A meter's stored registers against its stored interval records, per channel, over whole local days (From, To: both included): per period between consecutive register reads (a day for daily reads) and over the range, the register's advance, the summed intervals and the unexplained rest.",
        querystring: reconciliationQuerySchema,
        response: { 200: storedReconciliationSchema, 413: errorBodySchema, ...adminErrors },
      },
    },
    async (request) => jobs.reconciliation(request.query),
  );
};
