// @vitest-environment jsdom
import type { Bill } from '@cm/contracts/check.ts';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderPage } from '@/test-support/render-page.tsx';
import { BillPanel } from './bill-panel.tsx';

// EM-10001 on 2026-11-26, worked by hand in the browser walk: energy 8.079 kWh × 0.2047 + 4.203
// kWh × 0.1126 = €2.1270, one day's standing charge €0.3295, 23 % tax on both €0.5650, total €3.0215.
const bill: Bill = {
  currency: 'EUR',
  energy: 2.127,
  standingCharge: 0.3295,
  demandCharge: 0,
  capacityCharge: 0,
  tax: 0.565,
  feedIn: 0,
  total: 3.0215,
  estimated: 0,
  unpricedConsumption: 0,
  standingDays: 1,
  projection: null,
  demand: null,
};

const shown = (testId: string) =>
  within(screen.getByTestId(testId)).getByText(/€/, { selector: '[data-value]' }).textContent;

describe('the bill panel', () => {
  afterEach(cleanup);

  it('shows parts that add up to the total as shown (issue 34 low)', async () => {
    await renderPage(
      <BillPanel bill={bill} basis="allMeters" count={1} partial={null} timeZone="Europe/Lisbon" />,
    );
    expect(shown('bill-total')).toBe('€3.02');
    const parts = ['bill-energy', 'bill-standing', 'bill-tax'].map((id) => shown(id) ?? '');
    // Each part alone would round to 2.13 + 0.33 + 0.57 = 3.03, a cent over the total.
    const cents = parts.reduce((sum, text) => sum + Math.round(Number(text.replace('€', '')) * 100), 0);
    expect(cents).toBe(302);
    expect(parts).toEqual(['€2.13', '€0.33', '€0.56']);
  });
});
