import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** A job that keeps tables in shape (deletes rows nobody can use, creates partitions ahead) and answers how many it changed. */
export type PurgeJob = () => Promise<number>;

/**
 * Runs the jobs once the server is ready and then every `everyMs`, so that tables of short-lived
 * rows (sessions, sign-in throttling) stay the size of their live rows and the readings tables
 * have their partitions months ahead of the data. A failing
 * run is logged and retried at the next tick; the timer never keeps the process alive.
 */
export const housekeeping = fp(
  async (app: FastifyInstance, options: { jobs: Record<string, PurgeJob>; everyMs: number }) => {
    let running: Promise<void> | undefined;
    const runAll = async () => {
      for (const [name, job] of Object.entries(options.jobs)) {
        try {
          const changed = await job();
          if (changed > 0) app.log.info({ job: name, changed }, 'housekeeping');
        } catch (error) {
          app.log.warn({ job: name, err: error }, 'housekeeping failed; retried at the next run');
        }
      }
    };
    const tick = () => {
      running ??= runAll().finally(() => {
        running = undefined;
      });
    };
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      tick();
      timer = setInterval(tick, options.everyMs);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running;
    });
  },
);
