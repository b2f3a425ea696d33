import { startTransition, useEffect, useState } from 'react';

/**
 * `value` as of the commit before this one: null at first, then, once the commit that first showed
 * `value` has run its effects, `value` itself, at a transition's priority. What renders from it
 * mounts in a commit of its own after that one, however the render was scheduled —
 * `useDeferredValue` does not split a render that is already deferred (a transition renders the
 * new value at once), which is how the check page draws its readings.
 */
export function useValueAfterCommit<T>(value: T): T | null {
  const [shown, setShown] = useState<T | null>(null);
  useEffect(() => {
    startTransition(() => setShown(value));
  }, [value]);
  return shown;
}
