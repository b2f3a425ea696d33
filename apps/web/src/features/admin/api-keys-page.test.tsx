// @vitest-environment jsdom
import type { AdminApiKey } from '@cm/contracts/admin.ts';
import type { Webhook } from '@cm/contracts/alerts.ts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubServer } from '@/test-support/fetch-stub.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { ApiKeysPage } from './api-keys-page.tsx';

const webKey: AdminApiKey = {
  id: 1,
  name: 'Web app',
  prefix: 'cmk_web1',
  scopes: ['web'],
  createdAt: '2026-01-05T08:00:00.000Z',
  lastUsedAt: '2026-11-27T06:00:00.000Z',
  revokedAt: null,
  isWebApp: true,
};
const billing: AdminApiKey = {
  id: 2,
  name: 'Billing export',
  prefix: 'cmk_bill',
  scopes: ['read'],
  createdAt: '2026-03-01T08:00:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
  isWebApp: false,
};

const hook: Webhook = {
  id: 4,
  url: 'https://ops.example.test/cm',
  createdAt: '2026-11-01T08:00:00.000Z',
  delivered: 3,
  pending: 0,
  failed: 0,
};

/** The API-keys server: a list that grows and whose keys can be revoked, as the real one does. */
function keysServer() {
  let keys = [webKey, billing];
  return stubServer({
    'GET /api/admin/api-keys': () => ({ body: { items: keys } }),
    'GET /api/admin/webhooks': { body: { items: [hook] } },
    'DELETE /api/admin/webhooks/4': { status: 204, body: null },
    'GET /api/admin/mail': {
      body: { configured: false, server: null, from: null, pending: 0, failed: 0, lastError: null },
    },
    'POST /api/admin/api-keys': (request) => {
      const { name, scopes } = request.body as { name: string; scopes: AdminApiKey['scopes'] };
      const apiKey = {
        ...billing,
        id: 3,
        name,
        scopes,
        prefix: 'cmk_gate',
        createdAt: '2026-11-27T07:00:00.000Z',
      };
      keys = [...keys, apiKey];
      return { status: 201, body: { key: 'cmk_gate_0123456789abcdefSECRET', apiKey } };
    },
    'POST /api/admin/api-keys/2/revoke': () => {
      keys = keys.map((key) => (key.id === 2 ? { ...key, revokedAt: '2026-11-27T07:05:00.000Z' } : key));
      return { body: keys.find((key) => key.id === 2) };
    },
  });
}

describe('API keys page', () => {
  let server: ReturnType<typeof keysServer>;
  beforeEach(() => {
    server = keysServer();
    vi.stubGlobal('fetch', server.fetch);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists the keys; the web app’s own key is marked and has no revoke button', async () => {
    await renderPage(<ApiKeysPage />);
    const webRow = await screen.findByRole('row', { name: /Web app cmk_web1/ });
    expect(within(webRow).getByText('This web app')).toBeTruthy();
    expect(within(webRow).queryByRole('button', { name: /Revoke/ })).toBeNull();
    const billingRow = screen.getByRole('row', { name: /Billing export cmk_bill/ });
    expect(within(billingRow).getByRole('button', { name: 'Revoke Billing export' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Revoke Web app' })).toBeNull();
  });

  it('tells the administrator that no mail server is set up (issue 34.14)', async () => {
    await renderPage(<ApiKeysPage />);
    const panel = await screen.findByTestId('mail-setup');
    expect(within(panel).getByText(/No mail server is set up \(CM_SMTP_URL\)/)).toBeTruthy();
    expect(within(panel).getByText('Waiting to be sent: 0 · given up on: 0')).toBeTruthy();
  });

  it('asks before it removes a webhook (issue 34, low)', async () => {
    await renderPage(<ApiKeysPage />);
    const row = await screen.findByRole('row', { name: /ops\.example\.test/ });
    fireEvent.click(within(row).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this webhook?' });
    expect(server.sentTo('DELETE /api/admin/webhooks/4')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(server.sentTo('DELETE /api/admin/webhooks/4')).toHaveLength(1));
  });

  it('asks for a name and a scope before it sends anything', async () => {
    await renderPage(<ApiKeysPage />);
    await screen.findByRole('row', { name: /Billing export/ });
    fireEvent.click(screen.getByRole('checkbox', { name: /Read/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('Give the key a name.')).toBeTruthy();
    expect(screen.getByText('Choose at least one scope.')).toBeTruthy();
    expect(server.sentTo('POST /api/admin/api-keys')).toEqual([]);
  });

  it('creates a key and shows it once: closed, it is gone and the list has the new key', async () => {
    await renderPage(<ApiKeysPage />);
    await screen.findByRole('row', { name: /Billing export/ });
    fireEvent.change(screen.getByRole('textbox', { name: /Name/ }), {
      target: { value: '  Cube gateway 3 ' },
    });
    fireEvent.click(screen.getByRole('checkbox', { name: /Device ingestion/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));

    const dialog = await screen.findByRole('dialog', { name: 'Key “Cube gateway 3” created' });
    expect(within(dialog).getByRole('status', { name: 'API key' }).textContent).toBe(
      'cmk_gate_0123456789abcdefSECRET',
    );
    expect(server.sentTo('POST /api/admin/api-keys').map((request) => request.body)).toEqual([
      { name: 'Cube gateway 3', scopes: ['read', 'ingest'] },
    ]);
    expect(await screen.findByRole('row', { name: /Cube gateway 3 cmk_gate/ })).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'I have saved it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByText('cmk_gate_0123456789abcdefSECRET')).toBeNull();
    // The name field is empty for the next key.
    expect((screen.getByRole('textbox', { name: /Name/ }) as HTMLInputElement).value).toBe('');
  });

  it('revoking asks first; Cancel sends nothing, Revoke revokes and the row says so', async () => {
    await renderPage(<ApiKeysPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke Billing export' }));
    let dialog = await screen.findByRole('dialog', { name: 'Revoke this key?' });
    expect(within(dialog).getByText(/“Billing export” \(cmk_bill…\) stops working at once/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.sentTo('POST /api/admin/api-keys/2/revoke')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Revoke Billing export' }));
    dialog = await screen.findByRole('dialog', { name: 'Revoke this key?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    const row = await screen.findByRole('row', { name: /Billing export .*Revoked/ });
    expect(within(row).queryByRole('button', { name: /Revoke/ })).toBeNull();
    expect(server.sentTo('POST /api/admin/api-keys/2/revoke')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
