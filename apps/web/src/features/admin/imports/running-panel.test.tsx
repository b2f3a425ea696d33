// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { uploadedJob } from '@/test-support/import-fixtures.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { RunningPanel } from './running-panel.tsx';

const running = (phase: 'reading' | 'checking' | 'storing', percent: number) => ({
  ...uploadedJob,
  status: 'running' as const,
  progress: { phase, rowsRead: 55_691, bytesRead: 1_000, percent, secondsLeft: null },
});

describe('the running import’s bar', () => {
  afterEach(cleanup);

  it('stays where the job is while it checks and stores, not at 100 % (issue 34 low)', async () => {
    // The server says 90 % while checking and 95 % while storing (reading is the first 90 %).
    await renderPage(<RunningPanel job={running('checking', 90)} onCancel={() => {}} />);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('90');
    cleanup();
    await renderPage(<RunningPanel job={running('storing', 95)} onCancel={() => {}} />);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('95');
    cleanup();
    await renderPage(<RunningPanel job={running('reading', 42.5)} onCancel={() => {}} />);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('43');
  });
});
