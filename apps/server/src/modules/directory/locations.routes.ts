import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminDeviceSchema,
  adminLocationSchema,
  createLocationBodySchema,
  idParamsSchema,
  locationListQuerySchema,
  locationListSchema,
  updateLocationBodySchema,
} from '@cm/contracts/admin.ts';
import { z } from 'zod';
import { actorOf, adminOnly, adminErrors as errors } from '../../plugins/admin-only.ts';
import type { AdminLocationsService } from './locations.service.ts';

const tags = ['admin'];

/** Locations: administrators only (issue 6). */
export const locationsRoutes: FastifyPluginAsyncZod<{ locations: AdminLocationsService }> = async (
  app,
  { locations },
) => {
  adminOnly(app);
  app.get(
    '/api/admin/locations',
    {
      schema: {
        tags,
        summary: 'Locations with their current meter counts.',
        querystring: locationListQuerySchema,
        response: { 200: locationListSchema, ...errors },
      },
    },
    async (request) => locations.list(request.query),
  );
  app.get(
    '/api/admin/locations/:id',
    {
      schema: {
        tags,
        summary: 'One location.',
        params: idParamsSchema,
        response: { 200: adminLocationSchema, ...errors },
      },
    },
    async (request) => locations.get(request.params.id),
  );
  app.post(
    '/api/admin/locations',
    {
      schema: {
        tags,
        summary: 'Create a location (public name unique ignoring case, IANA time zone).',
        body: createLocationBodySchema.strict(),
        response: { 201: adminLocationSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await locations.create(actorOf(request), request.body)),
  );
  app.patch(
    '/api/admin/locations/:id',
    {
      schema: {
        tags,
        summary: 'Edit a location.',
        params: idParamsSchema,
        body: updateLocationBodySchema.strict(),
        response: { 200: adminLocationSchema, ...errors },
      },
    },
    async (request) => locations.update(actorOf(request), request.params.id, request.body),
  );
  app.post(
    '/api/admin/locations/:id/archive',
    {
      schema: {
        tags,
        summary: 'Archive a location: clients no longer find it; its data is kept.',
        params: idParamsSchema,
        response: { 200: adminLocationSchema, ...errors },
      },
    },
    async (request) => locations.setArchived(actorOf(request), request.params.id, true),
  );
  app.post(
    '/api/admin/locations/:id/restore',
    {
      schema: {
        tags,
        summary: 'Bring an archived location back.',
        params: idParamsSchema,
        response: { 200: adminLocationSchema, ...errors },
      },
    },
    async (request) => locations.setArchived(actorOf(request), request.params.id, false),
  );
  app.get(
    '/api/admin/locations/:id/meters',
    {
      schema: {
        tags,
        summary: "A location's meters, current and removed.",
        params: idParamsSchema,
        response: { 200: z.object({ items: z.array(adminDeviceSchema) }), ...errors },
      },
    },
    async (request) => ({ items: await locations.meters(request.params.id) }),
  );
};
