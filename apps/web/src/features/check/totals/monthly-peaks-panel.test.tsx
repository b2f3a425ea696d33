// @vitest-environment jsdom
import type { MonthlyPeaks } from '@cm/contracts/demand.ts';
import type { LocationReadings } from '@cm/contracts/check.ts';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dailyReadings } from '@/test-support/check-fixtures.ts';
import { stubServer } from '@/test-support/fetch-stub.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { MonthlyPeaksPanel } from './monthly-peaks-panel.tsx';
import { peaksQueryOf } from './peaks-query.ts';

const location = {
  id: 2,
  publicName: 'Harbour A',
  address: 'Quay 1',
  timeZone: 'Europe/Brussels',
  billingDay: null,
};

/** 12 months, Dec 2025 … Nov 2026: a peak of 4.2 kW in January (at least), 1.8 kW in November. */
function answer(): MonthlyPeaks {
  const months: MonthlyPeaks['months'] = Array.from({ length: 12 }, (_, i) => {
    const year = i === 0 ? 2025 : 2026;
    const month = i === 0 ? 12 : i;
    const from = new Date(Date.UTC(year, month - 1, 1) - 3_600_000).toISOString();
    return { month: `${year}-${String(month).padStart(2, '0')}`, from, to: from, peak: null };
  });
  months[1] = {
    ...months[1]!,
    peak: {
      kW: 4.2,
      from: '2026-01-15T17:00:00.000Z',
      to: '2026-01-15T17:15:00.000Z',
      localFrom: '2026-01-15T18:00:00+01:00',
      isAtLeast: true,
    },
  };
  months[11] = {
    ...months[11]!,
    peak: {
      kW: 1.8,
      from: '2026-11-03T07:30:00.000Z',
      to: '2026-11-03T07:45:00.000Z',
      localFrom: '2026-11-03T08:30:00+01:00',
      isAtLeast: false,
    },
  };
  // Rolling average: (4.2 + max(1.8, 2.5)) ÷ 2 = 3.35 kW.
  return {
    location,
    meterInd: null,
    basis: 'allMeters',
    meterNumbers: ['EM-1', 'EM-2'],
    months,
    rollingAverage: { kW: 3.35, floorKw: 2.5, months: 2, isAtLeast: true },
  };
}

describe('monthly peaks panel', () => {
  let server: ReturnType<typeof stubServer>;
  beforeEach(() => {
    server = stubServer({ 'GET /api/CheckMeter/GetMonthlyPeaks': { body: answer() } });
    vi.stubGlobal('fetch', server.fetch);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the rolling average with its floor, and each month’s peak, "≥" where data is missing', async () => {
    await renderPage(
      <MonthlyPeaksPanel query={{ name: 'Harbour A', Month: '2026-11' }} timeZone="Europe/Brussels" />,
    );
    const rolling = await screen.findByTestId('rolling-average');
    expect(rolling.textContent).toContain('≥\u00a03.35\u00a0kW');
    expect(rolling.textContent).toContain('at least 2.5\u00a0kW; 2 months of 12 with data');
    expect(screen.getByText(/added interval by interval/)).toBeTruthy();
    const rows = within(screen.getByTestId('monthly-peaks')).getAllByRole('row');
    expect(rows).toHaveLength(13);
    expect(rows[2]?.textContent).toContain('≥\u00a04.2\u00a0kW');
    // 17:00Z is 18:00 in Brussels (CET).
    expect(rows[2]?.textContent).toMatch(/18:00/);
    expect(rows[12]?.textContent).toContain('1.8\u00a0kW');
    expect(rows[3]?.textContent).toContain('no interval data');
    expect(server.sent[0]?.path).toBe('/api/CheckMeter/GetMonthlyPeaks?name=Harbour+A&Month=2026-11');
  });
});

describe('peaksQueryOf', () => {
  it('asks for the meter shown, over the 12 months ending with the range’s last month', () => {
    const day = dailyReadings();
    // Berlin days 28–30 March 2026; the range ends (exclusive) at 31 March 00:00 local.
    const readings: LocationReadings = {
      location: { ...location, timeZone: 'Europe/Berlin' },
      from: '2026-03-27T23:00:00.000Z',
      to: '2026-03-30T22:00:00.000Z',
      granularity: 'day',
      meters: [
        {
          ...day,
          totals: { ...day.totals, demand: { kW: 3.2, from: '', to: '', localFrom: '', isAtLeast: false } },
        },
      ],
    };
    expect(peaksQueryOf(readings)).toEqual({ name: 'Harbour A', meterInd: 1, Month: '2026-03' });
    // A range ending at 1 April 00:00 local still belongs to March.
    expect(peaksQueryOf({ ...readings, to: '2026-03-31T22:00:00.000Z' })?.Month).toBe('2026-03');
    // Two meters: the location's own peaks.
    expect(peaksQueryOf({ ...readings, meters: [readings.meters[0]!, readings.meters[0]!] })).toEqual({
      name: 'Harbour A',
      Month: '2026-03',
    });
    // No interval energy anywhere: nothing to ask.
    expect(peaksQueryOf({ ...readings, meters: [day] })).toBeNull();
  });
});
