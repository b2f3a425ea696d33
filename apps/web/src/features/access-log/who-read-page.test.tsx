// @vitest-environment jsdom
import type { AccessLog } from '@cm/contracts/access-log.ts';
import { cleanup, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubServer } from '@/test-support/fetch-stub.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { WhoReadPage } from './who-read-page.tsx';

const log: AccessLog = {
  meterNumber: 'EM-1',
  items: [
    {
      id: 2,
      at: '2026-03-05T09:30:00.000Z',
      channel: 'api-key',
      by: 'Energy report (Anna Client)',
      data: ['registers', 'intervals'],
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-02T00:00:00.000Z',
      what: 'GetElectricMeterInformationByLocationPublicName',
    },
    {
      id: 1,
      at: '2026-03-04T09:30:00.000Z',
      channel: 'admin',
      by: 'Ada Admin',
      data: ['details'],
      from: null,
      to: null,
      what: 'GetMeterInfo',
    },
  ],
  total: 2,
  page: 1,
  pageSize: 50,
};

const page = (
  <Routes>
    <Route path="/who-read/:meterNumber" element={<WhoReadPage />} />
  </Routes>
);

describe('Who read my data page', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  describe('with reads', () => {
    beforeEach(() => {
      const server = stubServer({ 'GET /api/CheckMeter/WhoReadMyData': { body: log } });
      vi.stubGlobal('fetch', server.fetch);
    });

    it('lists each read: who, how, which data, which period', async () => {
      await renderPage(page, { at: '/who-read/EM-1' });
      const rows = await screen.findAllByTestId('access-log-row');
      expect(rows).toHaveLength(2);
      const [byKey, byAdmin] = rows.map((row) => within(row).getAllByRole('cell'));
      // A 24-hour clock, as the rest of CM writes times (issue 34 low: not "9:30 AM").
      expect(byKey?.[0]?.textContent).toMatch(/\d{2}:30/);
      expect(byKey?.[0]?.textContent).not.toMatch(/AM|PM/);
      expect(byKey?.[1]?.textContent).toBe('Energy report (Anna Client)');
      expect(byKey?.[2]?.textContent).toBe('API keyGetElectricMeterInformationByLocationPublicName');
      expect(byKey?.[3]?.textContent).toBe('register readings, interval readings');
      expect(byKey?.[4]?.textContent).toMatch(/ to /);
      expect(byAdmin?.[2]?.textContent).toBe('AdministratorGetMeterInfo');
      expect(byAdmin?.[4]?.textContent).toBe('—');
      expect(screen.getByRole('status').textContent).toBe('2 reads');
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Who read my data: EM-1');
    });
  });

  it('says so when the meter is not the caller’s', async () => {
    const server = stubServer({
      'GET /api/CheckMeter/WhoReadMyData': {
        status: 404,
        body: { statusCode: 404, error: 'Not Found', message: 'Meter not found. Check the meter number.' },
      },
    });
    vi.stubGlobal('fetch', server.fetch);
    await renderPage(page, { at: '/who-read/EM-9' });
    expect((await screen.findByRole('alert')).textContent).toBe('Meter not found. Check the meter number.');
  });
});
