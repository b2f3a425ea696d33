// @vitest-environment jsdom
import '@/test-support/uplot-env.ts';
import type { LocationReadings } from '@cm/contracts/check.ts';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { baseloadAnswer, rawReadings } from '@/test-support/check-fixtures.ts';
import { stubServer } from '@/test-support/fetch-stub.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import type * as checkApi from './api.ts';
import { useGetBaseloadQuery, useGetMonthlyPeaksQuery } from './api.ts';
import type * as dateRange from './model/date-range.ts';
import { answerRange } from './model/date-range.ts';
import { DEFAULT_CHART_VIEW } from './model/url-state.ts';
import { ReadingsSection } from './readings-section.tsx';
import type { ComparisonTotal } from './totals/comparison-tiles.tsx';
import type * as totalsText from './totals/totals.ts';
import { formatTotals } from './totals/totals.ts';

// The section reads its answer's range on every render it does: counting the calls counts its renders
// (and its panels', which only render when it does or their own props change).
vi.mock('./model/date-range.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof dateRange>();
  return { ...actual, answerRange: vi.fn(actual.answerRange) };
});
// The baseload and monthly peaks panels ask for their figures on every render they do, and the
// totals' figures are formatted on each of theirs: counting the calls counts their renders.
vi.mock('./api.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof checkApi>();
  return {
    ...actual,
    useGetBaseloadQuery: vi.fn(actual.useGetBaseloadQuery),
    useGetMonthlyPeaksQuery: vi.fn(actual.useGetMonthlyPeaksQuery),
  };
});
vi.mock('./totals/totals.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof totalsText>();
  return { ...actual, formatTotals: vi.fn(actual.formatTotals) };
});

const raw = rawReadings('2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z');
// With a peak demand: the monthly peaks panel shows below the table.
const meter = {
  ...raw,
  totals: {
    ...raw.totals,
    demand: {
      kW: 1.2,
      from: '2026-11-01T17:00:00.000Z',
      to: '2026-11-01T17:15:00.000Z',
      localFrom: '2026-11-01T17:00:00+00:00',
      isAtLeast: false,
    },
  },
};
const readings: LocationReadings = {
  location: meter.meter.location,
  from: '2026-11-01T00:00:00.000Z',
  to: '2026-11-02T00:00:00.000Z',
  granularity: 'raw',
  meters: [meter],
};

/** The previous day's comparison as the page builds it: a new object on each of its renders. */
function previousDay(isLoading: boolean): ComparisonTotal {
  return {
    kind: 'previous',
    range: { from: '2026-10-31', to: '2026-10-31' },
    basis: 'whole',
    query: { From: '2026-10-31', To: '2026-10-31' },
    untilMs: null,
    awaitsRange: false,
    days: 1,
    rangeDays: 1,
    consumption: isLoading ? null : 12.5,
    cost: null,
    coverage: isLoading ? null : 1,
    isLoading,
    isError: false,
  };
}

const noop = () => undefined;

// The check page renders again for every answer it hears of (the bill's, the meter's …), each
// time building its comparisons anew: here, buttons do it.
function Page() {
  const [renders, setRenders] = useState(0);
  const [isLoading, setLoading] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setRenders(renders + 1)}>
        render the page again ({renders})
      </button>
      <button type="button" onClick={() => setLoading(false)}>
        the comparison lands
      </button>
      <ReadingsSection
        readings={readings}
        comparisons={[previousDay(isLoading)]}
        subject="EM-1"
        onPickMeter={noop}
        chartView={DEFAULT_CHART_VIEW}
        onChartViewChange={noop}
      />
    </>
  );
}

describe('the readings section', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('renders again when a comparison lands, not with every render of the page (issue 38)', async () => {
    await renderPage(<Page />);
    await screen.findByTestId('compare-previous');
    // The table below follows a deferred copy of the answer: the section is drawn once it is there.
    await screen.findByTestId('readings-table');
    const calls = () => vi.mocked(answerRange).mock.calls.length;
    const rendered = calls();
    fireEvent.click(screen.getByRole('button', { name: /render the page again/ }));
    fireEvent.click(screen.getByRole('button', { name: /render the page again/ }));
    await screen.findByRole('button', { name: 'render the page again (2)' });
    expect(calls()).toBe(rendered);
    fireEvent.click(screen.getByRole('button', { name: 'the comparison lands' }));
    await vi.waitFor(() => expect(calls()).toBeGreaterThan(rendered));
  });

  it('renders again for a comparison without rendering the panels it does not change (issue 38)', async () => {
    await renderPage(<Page />);
    await screen.findByTestId('readings-table');
    const sectionRenders = () => vi.mocked(answerRange).mock.calls.length;
    const rendersOf = () => ({
      baseload: vi.mocked(useGetBaseloadQuery).mock.calls.length,
      peaks: vi.mocked(useGetMonthlyPeaksQuery).mock.calls.length,
      figures: vi.mocked(formatTotals).mock.calls.length,
    });
    const section = sectionRenders();
    const before = rendersOf();
    expect(Math.min(before.baseload, before.peaks, before.figures)).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'the comparison lands' }));
    await screen.findByTestId('compare-previous');
    await vi.waitFor(() => expect(sectionRenders()).toBeGreaterThan(section));
    expect(rendersOf()).toEqual(before);
  });

  it('draws the chart before the panels with figures of their own, which follow in a later commit (issue 38)', async () => {
    vi.stubGlobal('fetch', stubServer({ 'GET /api/CheckMeter/GetBaseload': { body: baseloadAnswer } }).fetch);
    await renderPage(<Page />);
    const baseload = await screen.findByTestId('baseload');
    const chart = screen.getByTestId('chart-tooltip');
    // Below the chart on the page, and inside the part that follows the deferred copy of the answer.
    expect(chart.compareDocumentPosition(baseload) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(baseload.closest('[aria-busy]')).not.toBeNull();
    expect(chart.closest('[aria-busy]')).toBeNull();
  });
});
