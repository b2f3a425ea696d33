import type { ImportJob } from '@cm/contracts/import-jobs.ts';
import { describe, expect, it } from 'vitest';
import { storedReport, uploadedJob } from '@/test-support/import-fixtures.ts';
import {
  importReducer,
  initialImportState,
  JOB_POLL_MAX_MS,
  JOB_POLL_MS,
  type ImportEvent,
  type ImportState,
} from './import-machine.ts';

const uploaded = uploadedJob;
const running = (rowsRead: number): ImportJob => ({
  ...uploaded,
  status: 'running',
  progress: { phase: 'reading', rowsRead, bytesRead: rowsRead * 20, percent: rowsRead, secondsLeft: null },
});
const file = new File(['Date,kWh\n'], 'depot.csv');
const run = (...events: ImportEvent[]) => events.reduce(importReducer, initialImportState);
const toRunning: ImportEvent[] = [
  { type: 'picked', file },
  { type: 'uploaded', file, job: uploaded },
  { type: 'started', job: { ...uploaded, status: 'queued' }, meters: [] },
];
const waitOf = (state: ImportState) => (state.step === 'running' ? state.waitMs : null);

describe('the import machine', () => {
  it('goes idle → uploading → previewing → running → done, keeping the report', () => {
    expect(run().step).toBe('idle');
    expect(run({ type: 'picked', file }, { type: 'sent', file, fraction: 0.5 })).toEqual({
      step: 'uploading',
      file,
      sent: 0.5,
    });
    expect(run(...toRunning.slice(0, 2)).step).toBe('previewing');
    expect(run(...toRunning).step).toBe('running');
    const done = run(...toRunning, {
      type: 'polled',
      job: { ...running(96), status: 'done', report: storedReport },
    });
    expect(done).toMatchObject({ step: 'done', report: storedReport });
  });

  it('ends failed with the error of a job that ended without a report', () => {
    const job = { ...running(40), status: 'failed' as const, error: 'The database went away.' };
    expect(run(...toRunning, { type: 'polled', job })).toEqual({ step: 'failed', file, job });
  });

  it('waits 1 s, doubling up to 4 s while the job does not move, and 1 s again once it does', () => {
    // Queued, then running at 10 rows (moved), then 10 rows three times (not moved), then 20 rows.
    const answers = [running(10), running(10), running(10), running(10), running(20)];
    const waits = [waitOf(run(...toRunning))];
    for (let n = 1; n <= answers.length; n += 1)
      waits.push(
        waitOf(run(...toRunning, ...answers.slice(0, n).map((job) => ({ type: 'polled' as const, job })))),
      );
    expect(JOB_POLL_MS).toBe(1_000);
    expect(JOB_POLL_MAX_MS).toBe(4_000);
    expect(waits).toEqual([1_000, 1_000, 2_000, 4_000, 4_000, 1_000]);
    expect(waitOf(run(...toRunning, { type: 'pollFailed' }))).toBe(2_000);
  });

  it('takes nothing from an overtaken upload, nor a poll once the job ended', () => {
    const other = new File(['x'], 'other.csv');
    const overtaken = run(
      { type: 'picked', file },
      { type: 'picked', file: other },
      { type: 'uploaded', file, job: uploaded },
    );
    expect(overtaken).toEqual({ step: 'uploading', file: other, sent: 0 });
    const failed = run(...toRunning, { type: 'polled', job: { ...running(1), status: 'cancelled' } });
    expect(failed.step).toBe('failed');
    expect(importReducer(failed, { type: 'polled', job: running(2) })).toBe(failed);
  });

  it('comes back idle from a cancelled upload without a failure, and from a refused one with it', () => {
    expect(run({ type: 'picked', file }, { type: 'uploadFailed', file, failure: null })).toEqual({
      step: 'idle',
      file,
      failure: null,
    });
    const failure = { status: 413, message: 'Too large.', param: null };
    expect(run({ type: 'picked', file }, { type: 'uploadFailed', file, failure })).toMatchObject({ failure });
  });
});
