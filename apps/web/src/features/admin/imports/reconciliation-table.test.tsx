// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { storedReport } from '@/test-support/import-fixtures.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { ReconciliationTable } from './reconciliation-table.tsx';
import { ImportReportView } from './report-view.tsx';

afterEach(cleanup);

/** 2024-06-11 in Berlin: the register advanced 48.5 kWh, the intervals 46.5 over 23 hours. */
const day = {
  from: '2024-06-10T22:00:00.000Z',
  to: '2024-06-11T22:00:00.000Z',
  date: '2024-06-11',
  registerKwh: 48.5,
  intervalKwh: 46.5,
  intervalMinutes: 1380,
  restKwh: 2,
};

describe('reconciliation in the preview and the report', () => {
  it("is in an import's report where the meter now has both kinds", async () => {
    await renderPage(
      <ImportReportView
        report={{
          ...storedReport,
          reconciliation: [
            { meterNumber: 'REC-1', channel: 'export', periods: [day], morePeriods: 0, total: day },
          ],
        }}
        fileName="both.csv"
        isStrict={false}
        zoneOf={() => 'Europe/Berlin'}
        rejectedCsvUrl={null}
      />,
    );
    screen.getByRole('region', { name: 'Registers against intervals: REC-1, Export' });
  });

  it('shows per day and over the range the register advance, the intervals and the rest', async () => {
    await renderPage(
      <ReconciliationTable
        item={{
          meterNumber: 'REC-1',
          channel: 'import',
          periods: [day],
          morePeriods: 0,
          total: { ...day, date: null, registerKwh: null, restKwh: null },
        }}
        timeZone="Europe/Berlin"
      />,
    );
    const table = screen.getByRole('region', { name: 'Registers against intervals: REC-1, Import' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]?.textContent).toBe('2024-06-1148.500\u00a0kWh46.500\u00a0kWh1,380 minutes2.000\u00a0kWh');
    // A register that fell: its energy, and so the rest, unknown.
    const cells = within(rows[2] as HTMLElement)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(1)).toEqual(['—', '46.500\u00a0kWh', '1,380 minutes', '—']);
    expect(cells[0]).toMatch(/^Whole range \(/);
  });
});
