// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubServer } from '@/test-support/fetch-stub.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { NewMetersPanel } from './new-meters.tsx';

const location = {
  id: 7,
  publicName: 'Brisbane depot',
  address: '1 Queen St',
  timeZone: 'Australia/Brisbane',
  billingDay: null,
  archivedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  meterCount: 0,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('meters not on the site, from the preview', () => {
  it('creates the meters given a location in one confirmed step, then the preview follows', async () => {
    const server = stubServer({
      'GET /api/admin/locations': { body: { items: [location], total: 1, page: 1, pageSize: 100 } },
      'POST /api/admin/imports/jobs/job-1/meters': {
        status: 201,
        body: {
          items: [
            {
              meterNumber: 'VABC000003',
              locationId: 7,
              meterInd: 1,
              installedAt: '2024-01-01T14:00:00.000Z',
              intervalMinutes: 5,
              registerDigits: 6,
              channels: ['import', 'export'],
            },
          ],
        },
      },
    });
    vi.stubGlobal('fetch', server.fetch);
    const onCreated = vi.fn();
    await renderPage(
      <NewMetersPanel
        jobId="job-1"
        source={{ nmis: { QB00000002: 'AU-QB-2' } }}
        meterNumbers={['VABC000003', 'NCDE001111']}
        onCreated={onCreated}
      />,
    );
    const create = screen.getByRole('button', { name: 'Create 0 meters…' });
    expect(create.hasAttribute('disabled')).toBe(true);
    await waitFor(() => expect(server.sentTo('GET /api/admin/locations')).toHaveLength(1));
    const select = screen.getByRole('combobox', { name: 'Location for VABC000003' });
    fireEvent.focus(select);
    fireEvent.click(select);
    // The first select's options (each select keeps its own, hidden until opened).
    const [option] = await screen.findAllByRole('option', { name: 'Brisbane depot', hidden: true });
    if (!option) throw new Error('no option');
    fireEvent.click(option);
    fireEvent.click(screen.getByRole('button', { name: 'Create 1 meter…' }));
    // Nothing is sent before the confirmation.
    expect(server.sentTo('POST /api/admin/imports/jobs/job-1/meters')).toHaveLength(0);
    screen.getByText(/Create 1 meter now, at the location chosen\?/);
    fireEvent.click(screen.getByRole('button', { name: 'Create the meter' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledTimes(1));
    expect(server.sentTo('POST /api/admin/imports/jobs/job-1/meters')[0]?.body).toEqual({
      nmis: { QB00000002: 'AU-QB-2' },
      meters: [{ meterNumber: 'VABC000003', locationId: 7 }],
    });
  });
});
