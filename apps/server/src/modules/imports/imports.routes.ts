import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { importQuerySchema, importRefusedSchema, importReportSchema } from '@cm/contracts/admin.ts';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import { z } from 'zod';
import { badRequest } from '../../http-error.ts';
import { actorOf, adminOnly } from '../../plugins/admin-only.ts';
import { isValidTimeZone } from '../readings/zoned-time.ts';
import { ImportRefused, type ImportsService } from './imports.service.ts';
import { drainUpload, uploadTooLarge } from './upload-limit.ts';
import { removeLeftoverUploads, spoolUpload } from './upload-spool.ts';

const CSV_TYPES = ['text/csv', 'application/csv'];
const XML_TYPES = ['application/atom+xml', 'application/xml', 'text/xml'];

function isReadable(body: unknown): body is Readable {
  return typeof body === 'object' && body !== null && 'pipe' in body && Symbol.asyncIterator in body;
}

/**
 * `POST /api/admin/imports`: a file of readings as the raw request body, of at most `maxBytes`
 * (CM_IMPORT_MAX_BYTES), written to a file in `spoolDir` as it arrives and imported from there.
 */
export const importsRoutes: FastifyPluginAsyncZod<{
  imports: ImportsService;
  maxBytes: number;
  spoolDir: string;
}> = async (app, { imports, maxBytes, spoolDir }) => {
  adminOnly(app);
  await removeLeftoverUploads(spoolDir);
  await imports.cleanUp();
  // The body stays a stream: a file is parsed as it arrives. Fastify's body limit applies to bodies
  // it buffers, not to this one: maxBytes is counted here instead (limitUpload).
  app.addContentTypeParser([...CSV_TYPES, ...XML_TYPES], (_request, payload, done) => done(null, payload));

  app.post(
    '/api/admin/imports',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Import readings from a CSV (Content-Type: text/csv) or Green Button ESPI Atom XML (application/atom+xml) file sent as the body. Atomic and idempotent; answers a report (422 with the report when nothing was stored; 413, storing nothing, for a file over the import size limit).',
        querystring: importQuerySchema,
        consumes: [...CSV_TYPES, ...XML_TYPES],
        body: z.unknown().describe('The readings file: CSV, or Green Button ESPI Atom XML.'),
        response: {
          200: importReportSchema,
          422: importRefusedSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          413: errorBodySchema,
          415: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      const typeFormat = CSV_TYPES.includes(contentType)
        ? 'csv'
        : XML_TYPES.includes(contentType)
          ? 'espi'
          : undefined;
      const format = request.query.format ?? typeFormat;
      if (!format || !isReadable(request.body)) {
        throw badRequest(
          'Send the file as the body with Content-Type text/csv or application/atom+xml.',
          'format',
        );
      }
      if (request.query.timeZone !== undefined && !isValidTimeZone(request.query.timeZone)) {
        throw badRequest(
          `timeZone: "${request.query.timeZone}" is not an IANA time zone such as Europe/Berlin.`,
          'timeZone',
        );
      }
      const upload = request.body;
      try {
        if (Number(request.headers['content-length']) > maxBytes) throw uploadTooLarge(maxBytes);
        const file = await spoolUpload(upload, spoolDir, maxBytes);
        try {
          return await imports.importReadings(actorOf(request), file.open(), { ...request.query, format });
        } finally {
          await file.remove();
        }
      } catch (error) {
        if (!(error instanceof ImportRefused)) throw error;
        return reply.status(422).send({
          statusCode: 422,
          error: 'Unprocessable Entity',
          message: error.message,
          report: error.report,
        });
      } finally {
        drainUpload(upload);
      }
    },
  );
};
