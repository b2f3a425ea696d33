// @vitest-environment jsdom
import type { AdminLocation } from '@cm/contracts/admin.ts';
import { tariffDemandSchema, type Tariff, type TariffBody } from '@cm/contracts/tariffs.ts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubServer } from '@/test-support/fetch-stub.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { LocationTariffs } from './location-tariffs.tsx';

const location: AdminLocation = {
  id: 7,
  publicName: 'Depot North',
  address: '1 Quay Road',
  timeZone: 'Europe/Lisbon',
  billingDay: null,
  archivedAt: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  meterCount: 3,
};

const version = (id: number, fields: Partial<Tariff>): Tariff => ({
  id,
  locationId: 7,
  effectiveFrom: '2025-01-01',
  currency: 'EUR',
  energyPrice: '0.2',
  windows: [],
  holidays: [],
  standingChargePerDay: '0.45',
  taxPercent: '23',
  feedInPrice: null,
  importSeries: null,
  exportSeries: null,
  demand: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  ...fields,
});

/** A flat tariff that priced 2025, this year's with two windows, next year's scheduled. */
const versions: Tariff[] = [
  version(1, {}),
  version(2, {
    effectiveFrom: '2026-01-01',
    energyPrice: '0.2456',
    feedInPrice: '0.08',
    windows: [
      { label: 'Peak', price: '0.31', days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '17:00', to: '20:00' },
      {
        label: 'Night',
        price: '0.12',
        days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        from: '22:00',
        to: '06:00',
      },
    ],
  }),
  version(3, { effectiveFrom: '2027-01-01', energyPrice: '0.25', taxPercent: '5.5' }),
];

function tariffsServer(items: Tariff[]) {
  const server = stubServer({
    'GET /api/admin/locations/7/tariffs': () => ({ body: { locationId: 7, today: '2026-11-27', items } }),
    'GET /api/admin/price-series': { body: [] },
    'POST /api/admin/locations/7/tariffs': (request) => {
      const body = request.body as TariffBody;
      const added = version(9, {
        ...body,
        windows: body.windows ?? [],
        holidays: body.holidays ?? [],
        importSeries: null,
        exportSeries: null,
        demand: body.demand ? tariffDemandSchema.parse(body.demand) : null,
      });
      items = [...items, added];
      return { status: 201, body: added };
    },
  });
  vi.stubGlobal('fetch', server.fetch);
  return server;
}

const field = (name: RegExp) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const type = (name: RegExp, value: string) => fireEvent.change(field(name), { target: { value } });
/** The version's first day: a date input, which has no textbox role. */
const effectiveFrom = () =>
  screen.getByLabelText(/^From/, { selector: 'input[type="date"]' }) as HTMLInputElement;

describe('a location’s tariffs', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists each version oldest first with its status, prices, windows, tax and feed-in', async () => {
    tariffsServer(versions);
    await renderPage(<LocationTariffs location={location} />);
    const table = await screen.findByRole('table', { name: 'Tariff versions' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    const [, past, current, scheduled] = within(table).getAllByRole('row');
    const cells = (row: HTMLElement | undefined) =>
      within(row ?? document.body)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    // Figures as English writes them: 0.2456 EUR, 23 %, a dash for no feed-in price.
    expect(cells(past)).toEqual(['2025-01-01past', '0.2 EUR', '0.45 EUR', '23%', '—', '']);
    expect(cells(current)).toEqual([
      '2026-01-01in force',
      // Each window with its days, hours and price (issue 34.13), not "2 time-of-use windows".
      '0.2456 EURPeak · Mon–Fri · 17:00–20:00 · 0.31 EURNight · Every day · 22:00–06:00 · 0.12 EUR',
      '0.45 EUR',
      '23%',
      '0.08 EUR',
      '',
    ]);
    expect(cells(scheduled)).toEqual([
      '2027-01-01scheduled',
      '0.25 EUR',
      '0.45 EUR',
      '5.5%',
      '—',
      'Withdraw',
    ]);
    // Only a scheduled version can be withdrawn: the past stays priced.
    expect(within(table).getAllByRole('button', { name: 'Withdraw' })).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Add a version' })).toBeTruthy();
  });

  it('a new version starts from the latest one; wrong figures are named next to their fields and nothing is sent', async () => {
    const server = tariffsServer(versions);
    await renderPage(<LocationTariffs location={location} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add a version' }));
    expect(field(/^Energy price/).value).toBe('0.25');
    expect(field(/^Currency/).disabled).toBe(true);

    type(/^Energy price/, '0.1234567');
    type(/^Tax/, 'twenty');
    type(/^Feed-in price/, 'free');
    fireEvent.change(effectiveFrom(), { target: { value: '2026-02-30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add version' }));

    expect(await screen.findByText('A price such as 0.2456: at most 6 decimals, below 1000.')).toBeTruthy();
    expect(screen.getByText('A percentage such as 20 or 5.5.')).toBeTruthy();
    expect(screen.getByText('A price such as 0.08, or empty.')).toBeTruthy();
    expect(screen.getByText('A date such as 2026-01-01.')).toBeTruthy();
    expect(field(/^Energy price/).getAttribute('aria-invalid')).toBe('true');
    expect(server.sentTo('POST /api/admin/locations/7/tariffs')).toEqual([]);
  });

  it('a window without a price, and two windows pricing the same minute, are refused', async () => {
    const server = tariffsServer(versions.slice(0, 1));
    await renderPage(<LocationTariffs location={location} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add a version' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add a window' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add version' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      "Each window needs a price, at least one day, and times such as 07:30 (24:00 for midnight at the day's end).",
    );

    // Two weekday windows, 17:00–20:00 (the new window's hours) and 18:00–19:00: they overlap.
    fireEvent.click(screen.getByRole('button', { name: 'Add a window' }));
    const prices = screen.getAllByRole('textbox', { name: /^Price/ });
    prices.forEach((price) => fireEvent.change(price, { target: { value: '0.3' } }));
    const froms = screen.getAllByRole('textbox', { name: 'From' });
    const tos = screen.getAllByRole('textbox', { name: 'To' });
    fireEvent.change(froms[1] as HTMLElement, { target: { value: '18:00' } });
    fireEvent.change(tos[1] as HTMLElement, { target: { value: '19:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add version' }));
    expect(
      await screen.findByText(
        'Two windows price the same minute on the same days: each minute has one price.',
      ),
    ).toBeTruthy();
    expect(server.sentTo('POST /api/admin/locations/7/tariffs')).toEqual([]);
  });

  it('a location’s first tariff: the currency is checked, then the version is sent and listed', async () => {
    const server = tariffsServer([]);
    await renderPage(<LocationTariffs location={location} />);
    expect(await screen.findByText('No tariff yet: clients see energy without cost.')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Set a tariff' }));
    // The first version starts on 1 January of the location's year, so stored history is priced.
    expect(effectiveFrom().value).toBe('2026-01-01');
    type(/^Currency/, 'E1');
    type(/^Energy price/, '0,2456');
    fireEvent.click(screen.getByRole('button', { name: 'Add version' }));
    expect(await screen.findByText('Three capital letters, such as EUR.')).toBeTruthy();
    expect(server.sentTo('POST /api/admin/locations/7/tariffs')).toEqual([]);

    type(/^Currency/, 'gbp');
    fireEvent.click(screen.getByRole('button', { name: 'Add version' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Add version' })).toBeNull());
    expect(server.sentTo('POST /api/admin/locations/7/tariffs').map((request) => request.body)).toEqual([
      {
        effectiveFrom: '2026-01-01',
        currency: 'GBP',
        energyPrice: '0.2456',
        standingChargePerDay: '0',
        taxPercent: '0',
        feedInPrice: null,
        importSeries: null,
        exportSeries: null,
        windows: [],
        holidays: [],
        demand: null,
      },
    ]);
    const table = screen.getByRole('table', { name: 'Tariff versions' });
    expect(await within(table).findByRole('cell', { name: '0.2456 GBP' })).toBeTruthy();
  });
});
