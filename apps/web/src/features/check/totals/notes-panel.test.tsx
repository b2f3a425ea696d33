// @vitest-environment jsdom
import type { LocationReadings, MeterReadings } from '@cm/contracts/check.ts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meterInfo, rawReadings } from '@/test-support/check-fixtures.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { NotesPanel } from './notes-panel.tsx';

/** A gap of `channel` from 10:15 to midnight UTC, 55 intervals, its energy unknown. */
const tailGap = (channel: 'import' | 'export'): MeterReadings['gaps'][number] => ({
  channel,
  from: '2026-06-15T10:15:00.000Z',
  to: '2026-06-16T00:00:00.000Z',
  missingIntervals: 55,
  consumption: null,
  bucket: null,
});

/** Harbour View today: every meter stops at 10:15; meter 1 (solar) on both channels. */
function harbourToday(): LocationReadings {
  const hours = rawReadings('2026-06-15T00:00:00Z', '2026-06-15T10:15:00Z');
  const meter = (meterInd: number, label: string, gaps: MeterReadings['gaps']): MeterReadings => ({
    ...hours,
    meterInd,
    meter: meterInfo({
      meterNumber: `EM-${meterInd}`,
      meterInd,
      label,
      location: { ...hours.meter.location, timeZone: 'UTC' },
    }),
    channels: gaps.length > 1 ? ['import', 'export'] : ['import'],
    gaps,
  });
  const solar = meter(1, 'Apt A', [tailGap('import'), tailGap('export')]);
  return {
    location: solar.meter.location,
    from: '2026-06-15T00:00:00.000Z',
    to: '2026-06-16T00:00:00.000Z',
    granularity: 'raw',
    meters: [solar, meter(2, 'Apt B', [tailGap('import')]), meter(3, 'Apt C', [tailGap('import')])],
  };
}

describe('NotesPanel', () => {
  it('groups notes per kind and meter, names the meter and links to its rows (issue 34.8)', async () => {
    await renderPage(<NotesPanel readings={harbourToday()} tableId="cm-readings-table" />);
    const groups = screen.getAllByTestId('notes-group');
    // One group per meter, not 4 identical lines naming none: the solar meter's two channels are one line.
    expect(groups).toHaveLength(3);
    const [first, second] = groups.map((group) => within(group));
    expect(first?.getByText(/Apt A/)).toBeTruthy();
    expect(first?.getAllByRole('listitem')).toHaveLength(1);
    expect(first?.getByRole('listitem').textContent).toContain('(import and export)');
    expect(second?.getByText(/Apt B/)).toBeTruthy();
    expect(second?.getByRole('link', { name: 'See the rows' }).getAttribute('href')).toBe(
      '#cm-readings-table',
    );
  });
});
