import { chromium, type Browser } from 'playwright-core';
import { inject } from 'vitest';
import type { FoundChromium } from './chromium.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Chromium the global setup found (support/chromium.ts), with the environment it needs. */
    cmChromium: FoundChromium;
  }
}

/**
 * The suite's Chromium (found once by the global setup: CM_CHROMIUM, the system's, or the npm
 * package's; never a downloaded one) driven by playwright-core. None found fails the run there.
 */
export async function launchBrowser(): Promise<Browser> {
  const found = inject('cmChromium');
  return chromium.launch({
    executablePath: found.executablePath,
    env: { ...process.env, ...found.env },
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-gpu',
    ],
  });
}
