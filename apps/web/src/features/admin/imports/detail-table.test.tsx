// @vitest-environment jsdom
import type { RejectedLine } from '@cm/contracts/admin.ts';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderPage } from '@/test-support/render-page.tsx';
import { LineProblems } from './detail-table.tsx';

const unknown = (line: number, meterNumber: string): RejectedLine => ({
  line,
  reason: `unknown meter number "${meterNumber}".`,
  code: 'unknownMeter',
  params: { meterNumber },
});

describe('refused lines', () => {
  afterEach(cleanup);

  it('are one row per reason, not a thousand identical rows (issue 34 low)', async () => {
    // The Low Carbon London report: 1,000 lines of MAC000003 listed, then one of MAC000004.
    const problems = [
      ...Array.from({ length: 1000 }, (_, i) => unknown(i + 2, 'MAC000003')),
      unknown(17_522, 'MAC000004'),
    ];
    await renderPage(<LineProblems problems={problems} caption="Rejected lines" testId="rejected-lines" />);
    const rows = within(screen.getByTestId('rejected-lines')).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      '1,000 lines, 2 to 1001unknown meter number “MAC000003”.',
      '17522unknown meter number “MAC000004”.',
    ]);
  });
});
