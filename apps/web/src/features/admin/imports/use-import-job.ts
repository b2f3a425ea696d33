import type { StartImportBody } from '@cm/contracts/import-jobs.ts';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { toFailure } from '@/lib/http-client.ts';
import { useCancelImportMutation, useLazyGetImportJobQuery, useStartImportMutation } from './imports-api.ts';
import { importReducer, initialImportState, type PreviewMeters } from './import-machine.ts';
import { uploadImportFile } from './upload.ts';

/**
 * One import on the page, as the state machine of import-machine.ts: `pick` uploads a file (and
 * `abortUpload` stops it), `start` starts the uploaded job, `cancel` cancels it while it runs. The
 * job is asked where it is only while it runs, after the machine's wait (1 s, doubling up to 4 s
 * while nothing moves), and never again once an answer says it ended.
 */
export function useImportJob() {
  const [state, send] = useReducer(importReducer, initialImportState);
  const upload = useRef<AbortController | null>(null);
  const [askJob] = useLazyGetImportJobQuery();
  const [startImport] = useStartImportMutation();
  const [cancelImport] = useCancelImportMutation();
  // The server refused a cancel as too late (409): the job had finished and stored everything.
  const [wasCancelLate, setCancelLate] = useState(false);

  const pick = useCallback(async (file: File) => {
    upload.current?.abort();
    setCancelLate(false);
    send({ type: 'picked', file });
    const controller = new AbortController();
    upload.current = controller;
    const outcome = await uploadImportFile(
      file,
      (bytes, total) => send({ type: 'sent', file, fraction: total > 0 ? bytes / total : 0 }),
      controller.signal,
    );
    if (upload.current === controller) upload.current = null;
    if (outcome.kind === 'job') send({ type: 'uploaded', file, job: outcome.job });
    else
      send({
        type: 'uploadFailed',
        file,
        failure: outcome.failure.status === 'ABORTED' ? null : outcome.failure,
      });
  }, []);

  const abortUpload = useCallback(() => upload.current?.abort(), []);

  const start = useCallback(
    async (id: string, body: StartImportBody, meters: PreviewMeters) => {
      try {
        send({ type: 'started', job: await startImport({ id, body }).unwrap(), meters });
      } catch (error) {
        const failure = toFailure(error);
        if (failure) send({ type: 'startFailed', failure });
      }
    },
    [startImport],
  );

  const runningId = state.step === 'running' ? state.job.id : null;
  const cancel = useCallback(async () => {
    if (runningId === null) return;
    try {
      send({ type: 'polled', job: await cancelImport(runningId).unwrap() });
    } catch (error) {
      if (toFailure(error)?.status === 409) setCancelLate(true);
      // The next poll says where the job is.
    }
  }, [cancelImport, runningId]);

  // One poll per running state: each answer makes a new state, which schedules the next.
  const poll =
    state.step === 'running' ? { id: state.job.id, waitMs: state.waitMs, count: state.polls } : null;
  const pollId = poll?.id;
  const pollWait = poll?.waitMs;
  const pollCount = poll?.count;
  useEffect(() => {
    if (pollId === undefined || pollWait === undefined) return;
    let isCurrent = true;
    const timer = setTimeout(() => {
      // Asked anew each time (never answered from the cache).
      askJob(pollId, false)
        .unwrap()
        .then((job) => isCurrent && send({ type: 'polled', job }))
        .catch(() => isCurrent && send({ type: 'pollFailed' }));
    }, pollWait);
    return () => {
      isCurrent = false;
      clearTimeout(timer);
    };
  }, [askJob, pollId, pollWait, pollCount]);

  /** A cancel was asked for but the job stored everything all the same (issue 34). */
  const isCancelTooLate =
    state.step === 'done' && state.report.committed && (wasCancelLate || state.job.cancelRequested);
  return { state, pick, abortUpload, start, cancel, isCancelTooLate };
}
