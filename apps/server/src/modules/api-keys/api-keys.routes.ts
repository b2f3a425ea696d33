import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminApiKeySchema,
  apiKeyListSchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
  idParamsSchema,
} from '@cm/contracts/admin.ts';
import { actorOf, adminOnly, adminErrors as errors } from '../../plugins/admin-only.ts';
import type { AdminApiKeysService } from './api-keys-admin.service.ts';

const tags = ['admin'];

/** API keys: administrators only (issue 6). */
export const apiKeysRoutes: FastifyPluginAsyncZod<{ apiKeys: AdminApiKeysService }> = async (
  app,
  { apiKeys },
) => {
  adminOnly(app);
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
};
