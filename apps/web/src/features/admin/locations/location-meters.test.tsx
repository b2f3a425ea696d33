// @vitest-environment jsdom
import type { AdminDevice, AdminLocation } from '@cm/contracts/admin.ts';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubServer } from '@/test-support/fetch-stub.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { LocationMeters } from './location-meters.tsx';

const location: AdminLocation = {
  id: 7,
  publicName: 'Harbour View',
  address: '1 Quay Road',
  timeZone: 'Europe/Lisbon',
  billingDay: null,
  archivedAt: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  meterCount: 2,
};

const meterDevice = (id: number, meterNumber: string, label: string): AdminDevice => ({
  id,
  type: 3,
  serial: `S-${id}`,
  parentId: null,
  parentSerial: null,
  locationId: 7,
  locationName: 'Harbour View',
  priority: 1,
  priorityLabel: 'New',
  status: 'active',
  lastSeenAt: null,
  meter: {
    meterNumber,
    label,
    mainSupply: false,
    meterInd: id,
    multiplier: 1,
    unit: 'kWh',
    registerDigits: 6,
    intervalMinutes: 15,
    installedAt: '2025-01-01T00:00:00.000Z',
    removedAt: null,
    hasRegisterReadings: true,
  },
});

describe('a location’s meters (admin drawer)', () => {
  beforeEach(() => {
    const server = stubServer({
      'GET /api/admin/locations/7/meters': {
        body: { items: [meterDevice(1, 'EM-10001', 'Apt C-101'), meterDevice(2, 'EM-10002', '')] },
      },
    });
    vi.stubGlobal('fetch', server.fetch);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('names each meter beside its number (issue 34 low)', async () => {
    await renderPage(<LocationMeters location={location} />);
    const link = await screen.findByRole('link', { name: /EM-10001/ });
    const row = link.closest('tr');
    expect(row).not.toBeNull();
    expect(within(row as HTMLElement).getByText('Apt C-101')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Name' })).toBeTruthy();
    // A meter without a name says so with a dash, not an empty cell.
    const unnamed = (await screen.findByRole('link', { name: /EM-10002/ })).closest('tr') as HTMLElement;
    expect(
      within(unnamed)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toContain('—');
  });
});
