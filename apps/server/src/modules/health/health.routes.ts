import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { ReplicaSet } from '../../db/replicas.ts';

const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    kind: z.enum(['embedded', 'postgres']),
    ready: z.boolean(),
    /** Why the database is not ready, when CM knows: "database restarting" (the embedded server died and is being started again). */
    problem: z.string().optional(),
    /** Reads the primary answered for the check page (with replicas: those no replica could take). */
    primaryReads: z.number().int().optional(),
    /** Streaming replicas (DATABASE_REPLICA_URLS): whether each is read from, and how far it lags. */
    replicas: z
      .array(
        z.object({
          name: z.string(),
          state: z.enum(['ok', 'lagging', 'down']),
          lagMs: z.number().nullable(),
          reads: z.number().int(),
          problem: z.string().optional(),
        }),
      )
      .optional(),
  }),
  uptimeSeconds: z.number(),
});

/**
 * Liveness and database readiness; the only /api route that needs no API key. A replica down or
 * lagging does not make the service degraded: its reads go to the primary.
 */
export const healthRoutes: FastifyPluginAsyncZod<{ db: Db; replicas: ReplicaSet }> = async (
  app,
  { db, replicas },
) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness, database readiness, and each read replica’s state and lag.',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      const ready = await db.query('SELECT 1').then(
        () => true,
        () => false,
      );
      const restarting = !ready && db.serverState?.() === 'restarting';
      if (restarting) void reply.header('Retry-After', '5');
      return reply.status(ready ? 200 : 503).send({
        status: ready ? 'ok' : 'degraded',
        database: {
          kind: db.kind,
          ready,
          ...(restarting ? { problem: 'database restarting' } : {}),
          ...(replicas.size > 0 ? replicas.status() : {}),
        },
        uptimeSeconds: Math.round(process.uptime()),
      });
    },
  );
};
