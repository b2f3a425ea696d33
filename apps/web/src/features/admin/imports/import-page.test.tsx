// @vitest-environment jsdom
import type { ImportReport } from '@cm/contracts/admin.ts';
import type { ImportJob, ImportPreview } from '@cm/contracts/import-jobs.ts';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubServer } from '@/test-support/fetch-stub.ts';
import { csvPreview, storedReport } from '@/test-support/import-fixtures.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { ImportPage } from './import-page.tsx';
import { JOB_POLL_MS } from './use-import-job.ts';

const uploaded: ImportJob = {
  id: 'job-1',
  status: 'uploaded',
  fileName: 'depot.csv',
  bytes: 2048,
  createdAt: '2026-11-27T07:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  detection: { format: 'csv', preset: null, reason: 'Check Meter CSV header', mapping: null, needs: [] },
  source: null,
  progress: { phase: null, rowsRead: 0, bytesRead: 0, percent: 0, secondsLeft: null },
  report: null,
  error: null,
};

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
function importServer(last: ImportJob) {
  const answers = [running, last];
  return stubServer({
    'GET /api/admin/imports/mappings': { body: { items: [] } },
    'POST /api/admin/imports/jobs/job-1/preview': { body: preview },
    'POST /api/admin/imports/jobs/job-1/start': { body: queued },
    'GET /api/admin/imports/jobs/job-1': () => ({ body: answers.shift() ?? last }),
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('import page', () => {
  beforeEach(() => {
    vi.stubGlobal('XMLHttpRequest', UploadRequest);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it.each([
    ['done', ended({ status: 'done', report }), () => screen.findByText('Report for depot.csv')],
    [
      'failed',
      ended({ status: 'failed', error: 'The database went away.' }),
      () => screen.findByText('The database went away.'),
    ],
    ['cancelled', ended({ status: 'cancelled' }), () => screen.findByText('Nothing was stored')],
  ] as const)('polls the job while it runs and not once it is %s', async (_status, last, findEnd) => {
    const server = importServer(last);
    vi.stubGlobal('fetch', server.fetch);
    const { container } = await renderPage(<ImportPage />);

    const input = container.querySelector('input[type="file"]');
    if (!input) throw new Error('no file input');
    fireEvent.change(input, { target: { files: [new File(['Date,kWh\n'], 'depot.csv')] } });
    await screen.findByRole('heading', { name: /How to read depot\.csv/ });
    await waitFor(() => expect(server.sentTo('POST /api/admin/imports/jobs/job-1/preview')).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));

    await findEnd();
    const polls = () => server.sentTo('GET /api/admin/imports/jobs/job-1').length;
    // Asked while running, then until an answer said the job had ended…
    const atEnd = polls();
    expect(atEnd).toBeGreaterThanOrEqual(2);
    // …and three polling periods later, not once more.
    await sleep(JOB_POLL_MS * 3 + 100);
    expect(polls()).toBe(atEnd);
  });
});
