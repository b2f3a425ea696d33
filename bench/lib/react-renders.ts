import type { Page } from 'playwright-core';
import { launchBenchChromium } from './chromium.ts';

// How much React renders while a page loads, counted, not timed: the same on a fast machine and a
// slow one (the answers' order aside), so a change that renders less shows even where Lighthouse's
// figures drown in a busy machine's noise. React reports every commit to the DevTools hook when
// one is there before it loads, production builds included; a component rendered in that commit
// when its fiber was reached (its parent's child list was rebuilt) and did work (PerformedWork).

/** The hook, installed before the page's scripts: counts commits and the components each rendered. */
const HOOK = `(() => {
  const counts = { commits: 0, components: 0 };
  window.__cmRenders = counts;
  const isComponent = (fiber) => [0, 1, 11, 14, 15].includes(fiber.tag);
  const countMounted = (fiber) => {
    for (let f = fiber; f; f = f.sibling) {
      if (isComponent(f)) counts.components += 1;
      if (f.child) countMounted(f.child);
    }
  };
  const countUpdated = (fiber) => {
    for (let f = fiber; f; f = f.sibling) {
      const before = f.alternate;
      if (before === null) { countMounted(f); continue; }
      if (isComponent(f) && (f.flags & 1) !== 0) counts.components += 1;
      if (f.child !== before.child) countUpdated(f.child);
    }
  };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject: () => 1,
    checkDCE() {},
    onScheduleFiberRoot() {},
    onPostCommitFiberRoot() {},
    onCommitFiberUnmount() {},
    onCommitFiberRoot(_renderer, root) {
      counts.commits += 1;
      const current = root.current;
      if (current.alternate === null || current.child !== current.alternate.child) countUpdated(current.child);
    },
  };
})();`;

export interface RenderCount {
  commits: number;
  components: number;
}

/**
 * Loads `url` `loads` times in a fresh context each (412 × 823, as a phone), until `ready` is on
 * the page and a second has passed; answers the median load's React commits and component renders.
 */
export async function countRenders(
  url: string,
  prepare: (origin: string, page: Page) => Promise<void>,
  ready: string,
  loads = 3,
): Promise<RenderCount> {
  const browser = await launchBenchChromium();
  try {
    const counts: RenderCount[] = [];
    for (let load = 0; load < loads; load += 1) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
      const page = await context.newPage();
      await prepare(new URL(url).origin, page);
      await page.addInitScript({ content: HOOK });
      await page.goto(url);
      await page.waitForSelector(ready, { timeout: 120_000 });
      await page.waitForTimeout(1_000);
      counts.push(
        await page.evaluate(() => ({ ...(window as unknown as { __cmRenders: RenderCount }).__cmRenders })),
      );
      await context.close();
    }
    counts.sort((a, b) => a.components - b.components);
    const median = counts[Math.floor((counts.length - 1) / 2)];
    if (!median) throw new Error('countRenders needs at least one load');
    return median;
  } finally {
    await browser.close();
  }
}
