// `npm run bench` — every benchmark present, then ONE summary table.
//
// Builds the web app once (apps/web/dist), runs each benchmark in its own process and in turn:
// api.bench.ts, ingest.bench.ts and check-page.bench.ts (when present), load.bench.ts, then
// measures the bundle of that build and runs Lighthouse on /login, /check, a meter's view and a
// location's view (desktop and mobile,
// CM_LIGHTHOUSE_RUNS times each, 5 by default, medians reported). A benchmark joins the summary by printing a Markdown table whose
// header is `| measure | target | CM | baseline | ratio |` (see bench/README.md). Benchmarks never
// assert a time: the exit code is non-zero only when one of them crashed.
import { execFileSync, spawn } from 'node:child_process';
import type { Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildWeb, measureBundle, type BundleSizes, type JsShare } from './lib/bundle.ts';
import { auditMedian, type Audit } from './lib/lighthouse.ts';
import { traceLongTasks } from './lib/long-tasks.ts';
import { repoRoot } from '../e2e/support/server-process.ts';
import { BENCH_WEB_API_KEY, startBenchServer } from './lib/server-process.ts';
import { countRenders } from './lib/react-renders.ts';
import { printTable } from './lib/table.ts';

const here = import.meta.dirname;
type Row = [string, string, string, string, string];
const summary: Array<{ source: string; row: Row }> = [];
let crashed = 0;

/** Rows of every `measure | target | CM | baseline | ratio` table in a benchmark's output. */
export function summaryRows(output: string): Row[] {
  const rows: Row[] = [];
  let inTable = false;
  for (const line of output.split('\n')) {
    const cells = line.trim().startsWith('|')
      ? line
          .trim()
          .slice(1, -1)
          .split('|')
          .map((cell) => cell.trim())
      : undefined;
    if (!cells) {
      inTable = false;
      continue;
    }
    if (cells.join('|').toLowerCase() === 'measure|target|cm|baseline|ratio') {
      inTable = true;
      continue;
    }
    if (inTable && !/^-+$/.test(cells[0] ?? '') && cells.length === 5) rows.push(cells as Row);
  }
  return rows;
}

function runScript(file: string): Promise<{ code: number; output: string; seconds: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, file)], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stdout.write(chunk);
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, output, seconds: (Date.now() - started) / 1000 }));
  });
}

async function benchmarkScripts() {
  for (const file of ['api.bench.ts', 'ingest.bench.ts', 'check-page.bench.ts', 'load.bench.ts']) {
    if (!existsSync(path.join(here, file))) {
      summary.push({ source: file, row: ['(not present)', '—', '—', '—', '—'] });
      continue;
    }
    console.log(`\n## ${file}\n`);
    const { code, output, seconds } = await runScript(file);
    const rows = summaryRows(output);
    if (code !== 0) {
      crashed += 1;
      summary.push({ source: file, row: [`crashed (exit ${code})`, '—', 'see its output above', '—', '—'] });
    } else if (rows.length === 0) {
      summary.push({
        source: file,
        row: [`ran in ${seconds.toFixed(0)} s`, '—', 'no summary table: see its output above', '—', '—'],
      });
    }
    for (const row of rows) summary.push({ source: file, row });
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
// Five: on this machine single mobile scores of one build spread over ±5 points (total blocking time).
const LIGHTHOUSE_RUNS = Number(process.env.CM_LIGHTHOUSE_RUNS ?? 5);

function bundleRows(sizes: BundleSizes): Row[] {
  const share = ({ gzip, files }: JsShare, of: JsShare) => [
    `${kb(gzip)} (${files} files)`,
    `all JS of the build: ${kb(of.gzip)}`,
    `${((gzip / of.gzip) * 100).toFixed(0)} % of it`,
  ];
  return [
    ['JS before /login is interactive (gzip)', '≤ 170 KB', ...share(sizes.login, sizes.all)] as Row,
    ['JS the signed-in layout adds (gzip)', 'report', ...share(sizes.layout, sizes.all)] as Row,
    ["the check route's own JS, incl. uPlot (gzip)", '≤ 120 KB', ...share(sizes.check, sizes.all)] as Row,
    [
      'of it, before the check page first paints (gzip)',
      'report',
      ...share(sizes.checkPage, sizes.all),
    ] as Row,
  ];
}

/** A signed-in client, as after a login: the session stored where the web app keeps it. */
async function signIn(origin: string, page: Page) {
  const response = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'X-API-Key': BENCH_WEB_API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'client.a@demo.cm', password: 'ClientA!2026' }),
  });
  if (response.status !== 200) throw new Error(`demo login: ${response.status}`);
  const record = (await response.json()) as { token: string };
  await page.goto(`${origin}/login`);
  await page.evaluate((stored) => {
    localStorage.setItem('userData', JSON.stringify(stored));
    localStorage.setItem('accessToken', JSON.stringify(stored.token));
  }, record);
}

/** Targets per audited page: the empty pages as before; the views people open as issue 38 sets them. */
interface PageTargets {
  desktop: string;
  mobile: string;
  cls: string;
  tbtMobile: string;
}
const EMPTY_PAGE: PageTargets = { desktop: '≥ 95', mobile: '≥ 90', cls: '≤ 0.02', tbtMobile: 'report' };
const OPENED_VIEW: PageTargets = { desktop: '100', mobile: '≥ 95', cls: '≤ 0.01', tbtMobile: '≤ 200 ms' };

function lighthouseRows(page: string, targets: PageTargets, desktop: Audit, mobile: Audit): Row[] {
  const runs = `median of ${LIGHTHOUSE_RUNS}`;
  return [
    [`${page} performance, desktop (${runs})`, targets.desktop, String(desktop.performance), '—', '—'],
    [
      `${page} performance, mobile: slow 4G, 4× CPU (${runs})`,
      targets.mobile,
      String(mobile.performance),
      `desktop ${desktop.performance}`,
      `${(mobile.performance / desktop.performance).toFixed(2)}× desktop`,
    ],
    [
      `${page} CLS, desktop / mobile`,
      targets.cls,
      `${desktop.cls.toFixed(3)} / ${mobile.cls.toFixed(3)}`,
      `LCP ${desktop.lcpMs.toFixed(0)} / ${mobile.lcpMs.toFixed(0)} ms`,
      '—',
    ],
    [
      `${page} total blocking time, mobile / desktop`,
      targets.tbtMobile,
      `${mobile.tbtMs.toFixed(0)} ms`,
      `desktop ${desktop.tbtMs.toFixed(0)} ms`,
      '—',
    ],
  ];
}

/** The meter view's long tasks on the phone profile, by cause (lib/long-tasks.ts): a table, and a summary row. */
async function meterViewLongTasks(origin: string) {
  const page = '/check?meter=EM-10001';
  const report = await traceLongTasks(`${origin}${page}`, signIn, '[data-testid="readings-table"]');
  const total = report.tasks.reduce((sum, ms) => sum + ms, 0);
  printTable(
    `Long tasks of ${page} on a phone (412 px, CPU 4× slower): ${report.tasks.length} tasks, ${total.toFixed(0)} ms (${report.tasks.map((ms) => ms.toFixed(0)).join(', ')} ms); load average ${os.loadavg()[0]?.toFixed(1)}`,
    ['cause', 'time in long tasks', 'share', 'in tasks'],
    report.causes.map((c) => [
      c.cause,
      `${c.ms.toFixed(1)} ms`,
      `${((c.ms / total) * 100).toFixed(0)} %`,
      String(c.tasks),
    ]),
  );
  const top = report.causes[0];
  summary.push({
    source: 'long tasks',
    row: [
      `${page}: long tasks on a phone (CPU 4×)`,
      'report',
      `${report.tasks.length} tasks, ${total.toFixed(0)} ms`,
      top ? `most: ${top.cause} ${top.ms.toFixed(0)} ms` : '—',
      '—',
    ],
  });
}

/** What React renders while the meter view loads, against the empty check page (lib/react-renders.ts). */
async function meterViewRenders(origin: string) {
  const page = '/check?meter=EM-10001';
  const meterView = await countRenders(`${origin}${page}`, signIn, '[data-testid="readings-table"]');
  const empty = await countRenders(`${origin}/check`, signIn, '[data-testid="check-page"]');
  summary.push({
    source: 'renders',
    row: [
      `${page}: React commits / component renders while it loads (median of 3 loads)`,
      'report',
      `${meterView.commits} commits, ${meterView.components} renders`,
      `empty /check: ${empty.commits} commits, ${empty.components} renders`,
      `${(meterView.components / empty.components).toFixed(1)}× the empty page`,
    ],
  });
}

/** Bundle figures of the build, then Lighthouse on /login and the signed-in views served from it. */
async function webAndLighthouse(distDir: string) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cm-bench-data-'));
  try {
    console.log('\n## web bundle\n');
    const sizes = await measureBundle(distDir);
    for (const row of bundleRows(sizes)) summary.push({ source: 'bundle', row });
    console.log(
      `login ${kb(sizes.login.gzip)}, layout adds ${kb(sizes.layout.gzip)}, the check route's own ${kb(sizes.check.gzip)}, all ${kb(sizes.all.gzip)}`,
    );

    console.log(
      `\n## Lighthouse, ${LIGHTHOUSE_RUNS} runs each (starting the demo server on the embedded database)\n`,
    );
    const server = await startBenchServer(
      { CM_DATA_DIR: dataDir, CM_SEED_DEMO: 'auto', CM_WEB_DIST: distDir },
      240_000,
    );
    try {
      // The empty pages, then what people open (issue 38): a meter with 13 months of 15-minute
      // data at its default range, and a location's view of all its meters.
      for (const [page, prepare, targets] of [
        ['/login', undefined, EMPTY_PAGE],
        ['/check', signIn, EMPTY_PAGE],
        ['/check?meter=EM-10001', signIn, OPENED_VIEW],
        [`/check?location=${encodeURIComponent('Riverside Campus – Library')}`, signIn, OPENED_VIEW],
      ] as const) {
        const median: Partial<Record<'desktop' | 'mobile', Audit>> = {};
        for (const formFactor of ['desktop', 'mobile'] as const) {
          median[formFactor] = await auditMedian(
            `${server.url}${page}`,
            formFactor,
            prepare,
            LIGHTHOUSE_RUNS,
            (result, run) =>
              console.log(
                `${page} ${formFactor} #${run}: performance ${result.performance}, FCP ${result.fcpMs.toFixed(0)} ms, LCP ${result.lcpMs.toFixed(0)} ms, TBT ${result.tbtMs.toFixed(0)} ms, CLS ${result.cls.toFixed(3)} (load average ${os.loadavg()[0]?.toFixed(1)}; LCP element ${result.lcpElement})`,
              ),
          );
        }
        if (median.desktop && median.mobile) {
          for (const row of lighthouseRows(page, targets, median.desktop, median.mobile))
            summary.push({ source: 'lighthouse', row });
        }
      }
      await meterViewLongTasks(server.url);
      await meterViewRenders(server.url);
    } finally {
      await server.stop();
    }
  } catch (error) {
    crashed += 1;
    console.error(error);
    summary.push({
      source: 'web',
      row: ['bundle / Lighthouse crashed', '—', String(error).slice(0, 80), '—', '—'],
    });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const only = process.env.CM_BENCH_ONLY?.split(',');
  // One production build for everything: the benchmarks' servers serve it (CM_WEB_DIST, inherited by
  // each script), the bundle figures read its manifest, Lighthouse audits it.
  const distDir = await mkdtemp(path.join(os.tmpdir(), 'cm-bench-web-'));
  try {
    console.log('\n## web build\n');
    buildWeb(distDir);
    // The benchmarks' servers run the built server, as npm start does.
    execFileSync('npm', ['run', 'build', '-w', '@cm/server'], { stdio: 'inherit' });
    process.env.CM_WEB_DIST = distDir;
    if (!only || only.includes('scripts')) await benchmarkScripts();
    if (!only || only.includes('web')) await webAndLighthouse(distDir);
  } finally {
    await rm(distDir, { recursive: true, force: true });
  }
  printTable(
    'Summary of this run (targets are goals, not assertions; baseline measured in the same run)',
    ['source', 'figure', 'target', 'measured', 'baseline', 'ratio'],
    summary.map(({ source, row }) => [source, ...row]),
  );
  if (crashed > 0) process.exitCode = 1;
}

if (process.argv[1] === import.meta.filename) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
