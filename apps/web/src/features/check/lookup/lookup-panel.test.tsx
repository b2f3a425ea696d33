// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubServer } from '@/test-support/fetch-stub.ts';
import { renderPage } from '@/test-support/render-page.tsx';
import { meterSuggestion } from '@/test-support/suggestions.ts';
import { LookupPanel } from './lookup-panel.tsx';

describe('the lookup panel’s suggestions', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  // Mantine keeps a closed list mounted (hidden) by default: rendered, portalled and measured as
  // the page loads, one of the long tasks of a phone's first view of a meter (issue 38).
  it('exist only while the list is open', async () => {
    const suggestions = [
      meterSuggestion('EM-10001', 'Main supply · Harbour View'),
      meterSuggestion('EM-10009', 'HVAC · Riverside Campus – Library'),
    ];
    vi.stubGlobal(
      'fetch',
      stubServer({
        'GET /api/bookmarks/data': { body: { suggestions, bookmarks: [], nicknames: {} } },
      }).fetch,
    );
    const onSubmit = vi.fn();
    await renderPage(
      <LookupPanel
        target={{ kind: 'none' }}
        todayUtc="2026-11-28"
        meterError={null}
        locationError={null}
        meterIndError={null}
        onSubmit={onSubmit}
      />,
    );
    const field = screen.getByRole('combobox', { name: /Meter number/ });
    // Open (jsdom lays nothing out, so floating-ui hides the open list: `hidden` finds it still).
    fireEvent.click(field);
    expect(await screen.findByRole('option', { name: /EM-10009/, hidden: true })).toBeTruthy();
    expect(field.getAttribute('aria-controls')).toBe(document.querySelector('[role="listbox"]')?.id);

    // Closed, the list is gone from the page, not hidden in it; nothing points at it.
    fireEvent.keyDown(field, { key: 'Escape' });
    await waitFor(() => expect(document.querySelector('[role="listbox"]')).toBeNull());
    expect(screen.queryByRole('option', { hidden: true })).toBeNull();
    expect(field.getAttribute('aria-controls')).toBeNull();

    fireEvent.click(field);
    fireEvent.click(await screen.findByRole('option', { name: /EM-10009/, hidden: true }));
    expect(onSubmit).toHaveBeenCalledWith({ kind: 'meter', meterNumber: 'EM-10009' });
  });
});
