import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import { importJobListSchema, importJobSchema } from '@cm/contracts/import-jobs.ts';
import { z } from 'zod';
import { badRequest } from '../../http-error.ts';
import { actorOf, adminErrors } from '../../plugins/admin-only.ts';
import { FILE_TYPES, fileBody, isReadable, jobParams, type ImportsRoutesOptions } from './imports-http.ts';
import { drainUpload, uploadTooLarge } from './upload-limit.ts';

/** Upload a file as an import job (spooled, its format detected), and follow the jobs. */
export const importJobsRoutes: FastifyPluginAsyncZod<ImportsRoutesOptions> = async (
  app,
  { jobs, maxBytes },
) => {
  const tags = ['admin'];
  app.post(
    '/api/admin/imports/jobs',
    {
      schema: {
        tags,
        summary:
          'Upload a readings file (the raw body, any Content-Type) as an import job: it is spooled and its format detected from its content; nothing is stored until the job is started.',
        querystring: z.object({ fileName: z.string().max(255).optional() }),
        consumes: FILE_TYPES,
        body: fileBody,
        response: {
          201: importJobSchema,
          413: errorBodySchema,
          415: errorBodySchema,
          429: errorBodySchema,
          507: errorBodySchema,
          ...adminErrors,
        },
      },
    },
    async (request, reply) => {
      if (!isReadable(request.body)) throw badRequest('Send the file as the request body.', 'body');
      const upload = request.body;
      try {
        if (Number(request.headers['content-length']) > maxBytes) throw uploadTooLarge(maxBytes);
        return reply
          .status(201)
          .send(
            await jobs.upload(
              actorOf(request),
              upload,
              request.query.fileName,
              maxBytes,
              Number(request.headers['content-length']) || undefined,
            ),
          );
      } finally {
        drainUpload(upload);
      }
    },
  );
  app.get(
    '/api/admin/imports/jobs',
    {
      schema: {
        tags,
        summary: 'The latest 50 import jobs, newest first.',
        response: { 200: importJobListSchema, ...adminErrors },
      },
    },
    async () => jobs.list(),
  );
  app.get(
    '/api/admin/imports/jobs/:id',
    {
      // A finished job's readings were written in the background: who opens them next reads them.
      config: { showsWrites: true },
      schema: {
        tags,
        summary:
          'One import job: status, progress (phase, rows, %, seconds left) and, once finished, its report.',
        params: jobParams,
        response: { 200: importJobSchema, ...adminErrors },
      },
    },
    async (request) => jobs.get(request.params.id),
  );
};
