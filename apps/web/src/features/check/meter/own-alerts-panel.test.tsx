// @vitest-environment jsdom
import type { AlertRule } from '@cm/contracts/alerts.ts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubServer } from '@/test-support/fetch-stub.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { OwnAlertsPanel } from './own-alerts-panel.tsx';

const rule = (id: number, fields: Partial<AlertRule>): AlertRule => ({
  id,
  locationId: 1,
  locationName: 'Harbour View',
  meterNumber: 'EM-1',
  kind: 'billAbove',
  threshold: 80,
  createdAt: '2026-11-27T10:00:00.000Z',
  openEpisodes: 0,
  ...fields,
});

describe("a customer's own alerts on a meter (issue 34)", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists this meter’s rules in words, adds a budget and removes a rule', async () => {
    let items = [
      rule(1, {}),
      rule(2, { kind: 'dailyAbove', threshold: 30, openEpisodes: 1 }),
      rule(3, { meterNumber: 'EM-2', threshold: 5 }),
    ];
    const server = stubServer({
      'GET /api/alerts/rules': () => ({ body: { items } }),
      'POST /api/alerts/rules': (request) => {
        const created = rule(4, request.body as Partial<AlertRule>);
        items = [...items, created];
        return { status: 201, body: created };
      },
      'DELETE /api/alerts/rules/1': () => {
        items = items.filter((item) => item.id !== 1);
        return { status: 204 };
      },
    });
    vi.stubGlobal('fetch', server.fetch);
    await renderPage(<OwnAlertsPanel meterNumber="EM-1" currency="EUR" />);
    const panel = await screen.findByTestId('own-alerts');
    await waitFor(() => expect(within(panel).getAllByTestId('own-alert-row')).toHaveLength(2));
    const rows = within(panel).getAllByTestId('own-alert-row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Tell me when this bill passes €80.00',
      'Tell me when a day uses more than 30\u00a0kWhGoing on now',
    ]);

    fireEvent.change(within(panel).getByLabelText('Amount (EUR)'), { target: { value: '120' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Add alert' }));
    await waitFor(() => expect(within(panel).getAllByTestId('own-alert-row')).toHaveLength(3));
    expect(server.sentTo('POST /api/alerts/rules').map((request) => request.body)).toEqual([
      { meterNumber: 'EM-1', kind: 'billAbove', threshold: 120 },
    ]);

    fireEvent.click(
      within(panel).getByRole('button', { name: 'Remove “Tell me when this bill passes €80.00”' }),
    );
    await waitFor(() => expect(within(panel).getAllByTestId('own-alert-row')).toHaveLength(2));
    expect(server.sentTo('DELETE /api/alerts/rules/1')).toHaveLength(1);
  });

  it('offers no budget without a tariff, and says why', async () => {
    const server = stubServer({ 'GET /api/alerts/rules': { body: { items: [] } } });
    vi.stubGlobal('fetch', server.fetch);
    await renderPage(<OwnAlertsPanel meterNumber="EM-1" currency={null} />);
    const panel = await screen.findByTestId('own-alerts');
    await within(panel).findByText('No alerts of your own on this meter yet.');
    const select = within(panel).getByLabelText('Tell me when');
    expect([...select.querySelectorAll('option')].map((option) => option.value)).toEqual(['dailyAbove']);
    expect(panel.textContent).toContain('A budget needs a tariff at this location');
  });
});
