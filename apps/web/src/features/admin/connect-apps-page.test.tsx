// @vitest-environment jsdom
import type { ConnectApp } from '@cm/contracts/connect.ts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubServer } from '@/test-support/fetch-stub.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { ConnectAppsPage } from './connect-apps-page.tsx';

const sizer: ConnectApp = {
  id: 1,
  name: 'SunSizer',
  contact: 'support@sunsizer.example',
  clientId: 'cmapp_0123456789abcdef01234567',
  redirectUris: ['https://sunsizer.example/callback'],
  dataKinds: ['intervals', 'details'],
  notificationUri: null,
  status: 'active',
  createdAt: '2026-11-27T08:00:00.000Z',
  suspendedAt: null,
};

/** The apps server: a list that grows, and apps that can be suspended, as the real one does. */
function appsServer() {
  let apps = [sizer];
  return stubServer({
    'GET /api/admin/connect/apps': () => ({ body: { items: apps } }),
    'POST /api/admin/connect/apps': (request) => {
      const body = request.body as Pick<ConnectApp, 'name' | 'contact' | 'redirectUris' | 'dataKinds'>;
      const app = { ...sizer, ...body, id: 2, clientId: 'cmapp_fedcba9876543210fedcba98' };
      apps = [app, ...apps];
      return { status: 201, body: { app, clientSecret: 'cmcs_ONCE-ONLY-secret' } };
    },
    'POST /api/admin/connect/apps/1/suspend': () => {
      apps = apps.map((app) =>
        app.id === 1 ? { ...app, status: 'suspended', suspendedAt: '2026-11-27T09:00:00.000Z' } : app,
      );
      return { body: apps.find((app) => app.id === 1) };
    },
  });
}

describe('Connected apps (administration)', () => {
  let server: ReturnType<typeof appsServer>;
  beforeEach(() => {
    server = appsServer();
    vi.stubGlobal('fetch', server.fetch);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('checks the redirect URIs before it sends anything', async () => {
    await renderPage(<ConnectAppsPage />);
    await screen.findByRole('row', { name: /SunSizer/ });
    fireEvent.change(screen.getByRole('textbox', { name: /^Name/ }), { target: { value: 'HeatPump' } });
    fireEvent.change(screen.getByRole('textbox', { name: /^Contact/ }), {
      target: { value: 'hp@example.test' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: /^Redirect URIs/ }), {
      target: { value: 'http://heatpump.example/cb' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(
      await screen.findByText('http://heatpump.example/cb is not an https address without a fragment.'),
    ).toBeTruthy();
    expect(server.sentTo('POST /api/admin/connect/apps')).toEqual([]);
  });

  it('registers an app, one redirect URI a line, and shows its secret once', async () => {
    await renderPage(<ConnectAppsPage />);
    await screen.findByRole('row', { name: /SunSizer/ });
    fireEvent.change(screen.getByRole('textbox', { name: /^Name/ }), { target: { value: 'HeatPump' } });
    fireEvent.change(screen.getByRole('textbox', { name: /^Contact/ }), {
      target: { value: 'hp@example.test' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: /^Redirect URIs/ }), {
      target: { value: 'https://heatpump.example/cb\n\n http://localhost:9000/cb ' },
    });
    fireEvent.click(screen.getByRole('checkbox', { name: 'cost' }));
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(server.sentTo('POST /api/admin/connect/apps')).toHaveLength(1));
    expect(server.sentTo('POST /api/admin/connect/apps')[0]?.body).toEqual({
      name: 'HeatPump',
      contact: 'hp@example.test',
      redirectUris: ['https://heatpump.example/cb', 'http://localhost:9000/cb'],
      dataKinds: ['intervals', 'cost'],
      notificationUri: null,
    });
    const dialog = await screen.findByRole('dialog', { name: 'HeatPump is registered' });
    expect(within(dialog).getByText('Client ID: cmapp_fedcba9876543210fedcba98')).toBeTruthy();
    expect(within(dialog).getByTestId('secret-value').textContent).toBe('cmcs_ONCE-ONLY-secret');
    fireEvent.click(within(dialog).getByRole('button', { name: 'I have saved it' }));
    await waitFor(() => expect(screen.queryByText('cmcs_ONCE-ONLY-secret')).toBeNull());
  });

  it('suspends an app and marks it so', async () => {
    await renderPage(<ConnectAppsPage />);
    const row = await screen.findByRole('row', { name: /SunSizer/ });
    fireEvent.click(within(row).getByRole('button', { name: 'Suspend SunSizer' }));
    await waitFor(() => expect(server.sentTo('POST /api/admin/connect/apps/1/suspend')).toHaveLength(1));
    const after = await screen.findByRole('row', { name: /Suspended/ });
    expect(within(after).getByRole('button', { name: 'Resume SunSizer' })).toBeTruthy();
  });
});
