import type { ImportJob } from '@cm/contracts/import-jobs.ts';
import type { TestApp } from './test-app.ts';

/** The import job once it has stopped running (done, refused, failed, cancelled), asked every 50 ms. */
export async function finishedJob(
  t: TestApp,
  token: string,
  id: string,
  timeoutMs = 60_000,
): Promise<ImportJob> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = (await t.call('GET', `/api/admin/imports/jobs/${id}`, { token })).json<ImportJob>();
    if (!['queued', 'running'].includes(job.status)) return job;
    if (Date.now() > until) throw new Error(`job ${id} still ${job.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
