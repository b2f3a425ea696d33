import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';

const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ kind: z.enum(['embedded', 'postgres']), ready: z.boolean() }),
  uptimeSeconds: z.number(),
});

/** Liveness and database readiness; the only /api route that needs no API key. */
export const healthRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and database readiness.',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      const ready = await db.query('SELECT 1').then(
        () => true,
        () => false,
      );
      return reply.status(ready ? 200 : 503).send({
        status: ready ? 'ok' : 'degraded',
        database: { kind: db.kind, ready },
        uptimeSeconds: Math.round(process.uptime()),
      });
    },
  );
};
