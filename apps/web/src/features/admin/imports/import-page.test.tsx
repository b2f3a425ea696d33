// @vitest-environment jsdom
import type { ImportReport } from '@cm/contracts/admin.ts';
import type { ImportJob, ImportPreview } from '@cm/contracts/import-jobs.ts';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubServer } from '@/test-support/fetch-stub.ts';
import { csvPreview, storedReport, uploadedJob } from '@/test-support/import-fixtures.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { ImportPage } from './import-page.tsx';

const uploaded = uploadedJob;

const preview: ImportPreview = csvPreview;

const report: ImportReport = storedReport;

const source = { strict: false, corrections: false };
const queued: ImportJob = { ...uploaded, status: 'queued', source };
const running: ImportJob = {
  ...queued,
  status: 'running',
  startedAt: '2026-11-27T07:00:01.000Z',
  progress: { phase: 'reading', rowsRead: 40, bytesRead: 800, percent: 40, secondsLeft: 1 },
};
const ended = (fields: Partial<ImportJob>): ImportJob => ({
  ...running,
  finishedAt: '2026-11-27T07:00:02.000Z',
  progress: { ...running.progress, phase: 'storing', rowsRead: 96, percent: 100, secondsLeft: null },
  ...fields,
});

/** The upload goes through XMLHttpRequest (for its progress): this one answers with the uploaded job. */
class UploadRequest {
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open() {}
  setRequestHeader() {}
  abort() {}
  send() {
    setTimeout(() => {
      this.status = 201;
      this.responseText = JSON.stringify(uploaded);
      this.onload?.();
    }, 0);
  }
}

/** The server: the job is running at the first poll, has ended at the second, and stays so. */
function importServer(last: ImportJob, more: Parameters<typeof stubServer>[0] = {}) {
  const answers = [running, last];
  return stubServer({
    ...more,
    'GET /api/admin/imports/mappings': { body: { items: [] } },
    'POST /api/admin/imports/jobs/job-1/preview': { body: preview },
    'POST /api/admin/imports/jobs/job-1/start': { body: queued },
    'GET /api/admin/imports/jobs/job-1': () => ({ body: answers.shift() ?? last }),
  });
}

/** Uploads depot.csv and waits for its preview (real timers: the upload, the debounce). */
async function uploadAndPreview(server: ReturnType<typeof importServer>) {
  vi.stubGlobal('fetch', server.fetch);
  const { container } = await renderPage(<ImportPage />);
  const input = container.querySelector('input[type="file"]');
  if (!input) throw new Error('no file input');
  fireEvent.change(input, { target: { files: [new File(['Date,kWh\n'], 'depot.csv')] } });
  await screen.findByRole('heading', { name: /How to read depot\.csv/ });
  await waitFor(() => expect(server.sentTo('POST /api/admin/imports/jobs/job-1/preview')).toHaveLength(1));
  await screen.findByTestId('import-preview');
}

/**
 * The page's waits (the polls' setTimeout) on a fake clock the test moves; answers and React on
 * the real one. (Testing-library's waitFor waits on setTimeout, so `until` stands in for it.)
 */
const useFakeWaits = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
const realTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Until `check` passes (answers already sent arrive, the page renders them), 10 s at most. */
async function until(check: () => void) {
  const endMs = Date.now() + 10_000;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > endMs) throw error;
      await realTurn();
    }
  }
}

/** Lets whatever is under way arrive: a few hundred turns of the real event loop. */
async function settle() {
  for (let turn = 0; turn < 300; turn += 1) await realTurn();
}

describe('import page', () => {
  beforeEach(() => {
    vi.stubGlobal('XMLHttpRequest', UploadRequest);
  });
  afterEach(() => {
    vi.useRealTimers();
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows each state and asks the job where it is only while it runs', async () => {
    const server = importServer(ended({ status: 'done', report }));
    await uploadAndPreview(server);
    const polls = () => server.sentTo('GET /api/admin/imports/jobs/job-1').length;
    const label = () => screen.getByTestId('import-progress-label').textContent;
    useFakeWaits();
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    // Started: waiting for the import before it, not asked yet; the options are gone.
    await until(() => expect(label()).toBe('Waiting for the import before it to finish…'));
    expect(screen.queryByRole('heading', { name: /How to read/ })).toBeNull();
    await vi.advanceTimersByTimeAsync(999);
    expect(polls()).toBe(0);
    // A second after the start: asked once, running at 40 %.
    await vi.advanceTimersByTimeAsync(1);
    await until(() => expect(label()).toMatch(/^Reading the file: 40%, 40 rows/));
    expect(polls()).toBe(1);
    // It moved, so a second later again: asked, and it is done: the report, no progress.
    await vi.advanceTimersByTimeAsync(1_000);
    await until(() => screen.getByText('Report for depot.csv'));
    expect(polls()).toBe(2);
    expect(screen.queryByTestId('import-running')).toBeNull();
    // A minute later: not asked once more.
    await vi.advanceTimersByTimeAsync(60_000);
    await settle();
    expect(polls()).toBe(2);
  });

  it.each([
    ['failed', ended({ status: 'failed', error: 'The database went away.' }), 'The database went away.'],
    ['cancelled', ended({ status: 'cancelled' }), 'Nothing was stored'],
  ] as const)('shows why a job %s without a report, and stops asking', async (_status, last, reason) => {
    const server = importServer(last);
    await uploadAndPreview(server);
    useFakeWaits();
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await until(() => screen.getByTestId('import-running'));
    await vi.advanceTimersByTimeAsync(1_000);
    // Asked once: running (the answer is in before the clock moves on).
    await until(() => expect(screen.getByTestId('import-progress-label').textContent).toMatch(/^Reading/));
    await vi.advanceTimersByTimeAsync(1_000);
    await until(() => expect(screen.getByTestId('import-failed').textContent).toBe(reason));
    expect(screen.queryByTestId('import-running')).toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    await settle();
    expect(server.sentTo('GET /api/admin/imports/jobs/job-1')).toHaveLength(2);
  });

  it.each([
    [
      'refused as too late (409)',
      {
        status: 409,
        body: {
          statusCode: 409,
          error: 'Conflict',
          message: 'Too late to cancel: this import has finished, and what it stored stays.',
        },
      },
      ended({ status: 'done', report }),
    ],
    [
      'asked, then the job stored all the same',
      { body: { ...running, cancelRequested: true } },
      ended({ status: 'done', report, cancelRequested: true }),
    ],
  ] as const)('says a cancel %s came too late (issue 34 low)', async (_how, cancelAnswer, last) => {
    const server = importServer(last, { 'POST /api/admin/imports/jobs/job-1/cancel': cancelAnswer });
    await uploadAndPreview(server);
    useFakeWaits();
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await until(() => screen.getByTestId('import-running'));
    await vi.advanceTimersByTimeAsync(1_000);
    await until(() => expect(screen.getByTestId('import-progress-label').textContent).toMatch(/^Reading/));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await until(() => expect(server.sentTo('POST /api/admin/imports/jobs/job-1/cancel')).toHaveLength(1));
    await settle();
    await vi.advanceTimersByTimeAsync(4_000);
    await until(() => screen.getByText('Report for depot.csv'));
    expect(screen.getByTestId('import-cancel-late').textContent).toBe(
      'Your cancel came too late: the import had already stored its readings, and they stay.',
    );
  });

  it('keeps the options and shows the reason when the start is refused', async () => {
    const server = stubServer({
      'GET /api/admin/imports/mappings': { body: { items: [] } },
      'POST /api/admin/imports/jobs/job-1/preview': { body: preview },
      'POST /api/admin/imports/jobs/job-1/start': {
        status: 409,
        body: { statusCode: 409, error: 'Conflict', message: 'Another import of this file is running.' },
      },
    });
    vi.stubGlobal('fetch', server.fetch);
    const { container } = await renderPage(<ImportPage />);
    const input = container.querySelector('input[type="file"]');
    if (!input) throw new Error('no file input');
    fireEvent.change(input, { target: { files: [new File(['Date,kWh\n'], 'depot.csv')] } });
    await screen.findByTestId('import-preview');
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByText(/Another import of this file is running\./);
    expect(screen.getByRole('heading', { name: /How to read depot\.csv/ })).toBeTruthy();
    expect(server.sentTo('GET /api/admin/imports/jobs/job-1')).toHaveLength(0);
  });
});
