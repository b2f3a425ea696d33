import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot } from '../../e2e/support/server-process.ts';

interface ManifestEntry {
  file: string;
  imports?: string[];
}
type Manifest = Record<string, ManifestEntry>;

/**
 * The modules a route loads one after the other, each with its static imports. `checkPanels`, the
 * readings' panels (chart with uPlot, table, totals), and `checkParsers`, the schemas of its answers
 * (with zod), load once a meter is asked for: they count as the check route's own.
 */
export const ROUTE_ROOTS = {
  entry: 'index.html',
  shell: 'src/app/app.tsx',
  login: 'src/features/auth/login-page.tsx',
  layout: 'src/layout/vertical-layout.tsx',
  check: 'src/features/check/check-page.tsx',
  checkPanels: 'src/features/check/readings-section.tsx',
  checkParsers: 'src/features/check/model/parse-readings.ts',
} as const;

/**
 * Builds apps/web as `npm run build` does, plus a Vite manifest, into `outDir` (a folder of the
 * benchmark's own: apps/web/dist may be rebuilt by a test run meanwhile).
 */
export function buildWeb(outDir: string): void {
  // The web app's own Vite, wherever npm placed it (hoisted to the root or kept in apps/web).
  const webRequire = createRequire(path.join(repoRoot, 'apps/web/package.json'));
  const vite = path.join(path.dirname(webRequire.resolve('vite/package.json')), 'bin/vite.js');
  execFileSync(
    process.execPath,
    [vite, 'build', '--manifest', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: path.join(repoRoot, 'apps/web'), stdio: 'inherit' },
  );
}

export interface JsShare {
  /** gzip -9 bytes of the JavaScript files. */
  gzip: number;
  files: number;
}

/**
 * The JavaScript `roots` load (with their static imports) beyond what the `before` roots already
 * loaded, as gzip -9 bytes. One definition for `npm run bench` and check-page.bench.ts.
 */
export async function jsShare(distDir: string, roots: string[], before: string[] = []): Promise<JsShare> {
  const manifest = JSON.parse(await readFile(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const closure = (keys: string[]) => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key)) return;
      if (!manifest[key]) throw new Error(`${key} is not in the Vite manifest: update bench/lib/bundle.ts`);
      seen.add(key);
      for (const dep of manifest[key]?.imports ?? []) visit(dep);
    };
    keys.forEach(visit);
    return seen;
  };
  const loaded = new Set([...closure(before)].map((key) => manifest[key]?.file));
  const files = [...new Set([...closure(roots)].map((key) => manifest[key]?.file ?? ''))].filter(
    (file) => file.endsWith('.js') && !loaded.has(file),
  );
  let gzip = 0;
  for (const file of files) gzip += gzipSync(await readFile(path.join(distDir, file)), { level: 9 }).length;
  return { gzip, files: files.length };
}

export interface BundleSizes {
  /** Before /login is interactive: entry, app shell and login page. Target ≤ 170 KB. */
  login: JsShare;
  /** What the signed-in layout adds to that (no target: shared by every signed-in page). */
  layout: JsShare;
  /** The check route's own: what the check page adds to entry, app shell, login and layout. Target ≤ 120 KB. */
  check: JsShare;
  /** Of `check`, what its first paint waits for (the page; the panels, parsers and zod come with the first meter asked for). */
  checkPage: JsShare;
  /** Every JavaScript file of the build (the baseline the others are compared with). */
  all: JsShare;
}

/** The JavaScript shares of a build made by `buildWeb`. */
export async function measureBundle(distDir: string): Promise<BundleSizes> {
  const { entry, shell, login, layout, check, checkPanels, checkParsers } = ROUTE_ROOTS;
  const manifest = JSON.parse(await readFile(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  return {
    login: await jsShare(distDir, [entry, shell, login]),
    layout: await jsShare(distDir, [layout], [entry, shell, login]),
    check: await jsShare(distDir, [check, checkPanels, checkParsers], [entry, shell, login, layout]),
    checkPage: await jsShare(distDir, [check], [entry, shell, login, layout]),
    all: await jsShare(distDir, Object.keys(manifest)),
  };
}
