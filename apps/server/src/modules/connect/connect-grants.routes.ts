import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema } from '@cm/contracts/admin.ts';
import {
  allowConsentBodySchema,
  connectGrantListSchema,
  consentDoneSchema,
  consentRequestSchema,
} from '@cm/contracts/connect.ts';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import { callerOf } from '../../plugins/authentication.ts';
import type { ConnectGrantsService } from './connect-grants.service.ts';

const tags = ['connect'];
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
// oidc-provider's interaction ids: 21 URL-safe characters (nanoid).
const uidParamsSchema = z.object({
  uid: z.string().regex(/^[\w-]{10,64}$/, 'uid is not a request for consent.'),
});

/** The customer's side of Connect My Data: the consent page's calls and the connected apps (issue 37). */
export const connectGrantsRoutes: FastifyPluginAsyncZod<{ grants: ConnectGrantsService }> = async (
  app,
  { grants },
) => {
  app.get(
    '/api/connect/consent/:uid',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        summary:
          "What the consent page shows: the app asking, the kinds of data it asks for, the signed-in customer's meters to pick from.",
        params: uidParamsSchema,
        response: { 200: consentRequestSchema, ...errors },
      },
    },
    async (request) => grants.consentRequest(callerOf(request), request.params.uid),
  );
  app.post(
    '/api/connect/consent/:uid/allow',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        summary:
          'Allow the app to read the kinds of data it asked for, of the meters picked, from a date, for up to 36 months. Answers where the browser goes next (back to the app).',
        params: uidParamsSchema,
        body: allowConsentBodySchema.strict(),
        response: { 200: consentDoneSchema, ...errors },
      },
    },
    async (request) => grants.allow(callerOf(request), request.params.uid, request.body),
  );
  app.post(
    '/api/connect/consent/:uid/refuse',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        summary: 'Refuse: the app is told access_denied. Answers where the browser goes next.',
        params: uidParamsSchema,
        response: { 200: consentDoneSchema, ...errors },
      },
    },
    async (request) => grants.refuse(request.params.uid),
  );
  app.get(
    '/api/connect/grants',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        summary: "The caller's connected apps: every grant given, newest first, those ended too.",
        response: { 200: connectGrantListSchema, ...errors },
      },
    },
    async (request) => grants.listOwn(callerOf(request)),
  );
  app.delete(
    '/api/connect/grants/:id',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        summary: "Revoke one of the caller's grants at once: the app's next call answers 401.",
        params: idParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await grants.revoke(callerOf(request), request.params.id, false);
      return reply.status(204).send(null);
    },
  );
};
