// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubServer } from '@/test-support/fetch-stub.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { CleanestHoursPanel } from './cleanest-hours-panel.tsx';

const HALF_HOUR = 1_800_000;
// 28 Nov 2026, 00:00 in Lisbon (UTC+0 in winter).
const MIDNIGHT = Date.UTC(2026, 10, 28);

describe('tomorrow’s cleanest hours on the check page (issue 36)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the cleanest quarter as local windows with their mean intensity', async () => {
    // Eight half hours, two of them (a quarter) the cleanest: 01:00–02:00 at 100 and 120 g/kWh.
    const server = stubServer({
      'GET /api/CheckMeter/GetCleanestHours': {
        body: {
          region: 'PT',
          date: '2026-11-28',
          intervalMinutes: 30,
          t: Array.from({ length: 8 }, (_, k) => MIDNIGHT + k * HALF_HOUR),
          intensity: [300, 280, 100, 120, 260, 250, 240, null],
          cleanest: [0, 0, 1, 1, 0, 0, 0, 0],
        },
      },
    });
    vi.stubGlobal('fetch', server.fetch);
    await renderPage(<CleanestHoursPanel locationName="Harbour View / Block C" timeZone="Europe/Lisbon" />);
    const windows = await screen.findAllByTestId('cleanest-window');
    expect(windows.map((item) => item.textContent)).toEqual(['01:00–02:00 110 g/kWh on average']);
    const panel = screen.getByTestId('cleanest-hours');
    expect(within(panel).getByRole('heading', { name: 'Cleanest hours tomorrow' })).toBeTruthy();
    expect(panel.textContent).toContain('grid region PT · forecast');
    expect(server.sent.map((request) => request.path)).toContain(
      '/api/CheckMeter/GetCleanestHours?name=Harbour+View+%2F+Block+C',
    );
  });

  it('says so when tomorrow has no forecast yet', async () => {
    const server = stubServer({
      'GET /api/CheckMeter/GetCleanestHours': {
        body: {
          region: 'PT',
          date: '2026-11-28',
          intervalMinutes: 60,
          t: [MIDNIGHT],
          intensity: [null],
          cleanest: [0],
        },
      },
    });
    vi.stubGlobal('fetch', server.fetch);
    await renderPage(<CleanestHoursPanel locationName="Harbour View / Block C" timeZone="Europe/Lisbon" />);
    expect(await screen.findByText('No forecast for tomorrow yet.')).toBeTruthy();
  });
});
