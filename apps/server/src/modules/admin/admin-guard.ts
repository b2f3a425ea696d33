import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callerOf } from '../../plugins/authentication.ts';
import type { Actor } from './audit.queries.ts';

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
