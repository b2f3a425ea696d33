import { chromium, type Browser } from 'playwright-core';
import { findChromium } from '../../e2e/support/chromium.ts';

/**
 * Headless Chromium for the benchmarks in the browser: the one the browser suite finds
 * (CM_CHROMIUM, the system's, or the npm package's), without sandbox, GPU or background traffic.
 */
export async function launchBenchChromium(): Promise<Browser> {
  const found = await findChromium();
  return chromium.launch({
    executablePath: found.executablePath,
    env: { ...process.env, ...found.env },
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}
