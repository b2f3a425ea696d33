import { useCallback, useState } from 'react';

/**
 * The lookup panel's React key. A new one, so that the panel starts afresh with the URL's fields,
 * when the target changes from outside it (back/forward, a bookmark, a meter picked in the
 * location's summary); the same one when the panel itself asked for the new target, so that it
 * stays as it is and keeps the focus where the person left it (issue 17.9).
 */
export function useLookupKey(urlKey: string): { key: string; onOwnSubmit: (nextKey: string) => void } {
  const [state, setState] = useState<{ urlKey: string; key: string; submitted: string | null }>({
    urlKey,
    key: urlKey,
    submitted: null,
  });
  const onOwnSubmit = useCallback(
    (nextKey: string) => setState((current) => ({ ...current, submitted: nextKey })),
    [],
  );
  if (state.urlKey === urlKey) return { key: state.key, onOwnSubmit };
  const key = urlKey === state.submitted ? state.key : urlKey;
  setState({ urlKey, key, submitted: null });
  return { key, onOwnSubmit };
}
