import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CM_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-gpu',
  '--no-first-run',
];

export interface Audit {
  performance: number;
  cls: number;
  lcpMs: number;
  tbtMs: number;
  /** Where the audited page ended up (a signed-in page that lands on /login was not measured signed in). */
  finalUrl: string;
}

/**
 * Lighthouse (performance category only) on `url` in Debian's Chromium, never a downloaded browser.
 * `prepare` runs first in the same browser (e.g. to store a session in localStorage), and the
 * audit keeps storage so that a signed-in page is measured signed in.
 */
/** `auditOnce`, tried again when Lighthouse itself fails to record (e.g. NO_NAVSTART on a busy machine). */
export async function audit(
  url: string,
  formFactor: 'desktop' | 'mobile',
  prepare?: (origin: string, page: Page) => Promise<void>,
): Promise<Audit> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await auditOnce(url, formFactor, prepare);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('Lighthouse:')) throw error;
      console.error(`Lighthouse failed on ${url} (${formFactor}), trying again: ${String(error)}`);
    }
  }
}

async function auditOnce(
  url: string,
  formFactor: 'desktop' | 'mobile',
  prepare?: (origin: string, page: Page) => Promise<void>,
): Promise<Audit> {
  let chrome: LaunchedChrome | undefined;
  try {
    chrome = await launch({ chromePath: CHROMIUM, chromeFlags: FLAGS, logLevel: 'silent' });
    if (prepare) {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const context = browser.contexts()[0];
      if (!context) throw new Error('no default browser context');
      const page = await context.newPage();
      await prepare(new URL(url).origin, page);
      await page.close();
      await browser.close().catch(() => undefined);
    }
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        disableStorageReset: true,
      },
      formFactor === 'desktop' ? desktopConfig : undefined,
    );
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
    const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      cls: metric('cumulative-layout-shift'),
      lcpMs: metric('largest-contentful-paint'),
      tbtMs: metric('total-blocking-time'),
      finalUrl: lhr.finalDisplayedUrl,
    };
  } finally {
    await chrome?.kill();
  }
}
