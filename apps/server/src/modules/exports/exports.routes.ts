import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { downloadMyDataQuerySchema, exportQuerySchema } from '@cm/contracts/admin.ts';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import { z } from 'zod';
import { adminOnly } from '../../plugins/admin-only.ts';
import { callerOf } from '../../plugins/authentication.ts';
import { fileReaderOf } from '../access-log/index.ts';
import { EXPORT_CSV_HEADER, type ExportFile, type ExportsService } from './exports.service.ts';

const fileResponse = {
  description: 'The readings file, as an attachment.',
  content: {
    'text/csv': { schema: z.string().describe(`CSV: ${EXPORT_CSV_HEADER}`) },
    'application/atom+xml': { schema: z.string().describe('Green Button ESPI Atom feed') },
  },
};

/** Sends a file as it is read (never serialized against the schema), as an attachment. */
function sendFile(reply: FastifyReply, file: ExportFile) {
  return reply
    .type(file.contentType)
    .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
    .send(file.body);
}

/** `GET /api/admin/exports/readings`: a meter's stored readings, every channel and kind, as CSV or Green Button ESPI XML, streamed. Administrators only. */
export const exportsRoutes: FastifyPluginAsyncZod<{ exports: ExportsService }> = async (app, { exports }) => {
  adminOnly(app);
  app.get(
    '/api/admin/exports/readings',
    {
      schema: {
        tags: ['admin'],
        summary:
          "A meter's stored readings from From to To (dates are local days of the meter's location; To inclusive), every channel and kind: as CSV, one row per reading (meter_number, channel, kind, start, end, value_kwh, quality; times with the location's offset), or as Green Button ESPI Atom XML (per channel the registers and the energy of each interval).",
        querystring: exportQuerySchema,
        response: {
          // The file is streamed as it is read (never serialized); the schemas document its media types.
          200: fileResponse,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request, reply) =>
      sendFile(
        reply,
        await exports.exportReadings(request.query, {
          selfHref: request.url,
          reader: fileReaderOf(callerOf(request), request.apiKey),
        }),
      ),
  );
};

/**
 * `GET /api/CheckMeter/DownloadMyData`: Green Button's "Download My Data" for a client's own meter
 * (any meter for an administrator); another client's meter is answered as one that does not exist.
 */
export const downloadRoutes: FastifyPluginAsyncZod<{ exports: ExportsService }> = async (
  app,
  { exports },
) => {
  app.get(
    '/api/CheckMeter/DownloadMyData',
    {
      config: { replicaReads: true },
      preHandler: app.requireAbility('read', 'Check'),
      schema: {
        tags: ['check'],
        summary:
          "Download My Data: one of the caller's meters from From to To (local days, To inclusive) as Green Button ESPI XML — for every channel (flowDirection 1 import, 19 export) the registers and the energy of each interval, one IntervalBlock per local day, with the location's time parameters — or as CSV.",
        querystring: downloadMyDataQuerySchema,
        response: { 200: fileResponse, 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) =>
      sendFile(
        reply,
        await exports.downloadMyData(callerOf(request), request.query, {
          selfHref: request.url,
          reader: fileReaderOf(callerOf(request), request.apiKey),
        }),
      ),
  );
};
