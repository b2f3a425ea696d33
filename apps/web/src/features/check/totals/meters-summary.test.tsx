// @vitest-environment jsdom
import type { LocationReadings } from '@cm/contracts/check.ts';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { meterInfo, rawReadings, withExport } from '@/test-support/check-fixtures.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import type * as meterName from '../meter/meter-name.ts';
import { meterOptionText } from '../meter/meter-name.ts';
import type { ComparisonTotal } from './comparison-tiles.tsx';
import { MetersSummary } from './meters-summary.tsx';

// The table names each meter on every render it does: counting the calls counts its renders.
vi.mock('../meter/meter-name.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof meterName>();
  return { ...actual, meterOptionText: vi.fn(actual.meterOptionText) };
});

/**
 * Two flats for one hour (4 quarter hours): the solar one imports 4 × 0.25 = 1 kWh and exports
 * 4 × 0.1 = 0.4 kWh; the other imports 4 × 0.5 = 2 kWh and has no export channel.
 * The location imports 3 kWh, exports 0.4 and its net is 3 − 0.4 = 2.6 kWh.
 */
function harbour(): LocationReadings {
  const hour = (step: number) => rawReadings('2026-06-15T00:00:00Z', '2026-06-15T01:00:00Z', { step });
  const solar = withExport(
    { ...hour(0.25), meterInd: 1, meter: meterInfo({ meterNumber: 'EM-1', meterInd: 1 }) },
    0.1,
  );
  const plain = { ...hour(0.5), meterInd: 2, meter: meterInfo({ meterNumber: 'EM-2', meterInd: 2 }) };
  return {
    location: solar.meter.location,
    from: '2026-06-14T22:00:00.000Z',
    to: '2026-06-15T22:00:00.000Z',
    granularity: 'day',
    meters: [solar, plain],
  };
}

/** A cell's text with the narrow spaces of number formats as plain ones. */
const text = (testId: string) => screen.getByTestId(testId).textContent?.replace(/\s/g, ' ');

describe('MetersSummary', () => {
  it('says a meter has no export channel, and gives the location its net (issue 34.12)', async () => {
    await renderPage(<MetersSummary readings={harbour()} comparisons={[]} onPickMeter={() => {}} />);
    const plainRow = within(screen.getByTestId('meters-summary-2'));
    // Not "unknown": a dash that reads "No export channel"; its net is its import.
    expect(plainRow.queryByText('unknown')).toBeNull();
    expect(plainRow.getByText('No export channel')).toBeTruthy();
    expect(plainRow.getAllByText('2.000 kWh').length).toBeGreaterThanOrEqual(2);
    const solarRow = within(screen.getByTestId('meters-summary-1'));
    expect(solarRow.getByText('0.400 kWh')).toBeTruthy();
    expect(solarRow.getByText('0.600 kWh')).toBeTruthy();
    expect(text('location-net')).toBe('2.600 kWh');
    expect(text('location-net-line')).toBe('Exported 0.400 kWh · net (import − export) 2.600 kWh');
  });
});

describe('MetersSummary, some meters without data', () => {
  it('says the total is partial once, not also "the sum of its N meters" (issue 34 low)', async () => {
    cleanup();
    const readings = harbour();
    const [solar, plain] = readings.meters;
    if (!solar || !plain) throw new Error('fixture');
    const silent = { ...plain, totals: { ...plain.totals, consumption: null } };
    await renderPage(
      <MetersSummary
        readings={{ ...readings, meters: [solar, silent] }}
        comparisons={[]}
        onPickMeter={() => {}}
      />,
    );
    expect(text('location-total')).toBe('at least 1.000 kWh');
    expect(text('location-total-partial')).toBe(
      'from 1 of 2 meters: the others have no data in this range and are not counted.',
    );
    // "The sum of its 2 meters." right after "from 1 of 2 meters" read as a contradiction.
    expect(screen.queryByTestId('location-total-basis')).toBeNull();
  });
});

describe('MetersSummary, a comparison landing', () => {
  it('renders the comparison tiles, not the meters’ table (issue 38)', async () => {
    cleanup();
    const readings = harbour();
    const previous: ComparisonTotal = {
      kind: 'previous',
      range: { from: '2026-06-14', to: '2026-06-14' },
      basis: 'whole',
      query: { From: '2026-06-14', To: '2026-06-14' },
      untilMs: null,
      awaitsRange: false,
      days: 1,
      rangeDays: 1,
      consumption: 2.5,
      cost: null,
      coverage: 1,
      isLoading: false,
      isError: false,
    };
    // The check page's own callback is the same function on each of its renders.
    const onPickMeter = () => {};
    function Page() {
      const [comparisons, setComparisons] = useState<ComparisonTotal[]>([]);
      return (
        <>
          <button type="button" onClick={() => setComparisons([previous])}>
            the comparison lands
          </button>
          <MetersSummary readings={readings} comparisons={comparisons} onPickMeter={onPickMeter} />
        </>
      );
    }
    await renderPage(<Page />);
    await screen.findByTestId('meters-summary');
    const rowRenders = vi.mocked(meterOptionText).mock.calls.length;
    expect(rowRenders).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'the comparison lands' }));
    await screen.findByTestId('compare-previous');
    expect(vi.mocked(meterOptionText).mock.calls.length).toBe(rowRenders);
  });
});
