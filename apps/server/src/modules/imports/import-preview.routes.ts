import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createdImportMetersSchema,
  createImportMetersBodySchema,
  importMappingListSchema,
  importMappingSchema,
  importPreviewSchema,
  importSourceSchema,
  saveMappingBodySchema,
} from '@cm/contracts/import-jobs.ts';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import { textParam } from '@cm/contracts/text.ts';
import { z } from 'zod';
import { actorOf, adminErrors } from '../../plugins/admin-only.ts';
import { jobParams, refuseUnknownZone, type ImportsRoutesOptions } from './imports-http.ts';

/**
 * Before a job runs: its preview as the options read it, the meters it names that are not on the
 * site created from it, and the mappings (and NMI maps) saved by name.
 */
export const importPreviewRoutes: FastifyPluginAsyncZod<ImportsRoutesOptions> = async (app, { jobs }) => {
  const tags = ['admin'];
  app.post(
    '/api/admin/imports/jobs/:id/preview',
    {
      schema: {
        tags,
        summary:
          'Read the uploaded file as it would be imported, storing nothing: format and why, first and last rows, meters and channels, interval, readings per day, clock changes, problems.',
        params: jobParams,
        body: importSourceSchema,
        response: { 200: importPreviewSchema, ...adminErrors },
      },
    },
    async (request) => {
      refuseUnknownZone(request.body.timeZone);
      return jobs.preview(request.params.id, request.body);
    },
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
        response: { 201: createdImportMetersSchema, 422: errorBodySchema, ...adminErrors },
      },
    },
    async (request, reply) => {
      refuseUnknownZone(request.body.timeZone);
      return reply
        .status(201)
        .send(await jobs.createMeters(actorOf(request), request.params.id, request.body));
    },
  );
  const mappingParams = z.object({ name: textParam('name', 100) });
  app.get(
    '/api/admin/imports/mappings',
    {
      schema: {
        tags,
        summary: 'Mappings saved by name.',
        response: { 200: importMappingListSchema, ...adminErrors },
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
        params: mappingParams,
        body: saveMappingBodySchema,
        response: { 200: importMappingSchema, ...adminErrors },
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
        params: mappingParams,
        response: { 204: z.null(), ...adminErrors },
      },
    },
    async (request, reply) => {
      await jobs.removeMapping(actorOf(request), request.params.name);
      return reply.status(204).send(null);
    },
  );
};
