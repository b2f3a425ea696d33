import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import type { Actor } from '../modules/access/index.ts';
import { callerOf } from './authentication.ts';

/**
 * Makes every route of the calling (encapsulated) plugin administrator-only. It runs on
 * onRequest, before the body is read or validated, so a client gets 403 whatever it sends
 * (and cannot make the server read a large upload).
 */
export function adminOnly(app: FastifyInstance): void {
  app.addHook('onRequest', app.requireAdmin);
}

/** The signed-in administrator (and the API key the request came through), for the audit log. */
export function actorOf(request: FastifyRequest): Actor {
  return { userId: callerOf(request).user.id, apiKeyId: request.apiKey?.id ?? null };
}

/** The error answers every administration route documents. */
export const adminErrors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};
