import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { parseCheckUrl, serializeCheckUrl, type CheckUrlState } from './url-state.ts';

/**
 * The page state, read from and written to the query string. Every change is a history entry,
 * so back and forward step through what the user looked at. A change is merged onto the address
 * as last written, not as the current render saw it: two quick changes (the chart's style, then
 * its register line) both stay, even when the second comes before the page re-rendered.
 */
/** A change of the page state: the parts that change, or how to derive them from the state as it is then. */
export type CheckUrlChange = Partial<CheckUrlState> | ((current: CheckUrlState) => Partial<CheckUrlState>);

export function useCheckUrl(): [CheckUrlState, (change: CheckUrlChange) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = searchParams.toString();
  const state = useMemo(() => parseCheckUrl(search), [search]);
  const latest = useRef(search);
  // Back, forward and links move the address too: follow it before any event can fire.
  useLayoutEffect(() => {
    latest.current = search;
  }, [search]);
  const update = useCallback(
    (change: CheckUrlChange) => {
      const current = parseCheckUrl(latest.current);
      const query = serializeCheckUrl({
        ...current,
        ...(typeof change === 'function' ? change(current) : change),
      });
      if (query === serializeCheckUrl(current)) return;
      latest.current = query;
      setSearchParams(new URLSearchParams(query));
    },
    [setSearchParams],
  );
  return [state, update];
}
