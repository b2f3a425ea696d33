// `npm run bench` — every benchmark present, then ONE summary table.
//
// Runs, each in its own process and in turn: api.bench.ts, ingest.bench.ts and check-page.bench.ts
// (when present), load.bench.ts, then measures the web bundle and runs Lighthouse on /login and
// /check (desktop and mobile). A benchmark joins the summary by printing a Markdown table whose
// header is `| measure | target | CM | baseline | ratio |` (see bench/README.md). Benchmarks never
// assert a time: the exit code is non-zero only when one of them crashed.
import { spawn } from 'node:child_process';
import type { Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { measureBundle } from './lib/bundle.ts';
import { audit, type Audit } from './lib/lighthouse.ts';
import { repoRoot } from '../e2e/support/server-process.ts';
import { BENCH_WEB_API_KEY, startBenchServer } from './lib/server-process.ts';
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

async function webAndLighthouse() {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'cm-bench-web-'));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cm-bench-data-'));
  try {
    console.log('\n## web bundle\n');
    const sizes = await measureBundle(outDir);
    summary.push(
      {
        source: 'bundle',
        row: [
          'JS before /login is interactive (gzip)',
          '≤ 170 KB',
          kb(sizes.loginJs),
          `all JS of the build: ${kb(sizes.allJs)}`,
          `${((sizes.loginJs / sizes.allJs) * 100).toFixed(0)} % of it`,
        ],
      },
      {
        source: 'bundle',
        row: [
          'JS the /check route adds (gzip)',
          '≤ 120 KB',
          kb(sizes.checkJs),
          `all JS of the build: ${kb(sizes.allJs)}`,
          `${((sizes.checkJs / sizes.allJs) * 100).toFixed(0)} % of it`,
        ],
      },
    );
    console.log(`login ${kb(sizes.loginJs)}, /check adds ${kb(sizes.checkJs)}, all ${kb(sizes.allJs)}`);

    console.log('\n## Lighthouse (starting the demo server on the embedded database)\n');
    const server = await startBenchServer(
      { CM_DATA_DIR: dataDir, CM_SEED_DEMO: 'auto', CM_WEB_DIST: outDir },
      240_000,
    );
    try {
      // A signed-in client on /check with a meter chosen, as a person lands from a bookmark.
      const signIn = async (origin: string, page: Page) => {
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
      };
      const results = new Map<string, Audit>();
      for (const [page, prepare] of [
        ['/login', undefined],
        ['/check', signIn],
      ] as const) {
        for (const formFactor of ['desktop', 'mobile'] as const) {
          const result = await audit(`${server.url}${page}`, formFactor, prepare);
          if (new URL(result.finalUrl).pathname !== page) {
            throw new Error(
              `Lighthouse on ${page} ended on ${result.finalUrl}: the page was not measured as asked`,
            );
          }
          results.set(`${page} ${formFactor}`, result);
          console.log(
            `${page} ${formFactor}: performance ${result.performance}, CLS ${result.cls.toFixed(3)}, LCP ${result.lcpMs.toFixed(0)} ms, TBT ${result.tbtMs.toFixed(0)} ms`,
          );
        }
      }
      for (const page of ['/login', '/check']) {
        const desktop = results.get(`${page} desktop`);
        const mobile = results.get(`${page} mobile`);
        if (!desktop || !mobile) continue;
        summary.push(
          {
            source: 'lighthouse',
            row: [`${page} performance, desktop`, '≥ 95', String(desktop.performance), '—', '—'],
          },
          {
            source: 'lighthouse',
            row: [
              `${page} performance, mobile (slow 4G, 4× CPU)`,
              '≥ 90',
              String(mobile.performance),
              `desktop ${desktop.performance}`,
              `${(mobile.performance / desktop.performance).toFixed(2)}× desktop`,
            ],
          },
          {
            source: 'lighthouse',
            row: [
              `${page} CLS, desktop / mobile`,
              '≤ 0.02',
              `${desktop.cls.toFixed(3)} / ${mobile.cls.toFixed(3)}`,
              `LCP ${desktop.lcpMs.toFixed(0)} / ${mobile.lcpMs.toFixed(0)} ms`,
              '—',
            ],
          },
        );
      }
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
    await rm(outDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const only = process.env.CM_BENCH_ONLY?.split(',');
  if (!only || only.includes('scripts')) await benchmarkScripts();
  if (!only || only.includes('web')) await webAndLighthouse();
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
