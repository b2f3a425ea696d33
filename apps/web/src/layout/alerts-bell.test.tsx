// @vitest-environment jsdom
import type { AlertInbox } from '@cm/contracts/alerts.ts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubServer } from '@/test-support/fetch-stub.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { AlertsBell } from './alerts-bell.tsx';

const inbox: AlertInbox = {
  unread: 1,
  items: [
    {
      id: 31,
      event: 'fired',
      createdAt: '2026-11-27T06:00:00.000Z',
      readAt: null,
      alert: {
        id: 5,
        kind: 'silent',
        threshold: 6,
        meterNumber: 'EM-10009',
        locationName: 'Riverside Campus – Library',
        timeZone: 'Europe/Berlin',
        startedAt: '2026-11-27T05:00:00.000Z',
        clearedAt: null,
        detail: {},
      },
    },
  ],
};

describe('the alerts bell', () => {
  let server: ReturnType<typeof stubServer>;
  beforeEach(() => {
    server = stubServer({
      'GET /api/alerts': { body: inbox },
      'POST /api/alerts/read': {
        body: { unread: 0, items: [{ ...inbox.items[0], readAt: '2026-11-27T07:00:00.000Z' }] },
      },
      'PUT /api/auth/language': { status: 204, body: null },
    });
    vi.stubGlobal('fetch', server.fetch);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('marks an alert read when it is opened, and names its popover (issue 34, low)', async () => {
    await renderPage(<AlertsBell />);
    fireEvent.click(await screen.findByRole('button', { name: /1 unread/ }));
    const popover = await screen.findByRole('dialog', { name: 'Alerts' });
    fireEvent.click(await within(popover).findByRole('link', { hidden: true }));
    await waitFor(() => expect(server.sentTo('POST /api/alerts/read')).toHaveLength(1));
    expect(server.sentTo('POST /api/alerts/read')[0]?.body).toEqual({ ids: [31] });
  });
});
