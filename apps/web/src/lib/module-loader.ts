import { startTransition, useEffect, useState } from 'react';

/**
 * A code-split module, loaded once, for components that render it only once it is there (a
 * skeleton until then). Not React.lazy: a lazy component suspends on its first render even when
 * its code has already arrived, and React then holds the revealed content back (its Suspense
 * reveal throttle), which the chart and the table would wait for on every page load.
 */
export function moduleLoader<T extends object>(load: () => Promise<T>) {
  let loaded: T | null = null;
  let pending: Promise<T> | null = null;
  const preload = (): Promise<T> =>
    (pending ??= load().then((module) => {
      loaded = module;
      return module;
    }));
  /** The module once loaded (null until then), asked for once `isWanted`. */
  function useModule(isWanted: boolean): T | null {
    const [module, setModule] = useState<T | null>(loaded);
    useEffect(() => {
      // At a transition's priority: what the module draws (the readings' panels) renders in
      // slices between frames, not in one task a phone cannot interrupt (issue 38: this one update
      // was a 160 ms task at 4x CPU).
      if (isWanted && !module) void preload().then((arrived) => startTransition(() => setModule(arrived)));
    }, [isWanted, module]);
    return module;
  }
  return { preload, useModule };
}
