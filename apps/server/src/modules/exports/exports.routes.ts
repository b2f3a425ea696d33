import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { exportQuerySchema } from '@cm/contracts/admin.ts';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import { z } from 'zod';
import { adminOnly } from '../../plugins/admin-only.ts';
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
        response: {
          // The file is streamed as it is read (never serialized); the schemas document its media types.
          200: {
            description: 'The readings file, as an attachment.',
            content: {
              'text/csv': { schema: z.string().describe('CSV: meter_number,timestamp,register_kwh,quality') },
              'application/atom+xml': { schema: z.string().describe('Green Button ESPI Atom feed') },
            },
          },
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const file = await exports.exportReadings(request.query);
      // A plain reply: the stream is written as it is read, never serialized against the schema.
      const plain: FastifyReply = reply;
      return plain
        .type(file.contentType)
        .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
        .send(file.body);
    },
  );
};
