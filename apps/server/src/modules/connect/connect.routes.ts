import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema } from '@cm/contracts/admin.ts';
import {
  connectAppListSchema,
  connectGrantListSchema,
  connectAppSchema,
  createConnectAppBodySchema,
  createdConnectAppSchema,
} from '@cm/contracts/connect.ts';
import { actorOf, adminOnly, adminErrors as errors } from '../../plugins/admin-only.ts';
import { callerOf } from '../../plugins/authentication.ts';
import type { ConnectAppsService } from './connect-apps.service.ts';
import type { ConnectGrantsService } from './connect-grants.service.ts';

const tags = ['admin'];

/** Third-party apps of Connect My Data: administrators only (issue 37). */
export const connectAppsRoutes: FastifyPluginAsyncZod<{
  apps: ConnectAppsService;
  grants: ConnectGrantsService;
}> = async (app, { apps, grants }) => {
  adminOnly(app);
  app.get(
    '/api/admin/connect/apps',
    {
      schema: {
        tags,
        summary: 'Registered third-party apps, newest first; never their client secrets.',
        response: { 200: connectAppListSchema, ...errors },
      },
    },
    async () => apps.list(),
  );
  app.post(
    '/api/admin/connect/apps',
    {
      schema: {
        tags,
        summary:
          'Register a third-party app: name, contact, redirect URIs (matched exactly), the kinds of data it may ask for, its notification URI. The client secret is answered once.',
        body: createConnectAppBodySchema.strict(),
        response: { 201: createdConnectAppSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await apps.create(actorOf(request), request.body)),
  );
  app.post(
    '/api/admin/connect/apps/:id/suspend',
    {
      schema: {
        tags,
        summary: 'Suspend an app: no customer may be asked to consent to it until it is resumed.',
        params: idParamsSchema,
        response: { 200: connectAppSchema, ...errors },
      },
    },
    async (request) => apps.suspend(actorOf(request), request.params.id),
  );
  app.post(
    '/api/admin/connect/apps/:id/resume',
    {
      schema: {
        tags,
        summary: 'Resume a suspended app.',
        params: idParamsSchema,
        response: { 200: connectAppSchema, ...errors },
      },
    },
    async (request) => apps.resume(actorOf(request), request.params.id),
  );
  app.delete(
    '/api/admin/connect/apps/:id',
    {
      schema: {
        tags,
        summary: 'Remove an app: it is no longer listed or asked for consent.',
        params: idParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await apps.remove(actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/api/admin/connect/grants',
    {
      schema: {
        tags,
        summary: "Every customer's grants to apps, newest first, those ended too (by whom).",
        response: { 200: connectGrantListSchema, ...errors },
      },
    },
    async () => grants.listAll(),
  );
  app.delete(
    '/api/admin/connect/grants/:id',
    {
      schema: {
        tags,
        summary: "Revoke a customer's grant at once: the app's next call answers 401.",
        params: idParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await grants.revoke(callerOf(request), request.params.id, true);
      return reply.status(204).send(null);
    },
  );
};
