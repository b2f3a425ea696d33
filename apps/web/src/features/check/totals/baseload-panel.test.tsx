// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { baseloadAnswer } from '@/test-support/check-fixtures.ts';
import { stubServer } from '@/test-support/fetch-stub.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { BaseloadPanel } from './baseload-panel.tsx';

describe('the baseload panel (issue 34)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('says the always-on power and the night share, each against before', async () => {
    const server = stubServer({ 'GET /api/CheckMeter/GetBaseload': { body: baseloadAnswer } });
    vi.stubGlobal('fetch', server.fetch);
    await renderPage(
      <BaseloadPanel meterNumber="EM-NIGHT" range={{ from: '2026-01-15', to: '2026-01-21' }} />,
    );
    await screen.findByTestId('baseload');
    // 0.25 / 0.3 − 1 = −16.7 %.
    expect(screen.getByTestId('baseload-kw').textContent).toBe(
      'Always-on power0.25\u00a0kWthe middle of each night’s lowest hour, 14 nights of the last 14 · the 14 nights before: 0.3\u00a0kW (\u221216.7%)',
    );
    expect(screen.getByTestId('baseload-night').textContent).toBe(
      'Used at night6.3%8.400\u00a0kWh of 134.400\u00a0kWh · the 7 days before: 9.1%',
    );
    expect(server.sent.map((request) => request.path)).toEqual([
      '/api/CheckMeter/GetBaseload?meterNumber=EM-NIGHT&From=2026-01-15&To=2026-01-21',
    ]);
  });
});
