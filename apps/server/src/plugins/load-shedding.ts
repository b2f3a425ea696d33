import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../http-error.ts';
import { apiRouteOf } from './api-route.ts';

/**
 * A bound on the requests being worked on at once. Past it, a request is answered 503 at once
 * (Retry-After) instead of joining a queue in front of the database pool whose wait grows with
 * every newcomer: the queue-flood drill showed p50 latencies of 7 s for 300 concurrent heavy
 * readings requests, with the event loop (under-pressure's measure) never lagging. Health probes
 * are never shed, so that an orchestrator still sees the process alive and ready.
 */
export const loadShedding = fp(async (app: FastifyInstance, options: { maxInFlight: number }) => {
  let inFlight = 0;
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const route = apiRouteOf(request);
    if (route === undefined || route === '/api/health') return;
    if (inFlight >= options.maxInFlight) {
      throw new HttpError(
        503,
        'The server is too busy right now. Please try again in a few seconds.',
        undefined,
        {
          'Retry-After': '2',
        },
      );
    }
    inFlight += 1;
    // 'close' fires once whether the answer was sent or the client went away.
    reply.raw.once('close', () => {
      inFlight -= 1;
    });
  });
});
