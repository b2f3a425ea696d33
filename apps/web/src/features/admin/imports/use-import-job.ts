import { skipToken } from '@reduxjs/toolkit/query';
import type { ImportJob } from '@cm/contracts/import-jobs.ts';
import { importsApi, useGetImportJobQuery } from './imports-api.ts';

/** How often a queued or running job is asked where it is. */
export const JOB_POLL_MS = 500;

/** A job still to finish: waiting for the one before it, or running. Any other state is final. */
export const isRunning = (job: ImportJob) => job.status === 'queued' || job.status === 'running';

/**
 * The import job `id` names (none: no job), asked for every JOB_POLL_MS while it is queued or
 * running and no more once it has ended (done, refused, failed or cancelled): its last answer
 * stays. The cached answer decides, so polling stops with the answer that says the job ended.
 */
export function useImportJob(id: string | null) {
  const arg = id ?? skipToken;
  const known = importsApi.endpoints.getImportJob.useQueryState(arg).data;
  const hasEnded = known !== undefined && !isRunning(known);
  return useGetImportJobQuery(arg, { pollingInterval: hasEnded ? 0 : JOB_POLL_MS });
}
