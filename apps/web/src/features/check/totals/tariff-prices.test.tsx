// @vitest-environment jsdom
import type { Tariff } from '@cm/contracts/tariffs.ts';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubServer } from '@/test-support/fetch-stub.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { TariffPrices, versionsInRange } from './tariff-prices.tsx';

const version = (id: number, fields: Partial<Tariff>): Tariff => ({
  id,
  locationId: 1,
  effectiveFrom: '2026-01-01',
  currency: 'EUR',
  energyPrice: '0.1966',
  windows: [],
  holidays: [],
  standingChargePerDay: '0.3295',
  taxPercent: '23',
  feedInPrice: '0.05',
  importSeries: null,
  exportSeries: null,
  demand: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});

/** The demo's Harbour View: a flat price until 26 July, then a night window (Vazio 22:00–08:00). */
const items = [
  version(1, {}),
  version(2, {
    effectiveFrom: '2026-07-27',
    energyPrice: '0.2047',
    windows: [
      {
        label: 'Vazio',
        price: '0.1126',
        days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        from: '22:00',
        to: '08:00',
      },
    ],
  }),
  version(3, { effectiveFrom: '2027-01-01', energyPrice: '0.25' }),
];

describe('the prices on a client’s bill (issue 34.13)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('takes the versions that priced the range, each over its own days', () => {
    expect(
      versionsInRange(items, { from: '2026-07-20', to: '2026-08-02' }).map((v) => [
        v.tariff.id,
        v.from,
        v.to,
      ]),
    ).toEqual([
      [1, '2026-07-20', '2026-07-26'],
      [2, '2026-07-27', '2026-08-02'],
    ]);
    expect(versionsInRange(items, { from: '2025-01-01', to: '2025-12-31' })).toEqual([]);
  });

  it('shows a client the energy price, the windows with their hours and prices, and the charges', async () => {
    const server = stubServer({
      'GET /api/CheckMeter/GetTariffs': { body: { locationId: 1, today: '2026-11-27', items } },
    });
    vi.stubGlobal('fetch', server.fetch);
    await renderPage(
      <TariffPrices locationName="Harbour View / Block C" range={{ from: '2026-11-01', to: '2026-11-27' }} />,
    );
    const panel = await screen.findByTestId('tariff-prices');
    expect(within(panel).getAllByTestId('tariff-version')).toHaveLength(1);
    expect(panel.textContent).toContain('Energy: 0.2047 EUR per kWh, outside these hours');
    expect(within(panel).getByText('Vazio · Every day · 22:00–08:00 · 0.1126 EUR')).toBeTruthy();
    expect(panel.textContent).toContain(
      'standing charge 0.3295 EUR a day · tax 23% · export paid 0.05 EUR per kWh',
    );
    expect(server.sent.map((request) => request.path)).toContain(
      '/api/CheckMeter/GetTariffs?name=Harbour+View+%2F+Block+C',
    );
  });

  it('says a dynamic tariff takes each interval’s market price, with its margin and tax, not the base price', async () => {
    const dynamic = version(4, {
      energyPrice: '0.30',
      importSeries: { seriesId: 7, margin: '0.12', taxPercent: '19' },
    });
    const server = stubServer({
      'GET /api/CheckMeter/GetTariffs': { body: { locationId: 1, today: '2026-11-27', items: [dynamic] } },
    });
    vi.stubGlobal('fetch', server.fetch);
    await renderPage(
      <TariffPrices locationName="Marina Quay / Pier 4" range={{ from: '2026-11-01', to: '2026-11-27' }} />,
    );
    const panel = await screen.findByTestId('tariff-prices');
    expect(panel.textContent).toContain(
      "Energy: each interval's market price, plus 0.12 EUR per kWh, plus 19%",
    );
    expect(panel.textContent).not.toContain('0.30');
  });

  it('says export is paid each interval’s market price when the version pays it from a series', async () => {
    const dynamicExport = version(5, { exportSeries: { seriesId: 9, margin: '-0.01', taxPercent: '0' } });
    const server = stubServer({
      'GET /api/CheckMeter/GetTariffs': {
        body: { locationId: 1, today: '2026-11-27', items: [dynamicExport] },
      },
    });
    vi.stubGlobal('fetch', server.fetch);
    await renderPage(
      <TariffPrices locationName="Marina Quay / Pier 4" range={{ from: '2026-11-01', to: '2026-11-27' }} />,
    );
    const panel = await screen.findByTestId('tariff-prices');
    expect(panel.textContent).toContain(
      "export paid each interval's market price, plus \u22120.01 EUR per kWh, plus 0%",
    );
    expect(panel.textContent).not.toContain('export paid 0.05 EUR per kWh');
  });
});
