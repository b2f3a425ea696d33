import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';

/** Typing pauses this long before the list asks the server again. */
const SEARCH_DEBOUNCE_MS = 250;

/**
 * The state of an admin list: its filters, its search text (debounced and trimmed for the
 * query) and its page. Changing a filter or the search goes back to the first page.
 */
export function useListState<F extends object>(initialFilters: F) {
  const [filters, setFilters] = useState(initialFilters);
  const [search, setSearchText] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  return {
    filters,
    setFilter<K extends keyof F>(key: K, value: F[K]) {
      setFilters((current) => ({ ...current, [key]: value }));
      setPage(1);
    },
    /** The search as typed (the field's value). */
    search,
    setSearch(value: string) {
      setSearchText(value);
      setPage(1);
    },
    /** The search as the list query sends it. */
    debouncedSearch,
    page,
    setPage,
  };
}
