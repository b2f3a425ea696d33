import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium, type Page } from 'playwright-core';
import { findChromium } from '../../e2e/support/chromium.ts';

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
  fcpMs: number;
  /** The largest contentful paint element, as Lighthouse describes it (selector and text snippet). */
  lcpElement: string;
  /** Where the audited page ended up (a signed-in page that lands on /login was not measured signed in). */
  finalUrl: string;
}

/**
 * Lighthouse `runs` times on one page and form factor; each figure is the median of the runs (a
 * single run swings by several points on a busy machine). `onRun` sees every run as it ends.
 */
export async function auditMedian(
  url: string,
  formFactor: 'desktop' | 'mobile',
  prepare: ((origin: string, page: Page) => Promise<void>) | undefined,
  runs: number,
  onRun: (result: Audit, run: number) => void,
): Promise<Audit> {
  const results: Audit[] = [];
  for (let run = 1; run <= runs; run += 1) {
    const result = await audit(url, formFactor, prepare);
    if (new URL(result.finalUrl).pathname !== new URL(url).pathname) {
      throw new Error(`Lighthouse on ${url} ended on ${result.finalUrl}: the page was not measured as asked`);
    }
    onRun(result, run);
    results.push(result);
  }
  const median = (figure: (result: Audit) => number) => {
    const sorted = results.map(figure).sort((a, b) => a - b);
    return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
  };
  const middle = results.find((result) => result.performance === median((r) => r.performance)) ?? results[0];
  if (!middle) throw new Error('auditMedian needs at least one run');
  return {
    ...middle,
    performance: median((r) => r.performance),
    cls: median((r) => r.cls),
    lcpMs: median((r) => r.lcpMs),
    tbtMs: median((r) => r.tbtMs),
    fcpMs: median((r) => r.fcpMs),
  };
}

/**
 * Lighthouse (performance category only) on `url` in Debian's Chromium, never a downloaded browser.
 * `prepare` runs first in the same browser (e.g. to store a session in localStorage), and the
 * audit keeps storage so that a signed-in page is measured signed in. Tried again when Lighthouse
 * itself fails to record (e.g. NO_NAVSTART on a busy machine).
 */
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
    const found = await findChromium();
    chrome = await launch({
      chromePath: found.executablePath,
      envVars: { ...process.env, ...found.env },
      chromeFlags: FLAGS,
      logLevel: 'silent',
    });
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
    await saveReport(url, formFactor, result.report);
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      cls: metric('cumulative-layout-shift'),
      lcpMs: metric('largest-contentful-paint'),
      tbtMs: metric('total-blocking-time'),
      fcpMs: metric('first-contentful-paint'),
      lcpElement: lcpElementOf(lhr.audits['largest-contentful-paint-element']?.details),
      finalUrl: lhr.finalDisplayedUrl,
    };
  } finally {
    await chrome?.kill();
  }
}

/** The first node the `largest-contentful-paint-element` audit lists (a table inside a list). */
function lcpElementOf(details: unknown): string {
  const nodes: Array<Record<string, unknown>> = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      if ('type' in value && value.type === 'node') nodes.push({ ...value });
      else Object.values(value).forEach(walk);
    }
  };
  walk(details);
  const node = nodes[0];
  return node ? `${String(node.selector)} "${String(node.nodeLabel ?? '').slice(0, 40)}"` : 'none';
}

/** With CM_LIGHTHOUSE_REPORTS=<folder>, every report is kept there as JSON (to read LCP, long tasks, the treemap). */
async function saveReport(url: string, formFactor: string, report: string | string[] | undefined) {
  const folder = process.env.CM_LIGHTHOUSE_REPORTS;
  if (!folder || !report) return;
  await mkdir(folder, { recursive: true });
  const name = `${new URL(url).pathname.replace(/\W+/g, '_')}-${formFactor}-${Date.now()}.json`;
  await writeFile(path.join(folder, name), Array.isArray(report) ? report.join('\n') : report);
}
