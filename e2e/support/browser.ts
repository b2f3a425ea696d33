import { chromium, type Browser } from 'playwright-core';
import { inject } from 'vitest';
import type { FoundChromium } from './chromium.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Chromium the global setup found (support/chromium.ts), with the environment it needs. */
    cmChromium: FoundChromium;
  }
}

const pageFaults: string[] = [];

/** Reports a page's own breach of its Content-Security-Policy to the suite (see `takePageFaults`). */
function watchContentSecurityPolicy(): void {
  addEventListener('securitypolicyviolation', (event) => {
    const report = (window as unknown as { cmCspViolation?: (text: string) => void }).cmCspViolation;
    report?.(`${event.violatedDirective} (${event.blockedURI}) at ${event.sourceFile}:${event.lineNumber}`);
  });
}

/**
 * What the pages of this file's contexts did wrong since the last call, whatever a test checks,
 * each with the page: an error no page code caught, and a breach of the page's
 * Content-Security-Policy (it allows only the app's own scripts: a library that tries anything else,
 * an eval or an inline handler, shows an error to anyone who looks and breaks in a stricter
 * deployment). support/each-test.ts fails any test during which a page did either.
 */
export function takePageFaults(): string[] {
  return pageFaults.splice(0);
}

/**
 * The suite's Chromium (found once by the global setup: CM_CHROMIUM, the system's, or the npm
 * package's; never a downloaded one) driven by playwright-core. None found fails the run there.
 */
export async function launchBrowser(): Promise<Browser> {
  const found = inject('cmChromium');
  const browser = await chromium.launch({
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
  // An error no page code caught is a bug whatever the test checks: each is printed with its stack at
  // once, so that a test waiting in vain for an element says why (a chart library once threw at load).
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    // A page on a machine loaded far past its cores may take many seconds to show what it shows in
    // one when quiet: waits fail after a minute, not Playwright's 30 s (a passing test waits no longer).
    context.setDefaultTimeout(60_000);
    await context.exposeBinding('cmCspViolation', ({ page }, text: string) => {
      pageFaults.push(`${page.url()}: Content-Security-Policy broken: ${text}`);
    });
    await context.addInitScript(watchContentSecurityPolicy);
    context.on('weberror', (error) => {
      const where = error.page()?.url() ?? 'a page';
      pageFaults.push(`${where}: uncaught ${error.error().message}`);
      console.error(`[browser] uncaught in ${where}: ${error.error().stack}`);
    });
    return context;
  };
  return browser;
}
