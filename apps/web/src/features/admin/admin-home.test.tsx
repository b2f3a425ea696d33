// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderPage } from '@/test-support/render-page.tsx';
import { AdminHome } from './admin-home.tsx';

describe('Administration landing page', () => {
  afterEach(cleanup);

  it('shows each card in words, never a raw placeholder such as {{zone}} (issue 34, low)', async () => {
    await renderPage(<AdminHome />);
    const nav = screen.getByRole('navigation', { name: 'Administration' });
    expect(nav.textContent).toContain('Who did what, and when');
    expect(nav.textContent).not.toMatch(/\{\{|\}\}/);
  });
});
