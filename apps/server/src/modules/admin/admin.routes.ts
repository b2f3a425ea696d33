import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminDeviceSchema,
  adminLocationSchema,
  adminUserSchema,
  apiKeyListSchema,
  adminApiKeySchema,
  auditListQuerySchema,
  auditListSchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
  createDeviceBodySchema,
  createLocationBodySchema,
  createMeterBodySchema,
  createUserBodySchema,
  deviceListQuerySchema,
  deviceListSchema,
  deviceTreeSchema,
  exchangeMeterBodySchema,
  exchangeResultSchema,
  idParamsSchema,
  locationListQuerySchema,
  locationListSchema,
  meterNumberParamsSchema,
  moveMeterBodySchema,
  resetPasswordBodySchema,
  resetPasswordResultSchema,
  updateDeviceBodySchema,
  updateLocationBodySchema,
  updateMeterBodySchema,
  updateUserBodySchema,
  userListQuerySchema,
  userListSchema,
} from '@cm/contracts/admin.ts';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import { z } from 'zod';
import { actorOf, adminOnly } from './admin-guard.ts';
import type { AdminApiKeysService } from './api-keys.service.ts';
import type { AuditService } from './audit.service.ts';
import type { AdminDevicesService } from './devices.service.ts';
import type { AdminLocationsService } from './locations.service.ts';
import type { AdminUsersService } from './users.service.ts';

export interface AdminServices {
  users: AdminUsersService;
  locations: AdminLocationsService;
  devices: AdminDevicesService;
  apiKeys: AdminApiKeysService;
  audit: AuditService;
}

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
const tags = ['admin'];

/** Users, locations, the device network, API keys and the audit log: administrators only (issue 6). */
export const adminRoutes: FastifyPluginAsyncZod<AdminServices> = async (app, services) => {
  adminOnly(app);
  const { users, locations, devices, apiKeys, audit } = services;

  // ---- Users ----
  app.get(
    '/api/admin/users',
    {
      schema: {
        tags,
        summary: 'Users: search in email and name, filter by role and disabled, paginated.',
        querystring: userListQuerySchema,
        response: { 200: userListSchema, ...errors },
      },
    },
    async (request) => users.list(request.query),
  );
  app.get(
    '/api/admin/users/:id',
    {
      schema: {
        tags,
        summary: 'One user.',
        params: idParamsSchema,
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => users.get(request.params.id),
  );
  app.post(
    '/api/admin/users',
    {
      schema: {
        tags,
        summary: 'Create a user (locationIds only for clients).',
        body: createUserBodySchema.strict(),
        response: { 201: adminUserSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await users.create(actorOf(request), request.body)),
  );
  app.patch(
    '/api/admin/users/:id',
    {
      schema: {
        tags,
        summary: 'Edit a user; the last enabled administrator cannot be demoted (409).',
        params: idParamsSchema,
        body: updateUserBodySchema.strict(),
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => users.update(actorOf(request), request.params.id, request.body),
  );
  app.post(
    '/api/admin/users/:id/disable',
    {
      schema: {
        tags,
        summary:
          'Disable a user and end its sessions; the last enabled administrator cannot be disabled (409).',
        params: idParamsSchema,
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => users.setDisabled(actorOf(request), request.params.id, true),
  );
  app.post(
    '/api/admin/users/:id/enable',
    {
      schema: {
        tags,
        summary: 'Enable a user.',
        params: idParamsSchema,
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => users.setDisabled(actorOf(request), request.params.id, false),
  );
  app.post(
    '/api/admin/users/:id/reset-password',
    {
      schema: {
        tags,
        summary:
          'Set a temporary password (generated when none is given) the user must change; ends its sessions.',
        params: idParamsSchema,
        body: resetPasswordBodySchema.strict().nullish(),
        response: { 200: resetPasswordResultSchema, ...errors },
      },
    },
    async (request) =>
      users.resetPassword(actorOf(request), request.params.id, request.body?.temporaryPassword),
  );

  // ---- Locations ----
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
  app.get(
    '/api/admin/locations/:id/devices/tree',
    {
      schema: {
        tags,
        summary: "A location's device network: AccessPoint → Cubes → Meters.",
        params: idParamsSchema,
        response: { 200: deviceTreeSchema, ...errors },
      },
    },
    async (request) => devices.tree(request.params.id),
  );

  // ---- Devices and meters ----
  app.get(
    '/api/admin/devices',
    {
      schema: {
        tags,
        summary:
          'The device table: filter by location, type, priority, status; search serials and meter numbers.',
        querystring: deviceListQuerySchema,
        response: { 200: deviceListSchema, ...errors },
      },
    },
    async (request) => devices.list(request.query),
  );
  app.get(
    '/api/admin/devices/:id',
    {
      schema: {
        tags,
        summary: 'One device.',
        params: idParamsSchema,
        response: { 200: adminDeviceSchema, ...errors },
      },
    },
    async (request) => devices.get(request.params.id),
  );
  app.post(
    '/api/admin/devices',
    {
      schema: {
        tags,
        summary: 'Create an AccessPoint or a Cube.',
        body: createDeviceBodySchema.strict(),
        response: { 201: adminDeviceSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await devices.create(actorOf(request), request.body)),
  );
  app.patch(
    '/api/admin/devices/:id',
    {
      schema: {
        tags,
        summary: 'Edit a device (serial, parent, priority, status).',
        params: idParamsSchema,
        body: updateDeviceBodySchema.strict(),
        response: { 200: adminDeviceSchema, ...errors },
      },
    },
    async (request) => devices.update(actorOf(request), request.params.id, request.body),
  );
  app.post(
    '/api/admin/meters',
    {
      schema: {
        tags,
        summary: 'Create a meter (meter number unique, meterInd free at the location).',
        body: createMeterBodySchema.strict(),
        response: { 201: adminDeviceSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await devices.createMeter(actorOf(request), request.body)),
  );
  app.get(
    '/api/admin/meters/:meterNumber',
    {
      schema: {
        tags,
        summary: 'One meter.',
        params: meterNumberParamsSchema,
        response: { 200: adminDeviceSchema, ...errors },
      },
    },
    async (request) => devices.getMeter(request.params.meterNumber),
  );
  app.patch(
    '/api/admin/meters/:meterNumber',
    {
      schema: {
        tags,
        summary: 'Edit a meter.',
        params: meterNumberParamsSchema,
        body: updateMeterBodySchema.strict(),
        response: { 200: adminDeviceSchema, ...errors },
      },
    },
    async (request) => devices.updateMeter(actorOf(request), request.params.meterNumber, request.body),
  );
  app.post(
    '/api/admin/meters/:meterNumber/move',
    {
      schema: {
        tags,
        summary: 'Hang a meter under another Cube of its location (or none).',
        params: meterNumberParamsSchema,
        body: moveMeterBodySchema.strict(),
        response: { 200: adminDeviceSchema, ...errors },
      },
    },
    async (request) => devices.moveMeter(actorOf(request), request.params.meterNumber, request.body.cubeId),
  );
  app.post(
    '/api/admin/meters/:meterNumber/exchange',
    {
      schema: {
        tags,
        summary:
          'Exchange a meter: close the old one with its final register, open the new one at the same location and meterInd.',
        params: meterNumberParamsSchema,
        body: exchangeMeterBodySchema.strict(),
        response: { 200: exchangeResultSchema, ...errors },
      },
    },
    async (request) => devices.exchange(actorOf(request), request.params.meterNumber, request.body),
  );

  // ---- API keys ----
  app.get(
    '/api/admin/api-keys',
    {
      schema: {
        tags,
        summary: 'API keys by prefix, with last use; never the keys themselves.',
        response: { 200: apiKeyListSchema, ...errors },
      },
    },
    async () => apiKeys.list(),
  );
  app.post(
    '/api/admin/api-keys',
    {
      schema: {
        tags,
        summary: 'Create an API key; the full key is answered once.',
        body: createApiKeyBodySchema.strict(),
        response: { 201: createdApiKeySchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await apiKeys.create(actorOf(request), request.body.name, request.body.scopes)),
  );
  app.post(
    '/api/admin/api-keys/:id/revoke',
    {
      schema: {
        tags,
        summary: "Revoke an API key; it stops working at once. The web app's own key is refused (409).",
        params: idParamsSchema,
        response: { 200: adminApiKeySchema, ...errors },
      },
    },
    async (request) => apiKeys.revoke(actorOf(request), request.params.id),
  );

  // ---- Audit log ----
  app.get(
    '/api/admin/audit',
    {
      schema: {
        tags,
        summary: 'The audit log, newest first.',
        querystring: auditListQuerySchema,
        response: { 200: auditListSchema, ...errors },
      },
    },
    async (request) => audit.list(request.query),
  );
};
