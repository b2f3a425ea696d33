/*
 * Check page benchmark (prints a table, asserts nothing). Run: `npx tsx bench/check-page.bench.ts`
 * (CM_BENCH_URL=http://127.0.0.1:3100 to use a running server with the demo data; otherwise one is
 * started on a fresh data folder, as `npm start` would run it, from the built web app).
 *
 * 1. The /check route's own JavaScript (gzip, uPlot included): what the check page pulls in that the
 *    entry, the app shell, the login page and the layout do not already load (bench/lib/bundle.ts).
 * 2. A year of 15-minute readings (≈35,040 points) of one meter: the page's performance marks from
 *    "answer received" to "chart drawn" (split into schema parse and render + draw), on a page
 *    load (cold: the whole page renders for the first time) and on switching from a one-day view
 *    inside the app (warm: what a user waits for when changing the range). Also "table rendered":
 *    the notes and the table below the chart render after it has drawn (35k rows to build), and the
 *    longest main-thread task in between (what a click or a key press may wait for meanwhile).
 * 3. Cursor move cost per frame over that chart: main-thread time of one mousemove (uPlot's cursor
 *    update, the tooltip written into the DOM) plus the style and layout it forces, per step.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBenchChromium } from './lib/chromium.ts';
import { startServerProcess } from '../e2e/support/server-process.ts';
import { buildWeb, jsShare, ROUTE_ROOTS, type JsShare } from './lib/bundle.ts';
import { printTable } from './lib/table.ts';

const root = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.CM_BENCH_RUNS ?? 5);
const CURSOR_STEPS = 200;
const LOCATION = 'Riverside Campus – Library';
const METER_IND = 3;

/**
 * The check route's own JavaScript (what the check page adds to entry, app shell, login page and
 * layout) and all the JavaScript it loads, from the build `npm run bench` made (CM_WEB_DIST, with
 * its manifest) or else from a build of its own.
 */
async function routeChunkSizes(): Promise<{ routeOnly: JsShare; closure: JsShare }> {
  const { entry, shell, login, layout, check, checkPanels, checkParsers } = ROUTE_ROOTS;
  const given = process.env.CM_WEB_DIST;
  const hasManifest = given !== undefined && existsSync(path.join(given, '.vite/manifest.json'));
  const outDir = hasManifest ? given : await mkdtemp(path.join(os.tmpdir(), 'cm-bench-web-'));
  try {
    if (!hasManifest) buildWeb(outDir);
    return {
      routeOnly: await jsShare(outDir, [check, checkPanels, checkParsers], [entry, shell, login, layout]),
      closure: await jsShare(outDir, [check, checkPanels, checkParsers]),
    };
  } finally {
    if (!hasManifest) await rm(outDir, { recursive: true, force: true });
  }
}

function stats(values: number[]): { median: number; p95: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { median: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? NaN };
}

async function logIn(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/login`);
  const key = await page.locator('meta[name="cm-api-key"]').getAttribute('content');
  const response = await page.request.post(`${base}/api/auth/login`, {
    headers: { 'X-API-Key': key ?? '' },
    data: { email: 'client.a@demo.cm', password: 'ClientA!2026' },
  });
  if (!response.ok()) throw new Error(`login failed: ${response.status()}`);
  const record: { token: string } = await response.json();
  await page.evaluate((stored) => {
    localStorage.setItem('userData', JSON.stringify(stored));
    localStorage.setItem('accessToken', JSON.stringify(stored.token));
    localStorage.setItem('i18nextLng', 'en');
  }, record);
}

interface Marks {
  points: number;
  parse: number;
  render: number;
  total: number;
  /** Answer → the table below the chart rendered (null when it had not yet). */
  table: number | null;
  /** The longest main-thread task started after the chart drew, up to the table rendered (long tasks are ≥ 50 ms; 0: none). */
  longestAfterChart: number;
}

/** Response → parsed → first draw after it (→ table), from the page's marks, for the raw (year) answer. */
async function readMarks(page: Page): Promise<Marks | null> {
  return page.evaluate(() => {
    const marks = performance.getEntriesByType('mark');
    const parsed = marks.filter(
      (m): m is PerformanceMark => m.name === 'cm-check:parsed' && m instanceof PerformanceMark,
    );
    const big = parsed.find((m) => {
      const detail: unknown = m.detail;
      return (
        typeof detail === 'object' &&
        detail !== null &&
        'granularity' in detail &&
        detail.granularity === 'raw'
      );
    });
    if (!big) return null;
    const detail: unknown = big.detail;
    const points =
      typeof detail === 'object' && detail !== null && 'points' in detail && typeof detail.points === 'number'
        ? detail.points
        : 0;
    const responses = marks.filter((m) => m.name === 'cm-check:response' && m.startTime <= big.startTime);
    const response = responses[responses.length - 1];
    const drawn = marks.find((m) => m.name === 'cm-check:drawn' && m.startTime >= big.startTime);
    if (!response || !drawn) return null;
    const table = marks.find((m) => m.name === 'cm-check:table' && m.startTime >= drawn.startTime);
    const tasksAfterChart = (window.cmLongTasks ?? []).filter(
      (task) => task.start >= drawn.startTime && task.start < (table?.startTime ?? Infinity),
    );
    return {
      points,
      parse: big.startTime - response.startTime,
      render: drawn.startTime - big.startTime,
      total: drawn.startTime - response.startTime,
      table: table ? table.startTime - response.startTime : null,
      longestAfterChart: Math.max(0, ...tasksAfterChart.map((task) => task.duration)),
    };
  });
}

declare global {
  interface Window {
    cmLongTasks?: { start: number; duration: number }[];
  }
}

/** Records the page's long tasks (≥ 50 ms on the main thread) from its first script on. */
function recordLongTasks(): void {
  const tasks: { start: number; duration: number }[] = [];
  window.cmLongTasks = tasks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask' });
}

/** Main-thread cost of one cursor step: the mousemove handlers plus the style and layout they force. */
async function cursorCosts(page: Page): Promise<number[]> {
  return page.evaluate(async (steps) => {
    const over = document.querySelector('.u-over');
    if (!(over instanceof HTMLElement)) return [];
    const box = over.getBoundingClientRect();
    const costs: number[] = [];
    for (let i = 0; i < steps; i++) {
      const x = box.left + ((i + 0.5) / steps) * box.width;
      const y = box.top + box.height / 2;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const start = performance.now();
      over.dispatchEvent(new MouseEvent('mousemove', { clientX: x, clientY: y, bubbles: true }));
      // Force the style and layout the tooltip and cursor changes cause, as the next frame would.
      void document.body.offsetHeight;
      costs.push(performance.now() - start);
    }
    return costs;
  }, CURSOR_STEPS);
}

/**
 * Same-run baseline: JSON.parse of the same year's answer in the same page (median of 5), the
 * least any web client does with it (the app's "answer received" mark comes after that parse).
 */
async function jsonParseBaseline(page: Page, apiPath: string): Promise<number> {
  return page.evaluate(async (url) => {
    const key = document.querySelector('meta[name="cm-api-key"]')?.getAttribute('content') ?? '';
    const token: unknown = JSON.parse(localStorage.getItem('accessToken') ?? 'null');
    const response = await fetch(url, {
      headers: { 'X-API-Key': key, authorization: `Bearer ${String(token)}` },
    });
    const text = await response.text();
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      JSON.parse(text);
      times.push(performance.now() - start);
    }
    return times.sort((a, b) => a - b)[2] ?? Number.NaN;
  }, apiPath);
}

/** A client-side navigation, as the app's own links and back/forward do it. */
async function navigateInApp(page: Page, pathAndQuery: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState({}, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, pathAndQuery);
}

async function main(): Promise<void> {
  const sizes = await routeChunkSizes();
  // The web app the server below serves (startServerProcess passes CM_WEB_DIST on).
  if (!existsSync(path.join(process.env.CM_WEB_DIST ?? path.join(root, 'apps/web/dist'), 'index.html')))
    throw new Error('build the web app first: npm run build');

  const server = process.env.CM_BENCH_URL
    ? { url: process.env.CM_BENCH_URL, stop: async () => {} }
    : await startServerProcess();
  const browser = await launchBenchChromium();
  const loads: Marks[] = [];
  const switches: Marks[] = [];
  let cursor: number[] = [];
  let jsonParse = Number.NaN;
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.addInitScript(recordLongTasks);
    await logIn(page, server.url);
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
    const target = `${server.url}/check?location=${encodeURIComponent(LOCATION)}&meterInd=${METER_IND}&from=${from}&to=${to}&granularity=raw`;
    for (let run = 0; run < RUNS; run++) {
      await page.goto(target);
      await page.locator('.u-over').waitFor({ timeout: 60_000 });
      await page.waitForFunction(() => performance.getEntriesByName('cm-check:table').length > 0);
      const marks = await readMarks(page);
      if (marks) loads.push(marks);
      if (run === RUNS - 1) {
        await page.locator('.u-over').scrollIntoViewIfNeeded();
        cursor = await cursorCosts(page);
        jsonParse = await jsonParseBaseline(
          page,
          `/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?${new URLSearchParams({ name: LOCATION, From: from, To: to, meterInd: String(METER_IND), granularity: 'raw' }).toString()}`,
        );
      }
    }
    const path = target.slice(server.url.length);
    const oneDay = path.replace(`from=${from}`, `from=${to}`);
    for (let run = 0; run < RUNS; run++) {
      await navigateInApp(page, oneDay);
      await page.waitForFunction(() => performance.getEntriesByName('cm-check:drawn').length > 0);
      await page.waitForTimeout(1500);
      await page.evaluate(() => performance.clearMarks());
      // A range not asked for before (the app keeps answers for two minutes).
      const longer = new Date(Date.now() - (365 + run) * 86_400_000).toISOString().slice(0, 10);
      await navigateInApp(page, path.replace(`from=${from}`, `from=${longer}`));
      await page.waitForFunction(
        () => {
          const parsed = performance.getEntriesByName('cm-check:parsed').find((m) => m.startTime > 0);
          return (
            parsed !== undefined &&
            performance.getEntriesByName('cm-check:table').some((d) => d.startTime > parsed.startTime)
          );
        },
        null,
        { timeout: 60_000 },
      );
      const marks = await readMarks(page);
      if (marks && marks.points > 1000) switches.push(marks);
    }
  } finally {
    await browser.close();
    await server.stop();
  }

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const load = stats(loads.map((l) => l.total));
  const warm = stats(switches.map((l) => l.total));
  const warmRender = stats(switches.map((l) => l.render));
  const parse = stats(loads.map((l) => l.parse));
  const render = stats(loads.map((l) => l.render));
  const move = stats(cursor);
  const tableLoad = stats(loads.flatMap((l) => (l.table === null ? [] : [l.table])));
  const tableSwitch = stats(switches.flatMap((l) => (l.table === null ? [] : [l.table])));
  const blockLoad = stats(loads.map((l) => l.longestAfterChart));
  const blockSwitch = stats(switches.map((l) => l.longestAfterChart));
  // Long tasks are those of 50 ms or more: 0 means the main thread was never held that long.
  const none = (longest: number) => (longest === 0 ? 'no task ≥ 50 ms' : ms(longest));
  const rows: [string, string, string, string][] = [
    ['measure', 'result', 'target', 'detail'],
    [
      "/check route's own JS (gzip)",
      kb(sizes.routeOnly.gzip),
      '≤ 120 KB',
      `${sizes.routeOnly.files} JS files incl. uPlot; with shared chunks ${kb(sizes.closure.gzip)}`,
    ],
    [
      `answer → chart drawn, page load (${loads[0]?.points ?? 0} points)`,
      `${ms(load.median)} median`,
      '≤ 50 ms',
      `p95 ${ms(load.p95)}, max ${ms(load.max)}, ${loads.length} loads`,
    ],
    ['  of which schema parse', `${ms(parse.median)} median`, '', `max ${ms(parse.max)}`],
    ['  of which render + draw', `${ms(render.median)} median`, '', `max ${ms(render.max)}`],
    ['  answer → table rendered', `${ms(tableLoad.median)} median`, '', `max ${ms(tableLoad.max)}`],
    ['  longest task, chart → table', `${none(blockLoad.median)} median`, '', `max ${none(blockLoad.max)}`],
    [
      'answer → chart drawn, range switch',
      `${ms(warm.median)} median`,
      '≤ 50 ms',
      `p95 ${ms(warm.p95)}, max ${ms(warm.max)}, ${switches.length} switches`,
    ],
    ['  of which render + draw', `${ms(warmRender.median)} median`, '', `max ${ms(warmRender.max)}`],
    ['  answer → table rendered', `${ms(tableSwitch.median)} median`, '', `max ${ms(tableSwitch.max)}`],
    [
      '  longest task, chart → table',
      `${none(blockSwitch.median)} median`,
      '',
      `max ${none(blockSwitch.max)}`,
    ],
    [
      'cursor move, per frame',
      `${ms(move.median)} median`,
      '< 16 ms',
      `p95 ${ms(move.p95)}, max ${ms(move.max)}, ${cursor.length} steps`,
    ],
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0))) ?? [];
  console.log(
    `Chromium, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]?.toFixed(1)} (wall-clock times: a busy machine inflates them)`,
  );
  for (const [index, row] of rows.entries()) {
    console.log(row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  '));
    if (index === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }

  // The figures with a target, in the form `npm run bench` puts into its summary.
  const parseText = `JSON.parse of the same answer in the page: ${ms(jsonParse)}`;
  printTable(
    'Check page benchmark',
    ['measure', 'target', 'CM', 'baseline', 'ratio'],
    [
      [
        "the check route's own JS, incl. uPlot (gzip)",
        '≤ 120 KB',
        kb(sizes.routeOnly.gzip),
        `with its shared chunks: ${kb(sizes.closure.gzip)}`,
        `${((sizes.routeOnly.gzip / sizes.closure.gzip) * 100).toFixed(0)} % of it`,
      ],
      [
        `answer → chart drawn, page load (${loads[0]?.points ?? 0} points, median of ${loads.length})`,
        '≤ 50 ms',
        `${ms(load.median)} (max ${ms(load.max)})`,
        parseText,
        `${(load.median / jsonParse).toFixed(1)}× the parse`,
      ],
      [
        `answer → chart drawn, range switch (median of ${switches.length})`,
        '≤ 50 ms',
        `${ms(warm.median)} (max ${ms(warm.max)})`,
        parseText,
        `${(warm.median / jsonParse).toFixed(1)}× the parse`,
      ],
      [
        `cursor move, per frame (${cursor.length} steps)`,
        '< 16 ms',
        `${ms(move.median)} (p95 ${ms(move.p95)})`,
        'one frame at 60 Hz: 16.7 ms',
        `${((move.p95 / (1000 / 60)) * 100).toFixed(0)} % of a frame (p95)`,
      ],
    ],
  );
}

await main();
