import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@cm/contracts/admin.ts';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import {
  locationTariffsSchema,
  tariffBodySchema,
  tariffParamsSchema,
  tariffSchema,
  tariffsQuerySchema,
} from '@cm/contracts/tariffs.ts';
import { z } from 'zod';
import { actorOf, adminOnly, adminErrors as errors } from '../../plugins/admin-only.ts';
import { callerOf } from '../../plugins/authentication.ts';
import type { TariffsService } from './tariffs.service.ts';

const tags = ['tariffs'];

/** Administrators add and schedule a location's tariff versions (issue 18). */
export const adminTariffsRoutes: FastifyPluginAsyncZod<{ tariffs: TariffsService }> = async (
  app,
  { tariffs },
) => {
  adminOnly(app);
  app.get(
    '/api/admin/locations/:id/tariffs',
    {
      schema: {
        tags,
        summary: "A location's tariff versions, oldest first.",
        params: idParamsSchema,
        response: { 200: locationTariffsSchema, ...errors },
      },
    },
    async (request) => tariffs.list(request.params.id),
  );
  app.post(
    '/api/admin/locations/:id/tariffs',
    {
      schema: {
        tags,
        summary:
          'Add a tariff version from a local date. The first may start on any date; later ones start today or later (the past stays priced as it was).',
        params: idParamsSchema,
        body: tariffBodySchema,
        response: { 201: tariffSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await tariffs.create(actorOf(request), request.params.id, request.body)),
  );
  app.delete(
    '/api/admin/locations/:id/tariffs/:tariffId',
    {
      schema: {
        tags,
        summary: 'Remove a scheduled tariff version (not in force yet).',
        params: tariffParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await tariffs.remove(actorOf(request), request.params.id, request.params.tariffId);
      return reply.status(204).send(null);
    },
  );
};

/** A location's tariffs for whoever may see the location (a client: only its own locations). */
export const tariffsRoutes: FastifyPluginAsyncZod<{ tariffs: TariffsService }> = async (app, { tariffs }) => {
  app.get(
    '/api/CheckMeter/GetTariffs',
    {
      config: { replicaReads: true },
      preHandler: app.requireAbility('read', 'Location'),
      schema: {
        tags,
        summary:
          "The tariff versions of a location the caller may see, by public name (a client's own only).",
        querystring: tariffsQuerySchema,
        response: {
          200: locationTariffsSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request) => tariffs.forCaller(callerOf(request), request.query.name),
  );
};
