// @vitest-environment jsdom
import type { Totals } from '@cm/contracts/check.ts';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderPage } from '@/test-support/render-page.tsx';
import { TotalsPanel } from './totals-panel.tsx';

const totals: Totals = {
  consumption: 24.5,
  registerStart: 100,
  registerEnd: 124.5,
  registerDifference: 24.5,
  intervalSum: 23,
  gapConsumption: 1.5,
  estimatedConsumption: 0,
  agrees: true,
  disagreement: 0,
  peak: { consumption: 0.8, at: '2026-10-25T01:30:00.000Z' },
  // The 25-hour Brussels day: 0.8 kWh in the quarter from 01:15Z (the second 02:15, CET) is
  // 0.8 ÷ 0.25 h = 3.2 kW; a gap elsewhere in the range makes it "at least".
  demand: {
    kW: 3.2,
    from: '2026-10-25T01:15:00.000Z',
    to: '2026-10-25T01:30:00.000Z',
    localFrom: '2026-10-25T02:15:00+01:00',
    isAtLeast: true,
  },
  averagePerDay: 24.5,
  dataEnd: '2026-10-25T23:00:00.000Z',
  readings: 100,
  missingIntervals: 2,
};

function renderTotals(value: Totals) {
  return renderPage(
    <TotalsPanel
      totals={value}
      timeZone="Europe/Brussels"
      multiplier={1}
      meterNumbers={['EM-1']}
      comparisons={[]}
      intervalMinutes={15}
      rangeEndMs={Date.parse('2026-10-25T23:00:00.000Z')}
    />,
  );
}

describe('totals panel: peak demand', () => {
  afterEach(cleanup);

  it('shows the peak in kW, "at least" with gaps, and when its interval started in local time', async () => {
    await renderTotals(totals);
    const stat = await screen.findByTestId('total-demand');
    expect(stat.textContent).toContain('≥\u00a03.2\u00a0kW');
    // 01:15Z is 02:15 on the CET side of the repeated hour.
    expect(stat.textContent).toContain('at least');
    expect(stat.textContent).toMatch(/2:15/);
  });

  it('says the peak plainly without gaps, and "—" without intervals', async () => {
    await renderTotals({ ...totals, demand: { ...totals.demand!, isAtLeast: false } });
    const stat = await screen.findByTestId('total-demand');
    expect(stat.textContent).toContain('3.2\u00a0kW');
    expect(stat.textContent).not.toContain('≥');
    expect(stat.textContent).toContain('average power of the interval from');
    cleanup();
    await renderTotals({ ...totals, demand: null });
    expect((await screen.findByTestId('total-demand')).textContent).toContain('—');
  });
});
