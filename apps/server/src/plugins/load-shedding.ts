import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../http-error.ts';
import { apiRouteOf } from './api-route.ts';

const TOO_BUSY = 'The server is too busy right now. Please try again in a few seconds.';

/** Health probes are never shed: an orchestrator must still see the process alive, with its real state. */
const isShed = (request: FastifyRequest) => {
  const route = apiRouteOf(request);
  return route !== undefined && route !== '/api/health';
};

/**
 * Two bounds that answer 503 at once (Retry-After) instead of letting every user wait:
 * - requests being worked on: past `maxInFlight`, a newcomer would join a queue in front of the
 *   database pool whose wait grows with every newcomer (the queue-flood drill showed p50 latencies
 *   of 7 s for 300 concurrent heavy readings requests, with the event loop never lagging);
 * - the event loop's delay: past `maxEventLoopDelayMs`, the process is too busy to answer in time.
 * /api/health is exempt from both and always answers its own body (it once answered 500 here: the
 * overload body did not match its schema).
 */
export const loadShedding = fp(
  async (app: FastifyInstance, options: { maxInFlight: number; maxEventLoopDelayMs: number }) => {
    await app.register(underPressure, {
      maxEventLoopDelay: options.maxEventLoopDelayMs,
      sampleInterval: Math.min(1000, options.maxEventLoopDelayMs),
      exposeStatusRoute: false,
      // Thrown, the 503 is answered by the error handler in the usual error shape.
      pressureHandler: async (request: FastifyRequest) => {
        if (isShed(request)) throw new HttpError(503, TOO_BUSY, undefined, { 'Retry-After': '5' });
      },
    });

    let inFlight = 0;
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (!isShed(request)) return;
      if (inFlight >= options.maxInFlight) {
        throw new HttpError(503, TOO_BUSY, undefined, { 'Retry-After': '2' });
      }
      inFlight += 1;
      // 'close' fires once whether the answer was sent or the client went away.
      reply.raw.once('close', () => {
        inFlight -= 1;
      });
    });
  },
);
