import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminDeviceSchema,
  createDeviceBodySchema,
  createMeterBodySchema,
  deviceListQuerySchema,
  deviceListSchema,
  deviceTreeSchema,
  exchangeMeterBodySchema,
  exchangeResultSchema,
  idParamsSchema,
  meterNumberParamsSchema,
  moveMeterBodySchema,
  updateDeviceBodySchema,
  updateMeterBodySchema,
} from '@cm/contracts/admin.ts';
import { actorOf, adminOnly, adminErrors as errors } from '../../plugins/admin-only.ts';
import type { AdminDevicesService } from './devices.service.ts';
import { readerOf } from '../access-log/index.ts';

const tags = ['admin'];

/** The device network, AccessPoint → Cube → Meter, and meter exchanges: administrators only (issue 6). */
export const devicesRoutes: FastifyPluginAsyncZod<{ devices: AdminDevicesService }> = async (
  app,
  { devices },
) => {
  adminOnly(app);
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
    async (request) => devices.getMeter(request.params.meterNumber, readerOf(request.auth, request.apiKey)),
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
};
