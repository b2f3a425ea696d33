import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { parseCheckUrl, serializeCheckUrl, type CheckUrlState } from './url-state.ts';

/**
 * The page state, read from and written to the query string. Every change is a history entry,
 * so back and forward step through what the user looked at.
 */
export function useCheckUrl(): [CheckUrlState, (next: CheckUrlState) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = searchParams.toString();
  const state = useMemo(() => parseCheckUrl(search), [search]);
  const setState = useCallback(
    (next: CheckUrlState) => {
      const query = serializeCheckUrl(next);
      if (query !== serializeCheckUrl(parseCheckUrl(search))) setSearchParams(new URLSearchParams(query));
    },
    [search, setSearchParams],
  );
  return [state, setState];
}
