import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { ReplicaSet } from '../../db/replicas.ts';
import type { LoadGauge } from '../../plugins/load-shedding.ts';

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
        }),
      )
      .optional(),
  }),
  /** `shedding`: requests were answered 503 "too busy" in the last few seconds. */
  load: z.enum(['ok', 'shedding']),
  uptimeSeconds: z.number(),
});

/**
 * Liveness and database readiness; the only /api route that needs no API key, so it names no
 * address, role or driver message (why a replica is down goes to the log). A replica down or
 * lagging does not make the service degraded: its reads go to the primary. Shedding requests does,
 * though the process is alive: 200 "degraded".
 */
export const healthRoutes: FastifyPluginAsyncZod<{ db: Db; replicas: ReplicaSet; load: LoadGauge }> = async (
  app,
  { db, replicas, load },
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
      const shedding = load.shedding();
      const replicaStatus = replicas.size > 0 ? replicas.status() : undefined;
      const restarting = !ready && db.serverState?.() === 'restarting';
      if (restarting) void reply.header('Retry-After', '5');
      return reply.status(ready ? 200 : 503).send({
        status: ready && !shedding ? 'ok' : 'degraded',
        database: {
          kind: db.kind,
          ready,
          ...(restarting ? { problem: 'database restarting' } : {}),
          ...(replicaStatus && {
            primaryReads: replicaStatus.primaryReads,
            replicas: replicaStatus.replicas.map(({ name, state, lagMs, reads }) => ({
              name,
              state,
              lagMs,
              reads,
            })),
          }),
        },
        load: shedding ? 'shedding' : 'ok',
        uptimeSeconds: Math.round(process.uptime()),
      });
    },
  );
};
