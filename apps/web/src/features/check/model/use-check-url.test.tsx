// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useCheckUrl } from './use-check-url.ts';

const inRouter = ({ children }: { children: ReactNode }) => (
  <MemoryRouter initialEntries={['/check?meter=EM-1&granularity=day']}>{children}</MemoryRouter>
);

describe('useCheckUrl', () => {
  it('keeps two quick changes made before the page re-renders (style, then the register line)', () => {
    const { result } = renderHook(() => ({ url: useCheckUrl(), search: useLocation().search }), {
      wrapper: inRouter,
    });
    // Both handlers come from the same render, as two clicks before React re-renders do.
    const [, update] = result.current.url;
    act(() => {
      update((current) => ({ chart: { ...current.chart, style: 'line' } }));
      update((current) => ({ chart: { ...current.chart, register: true } }));
    });
    const params = new URLSearchParams(result.current.search);
    expect(params.get('chart')).toBe('line');
    expect(params.get('register')).toBe('1');
    expect(params.get('meter')).toBe('EM-1');
    expect(result.current.url[0].chart).toMatchObject({ style: 'line', register: true });
  });
});
