// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useListState } from './use-list-state.ts';

describe('useListState', () => {
  afterEach(() => vi.useRealTimers());

  it('goes back to the first page when a filter or the search changes', () => {
    const { result } = renderHook(() => useListState({ role: 'all' }));
    act(() => result.current.setPage(3));
    expect(result.current.page).toBe(3);
    act(() => result.current.setFilter('role', '2'));
    expect(result.current).toMatchObject({ page: 1, filters: { role: '2' } });
    act(() => result.current.setPage(2));
    act(() => result.current.setSearch('ann'));
    expect(result.current.page).toBe(1);
  });

  it('sends the search trimmed, once typing pauses', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useListState({}));
    act(() => result.current.setSearch(' ann '));
    expect(result.current.search).toBe(' ann ');
    expect(result.current.debouncedSearch).toBe('');
    act(() => void vi.advanceTimersByTime(250));
    expect(result.current.debouncedSearch).toBe('ann');
  });
});
