import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Axe on the page (or on the part `include` selects) once nothing moves in or out any more (mid-fade
 * colours fail contrast; a busy machine draws a toast's fade slowly): no serious or critical problem.
 */
export async function expectAccessible(page: Page, where: string, include?: string) {
  // Toasts come and go by themselves: a toast fading out (or faded, not yet removed) read as a
  // contrast failure on a loaded machine. Their moment passes first (15 s at most).
  await page
    .waitForFunction(() => (document.querySelector('[data-rht-toaster]')?.children.length ?? 0) === 0, null, {
      timeout: 15_000,
    })
    .catch(() => undefined);
  // Still for three looks 100 ms apart: a toast mounts invisible and starts its fade a frame later.
  const still = () =>
    page.evaluate(() =>
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
        ),
    );
  const until = Date.now() + 30_000;
  for (let looks = 0; looks < 3 && Date.now() < until;) {
    looks = (await still()) ? looks + 1 : 0;
    await page.waitForTimeout(100);
  }
  const builder = new AxeBuilder({ page });
  const results = await (include ? builder.include(include) : builder).analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad).toEqual([]);
}
