import type { ImportReport } from '@cm/contracts/admin.ts';
import type { ImportJob, ImportPreview } from '@cm/contracts/import-jobs.ts';
import type { Failure } from '@/lib/http-client.ts';

// The import page as a state machine: idle → uploading → previewing → running → done | failed.
// A new file may be picked in any state (it starts over); every other event counts only in the
// state it belongs to, so a late answer (an upload overtaken by another, a poll after the end)
// changes nothing. Pure, so it is tested without a page.

/** The first wait before asking a started job where it is, and the wait after it moved. */
export const JOB_POLL_MS = 1_000;
/** The longest wait between two polls of a job that has not moved (the backoff doubles up to it). */
export const JOB_POLL_MAX_MS = 4_000;

/** The preview's meters, kept for the report (each meter's zone, links to the known ones). */
export type PreviewMeters = ImportPreview['meters'];

export type ImportState =
  /** No file yet, or its upload failed or was cancelled (`failure` null then). */
  | { step: 'idle'; file: File | null; failure: Failure | null }
  /** `sent`: the fraction of the file sent so far. */
  | { step: 'uploading'; file: File; sent: number }
  /** The file is an uploaded job: options, preview, then start (`failure`: the start's). */
  | { step: 'previewing'; file: File; uploaded: ImportJob; failure: Failure | null }
  /** `job`: the last answer about it; `waitMs` before the next poll, `polls` so far. */
  | { step: 'running'; file: File; job: ImportJob; meters: PreviewMeters; waitMs: number; polls: number }
  /** Ended with a report (stored, refused or cancelled). */
  | { step: 'done'; file: File; job: ImportJob; report: ImportReport; meters: PreviewMeters }
  /** Ended without a report: `job.error` says why when the server knows. */
  | { step: 'failed'; file: File; job: ImportJob };

export type ImportEvent =
  | { type: 'picked'; file: File }
  /** Of the upload of `file` (one overtaken by a newer file's counts for nothing). */
  | { type: 'sent'; file: File; fraction: number }
  | { type: 'uploaded'; file: File; job: ImportJob }
  /** `failure` null: the upload was cancelled. */
  | { type: 'uploadFailed'; file: File; failure: Failure | null }
  | { type: 'started'; job: ImportJob; meters: PreviewMeters }
  | { type: 'startFailed'; failure: Failure }
  | { type: 'polled'; job: ImportJob }
  | { type: 'pollFailed' };

export const initialImportState: ImportState = { step: 'idle', file: null, failure: null };

/** A job still to finish: waiting for the one before it, or running. Any other state is final. */
export const isRunning = (job: ImportJob) => job.status === 'queued' || job.status === 'running';

/** Whether the answer shows the job moved since the one before (the wait then starts over). */
const hasMoved = (before: ImportJob, after: ImportJob) =>
  before.status !== after.status ||
  before.progress.phase !== after.progress.phase ||
  before.progress.rowsRead !== after.progress.rowsRead;

const longerWait = (waitMs: number) => Math.min(waitMs * 2, JOB_POLL_MAX_MS);

/** Where an answer that the job ended leads: its report, or its failure. */
function ending(file: File, job: ImportJob, meters: PreviewMeters): ImportState {
  if (job.report) return { step: 'done', file, job, report: job.report, meters };
  return { step: 'failed', file, job };
}

export function importReducer(state: ImportState, event: ImportEvent): ImportState {
  if (event.type === 'picked') return { step: 'uploading', file: event.file, sent: 0 };
  switch (state.step) {
    case 'uploading':
      if (
        (event.type === 'sent' || event.type === 'uploaded' || event.type === 'uploadFailed') &&
        event.file !== state.file
      )
        return state;
      if (event.type === 'sent') return { ...state, sent: event.fraction };
      if (event.type === 'uploaded')
        return { step: 'previewing', file: state.file, uploaded: event.job, failure: null };
      if (event.type === 'uploadFailed') return { step: 'idle', file: state.file, failure: event.failure };
      return state;
    case 'previewing':
      if (event.type === 'started' && event.job.id === state.uploaded.id)
        return isRunning(event.job)
          ? {
              step: 'running',
              file: state.file,
              job: event.job,
              meters: event.meters,
              waitMs: JOB_POLL_MS,
              polls: 0,
            }
          : ending(state.file, event.job, event.meters);
      if (event.type === 'startFailed') return { ...state, failure: event.failure };
      return state;
    case 'running':
      if (event.type === 'polled' && event.job.id === state.job.id) {
        if (!isRunning(event.job)) return ending(state.file, event.job, state.meters);
        const waitMs = hasMoved(state.job, event.job) ? JOB_POLL_MS : longerWait(state.waitMs);
        return { ...state, job: event.job, waitMs, polls: state.polls + 1 };
      }
      if (event.type === 'pollFailed')
        return { ...state, waitMs: longerWait(state.waitMs), polls: state.polls + 1 };
      return state;
    default:
      return state;
  }
}
