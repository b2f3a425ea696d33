// @vitest-environment jsdom
import type { Bill, LocationReadings } from '@cm/contracts/check.ts';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rawReadings } from '@/test-support/check-fixtures.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import type * as billModel from '../model/bill.ts';
import { billCardFigures } from '../model/bill.ts';
import { BillCard } from './bill-card.tsx';

// The card works its figures out on every render it does: counting the calls counts its renders.
vi.mock('../model/bill.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof billModel>();
  return { ...actual, billCardFigures: vi.fn(actual.billCardFigures) };
});

const bill = (total: number, projected: number | null): Bill => ({
  currency: 'EUR',
  energy: total,
  standingCharge: 0,
  demandCharge: 0,
  capacityCharge: 0,
  tax: 0,
  feedIn: 0,
  total,
  estimated: 0,
  unpricedConsumption: 0,
  standingDays: 10,
  demand: null,
  projection:
    projected === null
      ? null
      : {
          energy: projected,
          standingCharge: 0,
          demandCharge: 0,
          capacityCharge: 0,
          tax: 0,
          feedIn: 0,
          total: projected,
          averagedDays: 10,
          // The end instant: 1 December 00:00 in Berlin, so the period's last day is 30 November.
          to: '2026-11-30T23:00:00.000Z',
          peakMayRise: false,
        },
});

/** A Berlin answer for [from, to) local days with one meter billed `given`. */
function answer(from: string, to: string, given: Bill | null): LocationReadings {
  const meter = rawReadings('2026-11-01T00:00:00Z', '2026-11-01T01:00:00Z');
  return {
    location: meter.meter.location,
    from,
    to,
    granularity: 'month',
    meters: [{ ...meter, bill: given }],
  };
}

describe('the bill card (issue 34, the bill first)', () => {
  afterEach(cleanup);

  it('says this bill so far, projected to the period’s end, against the last bill', async () => {
    // November 2026 in Berlin: 1 Nov 00:00 = Oct 31 23:00 UTC; October the same way from Sep 30 22:00.
    await renderPage(
      <BillCard
        current={answer('2026-10-31T23:00:00.000Z', '2026-11-30T23:00:00.000Z', bill(40, 88))}
        last={answer('2026-09-30T22:00:00.000Z', '2026-10-31T23:00:00.000Z', bill(80, null))}
      />,
    );
    const card = await screen.findByTestId('bill-card');
    expect(card.textContent).toContain('This billing period: Nov 1, 2026 – Nov 30, 2026');
    expect(screen.getByTestId('bill-card-so-far').textContent).toBe('So far€40.00');
    expect(screen.getByTestId('bill-card-projected').textContent).toBe(
      'Projected€88.00to Nov 30, 2026, at the pace so far',
    );
    expect(screen.getByTestId('bill-card-last').textContent).toBe(
      'Last bill€80.00Oct 1, 2026 – Oct 31, 2026',
    );
    // 88 / 80 − 1 = +10 %.
    expect(screen.getByTestId('bill-card-change').textContent).toBe('Projected against last bill+10%');
    // The bar: scale 88; so far 40 / 88 = 45.45 %, the rest 48 / 88 = 54.55 %, last 80 / 88 = 90.91 %.
    const spans = screen.getByTestId('bill-card-bar').querySelectorAll('span');
    expect([...spans].map((span) => span.getAttribute('style'))).toEqual([
      'width: 45.45%;',
      'inset-inline-start: 45.45%; width: 54.55%;',
      'inset-inline-start: 90.91%;',
    ]);
  });

  it('keeps its skeleton until the last bill is in too, so nothing below moves twice (issue 38)', async () => {
    const current = answer('2026-10-31T23:00:00.000Z', '2026-11-30T23:00:00.000Z', bill(40, 88));
    function Page() {
      const [isLastLoading, setLastLoading] = useState(true);
      return (
        <>
          <button type="button" onClick={() => setLastLoading(false)}>
            the last bill fails
          </button>
          <BillCard current={current} last={undefined} isLastLoading={isLastLoading} />
        </>
      );
    }
    await renderPage(<Page />);
    expect(screen.getByTestId('bill-card-loading')).toBeTruthy();
    expect(screen.queryByTestId('bill-card')).toBeNull();
    // The last bill failed: the card says what it knows.
    fireEvent.click(screen.getByRole('button', { name: 'the last bill fails' }));
    expect(await screen.findByTestId('bill-card')).toBeTruthy();
    expect(screen.queryByTestId('bill-card-loading')).toBeNull();
  });

  it('shows nothing without a tariff, and says there was no last bill', async () => {
    const { unmount } = await renderPage(
      <BillCard
        current={answer('2026-10-31T23:00:00.000Z', '2026-11-30T23:00:00.000Z', null)}
        last={undefined}
      />,
    );
    expect(screen.queryByTestId('bill-card')).toBeNull();
    unmount();
    await renderPage(
      <BillCard
        current={answer('2026-10-31T23:00:00.000Z', '2026-11-30T23:00:00.000Z', bill(12.5, null))}
        last={answer('2026-09-30T22:00:00.000Z', '2026-10-31T23:00:00.000Z', null)}
      />,
    );
    expect(screen.getByTestId('bill-card-last').textContent).toBe('Last billNone');
    expect(screen.queryByTestId('bill-card-change')).toBeNull();
    expect(screen.queryByTestId('bill-card-projected')).toBeNull();
  });

  it('renders again only when its own answers change, not with every render of the page (issue 38)', async () => {
    const current = answer('2026-10-31T23:00:00.000Z', '2026-11-30T23:00:00.000Z', bill(40, 88));
    const last = answer('2026-09-30T22:00:00.000Z', '2026-10-31T23:00:00.000Z', bill(80, null));
    // The check page renders again for every answer it hears of: here, a button does it.
    function Page() {
      const [renders, setRenders] = useState(0);
      return (
        <>
          <button type="button" onClick={() => setRenders(renders + 1)}>
            render the page again ({renders})
          </button>
          <BillCard current={current} last={last} />
        </>
      );
    }
    await renderPage(<Page />);
    await screen.findByTestId('bill-card');
    const rendered = vi.mocked(billCardFigures).mock.calls.length;
    fireEvent.click(screen.getByRole('button', { name: /render the page again/ }));
    fireEvent.click(screen.getByRole('button', { name: /render the page again/ }));
    await screen.findByRole('button', { name: 'render the page again (2)' });
    expect(vi.mocked(billCardFigures).mock.calls.length).toBe(rendered);
  });
});
