// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { csvPreview } from '@/test-support/import-fixtures.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { PreviewPanel } from './preview-panel.tsx';

afterEach(cleanup);

describe('a block-per-day file in the preview', () => {
  it('shows what it holds per direction while it still waits for its meter', async () => {
    await renderPage(
      <PreviewPanel
        preview={{
          ...csvPreview,
          format: 'blocks',
          reason: 'A block per day and direction',
          refusal: 'This file names no meter: give the meterNumber its readings belong to.',
          rowsRead: 0,
          readings: 0,
          blocks: {
            directions: [
              {
                direction: 'Delivered',
                channel: 'import',
                unit: 'kWh',
                values: 188,
                days: [
                  { date: '2024-03-10', values: 92 },
                  { date: '2024-11-02', values: 96 },
                ],
              },
            ],
          },
        }}
      />,
    );
    screen.getByText('This file names no meter: give the meterNumber its readings belong to.');
    const table = screen.getByRole('region', {
      name: 'What the file holds, per direction (before any meter is chosen)',
    });
    const cells = within(within(table).getAllByRole('row')[1] as HTMLElement)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual(['Delivered', 'Import', 'kWh', '188', '2024-03-10: 92, 2024-11-02: 96']);
  });
});
