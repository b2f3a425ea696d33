// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '@/test-support/render-page.tsx';
import { RangeControls, type RangeChange } from './range-controls.tsx';

const NO_ERRORS = { from: null, to: null, granularity: null };

describe('the range controls', () => {
  afterEach(cleanup);

  it('say only what changed: a Detail chosen right after Apply must not put the range before it back', async () => {
    // The props are a render behind the address (the page has not redrawn since Apply): choosing
    // the detail then must change the detail alone, never resend these props' older range.
    const changes: RangeChange[] = [];
    await renderPage(
      <RangeControls
        range={{ kind: 'preset', preset: 'last7' }}
        resolved={{ from: '2026-11-21', to: '2026-11-27' }}
        granularity="auto"
        effective="hour"
        timeZone="Europe/Berlin"
        errors={NO_ERRORS}
        now={Date.parse('2026-11-27T12:00:00Z')}
        onChange={(change) => changes.push(change)}
      />,
    );
    fireEvent.change(screen.getByRole('combobox', { name: 'Detail' }), { target: { value: 'raw' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Period' }), { target: { value: 'custom' } });
    expect(changes).toEqual([
      { granularity: 'raw' },
      { range: { kind: 'custom', from: '2026-11-21', to: '2026-11-27' } },
    ]);
  });

  it('applies typed dates as a custom range, and refuses an end before the start', async () => {
    const onChange = vi.fn();
    await renderPage(
      <RangeControls
        range={{ kind: 'custom', from: '2026-11-01', to: '2026-11-02' }}
        resolved={{ from: '2026-11-01', to: '2026-11-02' }}
        granularity="auto"
        effective="hour"
        timeZone="Europe/Berlin"
        errors={NO_ERRORS}
        now={Date.parse('2026-11-27T12:00:00Z')}
        onChange={onChange}
      />,
    );
    fireEvent.change(screen.getByLabelText(/^From/), { target: { value: '2026-09-09' } });
    fireEvent.change(screen.getByLabelText(/^To \(included\)/), { target: { value: '2026-09-09' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(onChange).toHaveBeenCalledWith({
      range: { kind: 'custom', from: '2026-09-09', to: '2026-09-09' },
    });
    fireEvent.change(screen.getByLabelText(/^To \(included\)/), { target: { value: '2026-09-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(onChange).toHaveBeenCalledTimes(1);
  });
});
