import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { importQuerySchema, importRefusedSchema, importReportSchema } from '@cm/contracts/admin.ts';
import {
  createdImportMetersSchema,
  createImportMetersBodySchema,
  importJobListSchema,
  reconciliationQuerySchema,
  storedReconciliationSchema,
  importJobSchema,
  importMappingListSchema,
  importMappingSchema,
  importPreviewSchema,
  importSourceSchema,
  saveMappingBodySchema,
  startImportBodySchema,
} from '@cm/contracts/import-jobs.ts';
import { textParam } from '@cm/contracts/text.ts';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import { z } from 'zod';
import { isValidTimeZone } from '@cm/contracts/zoned-time.ts';
import { badRequest } from '../../http-error.ts';
import { actorOf, adminOnly } from '../../plugins/admin-only.ts';
import type { ImportJobsService } from './import-jobs.service.ts';
import { ImportRefused, type ImportsService } from './imports.service.ts';
import { DETECTION_BYTES } from './detect.ts';
import { resolveSource } from './source.ts';
import { drainUpload, uploadTooLarge } from './upload-limit.ts';
import { openUpload } from './upload-open.ts';
import { removeLeftoverUploads, spoolUpload } from './upload-spool.ts';

const CSV_TYPES = ['text/csv', 'application/csv'];
const XML_TYPES = ['application/atom+xml', 'application/xml', 'text/xml'];
const FILE_TYPES = [...CSV_TYPES, ...XML_TYPES, 'text/plain', 'application/octet-stream'];

function refuseUnknownZone(timeZone: string | undefined) {
  if (timeZone !== undefined && !isValidTimeZone(timeZone))
    throw badRequest(`timeZone: "${timeZone}" is not an IANA time zone such as Europe/Berlin.`, 'timeZone');
}

function isReadable(body: unknown): body is Readable {
  return typeof body === 'object' && body !== null && 'pipe' in body && Symbol.asyncIterator in body;
}

/**
 * `POST /api/admin/imports`: a file of readings as the raw request body, of at most `maxBytes`
 * (CM_IMPORT_MAX_BYTES), written to a file in `spoolDir` as it arrives and imported from there.
 */
export const importsRoutes: FastifyPluginAsyncZod<{
  imports: ImportsService;
  jobs: ImportJobsService;
  maxBytes: number;
  spoolDir: string;
}> = async (app, { imports, jobs, maxBytes, spoolDir }) => {
  adminOnly(app);
  await removeLeftoverUploads(spoolDir);
  await imports.cleanUp();
  // The body stays a stream: a file is spooled as it arrives. Fastify's body limit applies to
  // bodies it buffers, not to this one: maxBytes is counted here instead (limitUpload). Any
  // Content-Type but JSON is taken (or none): the content tells what the file is.
  app.addContentTypeParser(['text/plain', '*'], (_request, payload, done) => done(null, payload));

  app.post(
    '/api/admin/imports',
    {
      schema: {
        tags: ['admin'],
        summary:
          "Import a readings file sent as the body: Check Meter CSV, Green Button ESPI Atom XML, a utility's layout (preset, detected from the content) or any delimited file (format delimited with a mapping: use the jobs API). Atomic and idempotent; answers a report (422 with the report when nothing was stored; 413, storing nothing, for a file over the import size limit).",
        querystring: importQuerySchema,
        consumes: FILE_TYPES,
        body: z.unknown().describe('The readings file, as it came from the meter or the utility.'),
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
      if (request.query.timeZone !== undefined && !isValidTimeZone(request.query.timeZone)) {
        throw badRequest(
          `timeZone: "${request.query.timeZone}" is not an IANA time zone such as Europe/Berlin.`,
          'timeZone',
        );
      }
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

  // ---- Imports as jobs (issue 16) ----
  const errors = {
    400: errorBodySchema,
    401: errorBodySchema,
    403: errorBodySchema,
    404: errorBodySchema,
    409: errorBodySchema,
  };
  const tags = ['admin'];
  const jobParams = z.object({ id: z.string().uuid('id must be an import job id.') });

  app.post(
    '/api/admin/imports/jobs',
    {
      schema: {
        tags,
        summary:
          'Upload a readings file (the raw body, any Content-Type) as an import job: it is spooled and its format detected from its content; nothing is stored until the job is started.',
        querystring: z.object({ fileName: z.string().max(255).optional() }),
        consumes: FILE_TYPES,
        body: z.unknown().describe('The readings file, as it came from the meter or the utility.'),
        response: {
          201: importJobSchema,
          413: errorBodySchema,
          415: errorBodySchema,
          429: errorBodySchema,
          507: errorBodySchema,
          ...errors,
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
        response: { 200: importJobListSchema, ...errors },
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
        response: { 200: importJobSchema, ...errors },
      },
    },
    async (request) => jobs.get(request.params.id),
  );
  app.post(
    '/api/admin/imports/jobs/:id/preview',
    {
      schema: {
        tags,
        summary:
          'Read the uploaded file as it would be imported, storing nothing: format and why, first and last rows, meters and channels, interval, readings per day, clock changes, problems.',
        params: jobParams,
        body: importSourceSchema,
        response: { 200: importPreviewSchema, ...errors },
      },
    },
    async (request) => {
      refuseUnknownZone(request.body.timeZone);
      return jobs.preview(request.params.id, request.body);
    },
  );
  app.get(
    '/api/admin/imports/reconciliation',
    {
      schema: {
        tags,
        summary:
          "A meter's stored registers against its stored interval records, per channel, over whole local days (From, To: both included): per period between consecutive register reads (a day for daily reads) and over the range, the register's advance, the summed intervals and the unexplained rest.",
        querystring: reconciliationQuerySchema,
        response: { 200: storedReconciliationSchema, 413: errorBodySchema, ...errors },
      },
    },
    async (request) => jobs.reconciliation(request.query),
  );
  app.post(
    '/api/admin/imports/jobs/:id/meters',
    {
      schema: {
        tags,
        summary:
          "Create the meters the uploaded file names that are not on the site, each at a location, installed from the local midnight of its first reading, with the file's interval: all or none (201), audit-logged. Read as the preview reads it.",
        params: jobParams,
        body: createImportMetersBodySchema,
        response: { 201: createdImportMetersSchema, 422: errorBodySchema, ...errors },
      },
    },
    async (request, reply) => {
      refuseUnknownZone(request.body.timeZone);
      return reply
        .status(201)
        .send(await jobs.createMeters(actorOf(request), request.params.id, request.body));
    },
  );
  app.post(
    '/api/admin/imports/jobs/:id/start',
    {
      schema: {
        tags,
        summary:
          'Run the import in the background (202); follow it with GET …/jobs/{id}. The mapping may be saved by name.',
        params: jobParams,
        body: startImportBodySchema,
        response: { 202: importJobSchema, ...errors },
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
        response: { 200: importJobSchema, ...errors },
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
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="import-${request.params.id}-rejected.csv"`)
        .send(await jobs.rejectedCsv(request.params.id)),
  );
  app.get(
    '/api/admin/imports/mappings',
    {
      schema: {
        tags,
        summary: 'Mappings saved by name.',
        response: { 200: importMappingListSchema, ...errors },
      },
    },
    async () => jobs.mappings(),
  );
  app.put(
    '/api/admin/imports/mappings/:name',
    {
      schema: {
        tags,
        summary:
          'Save a mapping, or (NEM12/NEM13) an NMI → meter number map, under a name (replacing one of that name).',
        params: z.object({ name: textParam('name', 100) }),
        body: saveMappingBodySchema,
        response: { 200: importMappingSchema, ...errors },
      },
    },
    async (request) => jobs.saveMapping(actorOf(request), request.params.name, request.body),
  );
  app.delete(
    '/api/admin/imports/mappings/:name',
    {
      schema: {
        tags,
        summary: 'Delete a saved mapping.',
        params: z.object({ name: textParam('name', 100) }),
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await jobs.removeMapping(actorOf(request), request.params.name);
      return reply.status(204).send(null);
    },
  );
};
