import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { importQuerySchema, importRefusedSchema, importReportSchema } from '@cm/contracts/admin.ts';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import { badRequest } from '../../http-error.ts';
import { actorOf } from '../../plugins/admin-only.ts';
import { DETECTION_BYTES } from './detect.ts';
import {
  FILE_TYPES,
  fileBody,
  isReadable,
  refuseUnknownZone,
  type ImportsRoutesOptions,
} from './imports-http.ts';
import { ImportRefused } from './imports.service.ts';
import { resolveSource } from './source.ts';
import { drainUpload, uploadTooLarge } from './upload-limit.ts';
import { openUpload } from './upload-open.ts';
import { spoolUpload } from './upload-spool.ts';

/**
 * `POST /api/admin/imports`: a file of readings as the raw request body, of at most `maxBytes`
 * (CM_IMPORT_MAX_BYTES), written to a file in `spoolDir` as it arrives and imported from there,
 * at once and whole.
 */
export const oneShotImportRoutes: FastifyPluginAsyncZod<ImportsRoutesOptions> = async (
  app,
  { imports, maxBytes, spoolDir },
) => {
  app.post(
    '/api/admin/imports',
    {
      schema: {
        tags: ['admin'],
        summary:
          "Import a readings file sent as the body: Check Meter CSV, Green Button ESPI Atom XML, a utility's layout (preset, detected from the content) or any delimited file (format delimited with a mapping: use the jobs API). Atomic and idempotent; answers a report (422 with the report when nothing was stored; 413, storing nothing, for a file over the import size limit).",
        querystring: importQuerySchema,
        consumes: FILE_TYPES,
        body: fileBody,
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
      if (!isReadable(request.body)) throw badRequest('Send the file as the request body.', 'format');
      refuseUnknownZone(request.query.timeZone);
      const upload = request.body;
      try {
        if (Number(request.headers['content-length']) > maxBytes) throw uploadTooLarge(maxBytes);
        const spooled = await spoolUpload(upload, spoolDir, maxBytes);
        try {
          const { file } = await openUpload(spooled, maxBytes);
          const source = resolveSource(await file.head(DETECTION_BYTES), request.query);
          return await imports.importReadings(actorOf(request), file, {
            ...request.query,
            format: source.format,
            mapping: source.mapping,
          });
        } finally {
          await spooled.remove();
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
