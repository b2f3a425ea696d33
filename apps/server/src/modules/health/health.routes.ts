import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { ReplicaSet } from '../../db/replicas.ts';
import type { LoadGauge } from '../../plugins/load-shedding.ts';
import { freeBytes } from './disk-space.ts';

/** A queued e-mail or webhook delivery this late and still not tried means its sender is stuck. */
export const OVERDUE_MS = 15 * 60_000;

/** What waits to be done: e-mails and webhook deliveries overdue by `lateMs`, import jobs. */
export interface Backlog {
  emails: number;
  webhooks: number;
  imports: { running: number; waiting: number };
}

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
  /** `low`: less than CM_DISK_LOW_BYTES free where the data folder is (database, upload spool). */
  disk: z.enum(['ok', 'low', 'unknown']),
  /** E-mails and webhook deliveries overdue by 15 minutes (their sender is stuck), and import jobs. */
  queues: z
    .object({
      emailsOverdue: z.number().int(),
      webhooksOverdue: z.number().int(),
      importsRunning: z.number().int(),
      importsWaiting: z.number().int(),
    })
    .nullable(),
  /** Why the status is "degraded", in words: "database restarting", "disk space low", … */
  problems: z.array(z.string()),
  uptimeSeconds: z.number(),
});

/**
 * Liveness and database readiness; the only /api route that needs no API key, so it names no
 * address, role or driver message (why a replica is down goes to the log). A replica down or
 * lagging does not make the service degraded: its reads go to the primary. Shedding requests does,
 * though the process is alive: 200 "degraded"; so do low disk space and a stuck e-mail or webhook
 * sender (security probe 2026-11-27, finding 6: writes failed on a full disk while health said "ok").
 */
export const healthRoutes: FastifyPluginAsyncZod<{
  db: Db;
  replicas: ReplicaSet;
  load: LoadGauge;
  disk: { dir: string; lowBytes: number };
  backlog: (lateMs: number) => Promise<Backlog>;
}> = async (app, { db, replicas, load, disk, backlog }) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary:
          'Liveness, database readiness, each read replica’s state and lag, disk space and queue backlogs.',
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
      const free = await freeBytes(disk.dir);
      const diskState = free === null ? 'unknown' : free < disk.lowBytes ? 'low' : 'ok';
      const queues = ready ? await backlog(OVERDUE_MS).catch(() => null) : null;
      const problems = [
        ...(ready ? [] : [restarting ? 'database restarting' : 'database not ready']),
        ...(shedding ? ['shedding load'] : []),
        ...(diskState === 'low' ? ['disk space low'] : []),
        ...(queues && queues.emails > 0 ? ['e-mails overdue'] : []),
        ...(queues && queues.webhooks > 0 ? ['webhook deliveries overdue'] : []),
      ];
      return reply.status(ready ? 200 : 503).send({
        status: problems.length === 0 ? 'ok' : 'degraded',
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
        disk: diskState,
        queues: queues && {
          emailsOverdue: queues.emails,
          webhooksOverdue: queues.webhooks,
          importsRunning: queues.imports.running,
          importsWaiting: queues.imports.waiting,
        },
        problems,
        uptimeSeconds: Math.round(process.uptime()),
      });
    },
  );
};
