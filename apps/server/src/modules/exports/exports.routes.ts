import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { exportQuerySchema } from '@cm/contracts/admin.ts';
import { adminOnly } from '../admin/admin-guard.ts';
import type { ExportsService } from './exports.service.ts';

/** `GET /api/admin/exports/readings`: a meter's readings as CSV or Green Button ESPI XML, streamed. Administrators only. */
export const exportsRoutes: FastifyPluginAsyncZod<{ exports: ExportsService }> = async (app, { exports }) => {
  adminOnly(app);
  app.get(
    '/api/admin/exports/readings',
    {
      schema: {
        tags: ['admin'],
        summary:
          "A meter's readings from From to To (dates are local days of the meter's location; To inclusive) as CSV (times with the location's offset) or Green Button ESPI Atom XML.",
        querystring: exportQuerySchema,
        // No response schema: the body is a stream (text/csv or application/atom+xml), never serialized;
        // errors still answer { statusCode, error, message } through the error handler.
      },
    },
    async (request, reply) => {
      const file = await exports.exportReadings(request.query);
      return reply
        .type(file.contentType)
        .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
        .send(file.body);
    },
  );
};
