// @vitest-environment jsdom
import type { DelimitedMapping } from '@cm/contracts/import-mapping.ts';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '@/test-support/render-page.tsx';
import { MappingEditor } from './mapping-editor.tsx';

afterEach(cleanup);

const guessed: DelimitedMapping = {
  delimiter: ',',
  decimal: '.',
  skipLines: 0,
  header: true,
  time: { column: 'Date', layout: 'yyyymmdd', stamp: 'end', endColumn: 'To', endInclusiveMinute: false },
  value: { column: 'Value', unit: 'kWh', kind: 'register' },
  missingValues: [],
  meter: { fixed: 'M-1' },
  channel: { fixed: 'import' },
};

/** The editor as the import page holds it: its mapping in state, every change also seen by `seen`. */
function Harness({ seen }: { seen: (mapping: DelimitedMapping) => void }) {
  const [mapping, setMapping] = useState(guessed);
  return (
    <MappingEditor
      mapping={mapping}
      onChange={(next) => {
        seen(next);
        setMapping(next);
      }}
      zones={[]}
    />
  );
}

describe('wide rows in the mapping editor', () => {
  it('sets the date column, the first interval column and the interval length of the server option', async () => {
    const onChange = vi.fn<(mapping: DelimitedMapping) => void>();
    await renderPage(<Harness seen={onChange} />);
    fireEvent.click(screen.getByRole('switch', { name: /One row per day, one column per interval/ }));
    const wide = onChange.mock.lastCall?.[0];
    // Interval values from the day's midnight: no end column, no time column, energy per interval.
    expect(wide).toMatchObject({ wide: { intervalMinutes: 30 }, value: { kind: 'interval' } });
    expect(wide?.time.endColumn).toBeUndefined();
    fireEvent.change(screen.getByRole('textbox', { name: 'Date column' }), { target: { value: '1' } });
    expect(onChange.mock.lastCall?.[0].time.column).toBe(1);
    fireEvent.change(screen.getByRole('textbox', { name: 'First interval column' }), {
      target: { value: '2' },
    });
    expect(onChange.mock.lastCall?.[0].value.column).toBe(2);
    fireEvent.change(screen.getByRole('textbox', { name: 'Interval columns (optional)' }), {
      target: { value: '48' },
    });
    expect(onChange.mock.lastCall?.[0].wide).toEqual({ intervalMinutes: 30, count: 48 });
    // What a wide row cannot have is not offered.
    expect(screen.queryByRole('textbox', { name: 'End column (optional)' })).toBeNull();
  });
});
