import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot } from '../../e2e/support/server-process.ts';

interface ManifestEntry {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

export interface BundleSizes {
  /** gzip bytes of the JS needed before /login is interactive: entry, app shell and login page, with their static imports. */
  loginJs: number;
  /** gzip bytes the /check route adds on top of that: the check page and layout chunks and their imports not loaded yet. */
  checkJs: number;
  /** gzip bytes of every JS file of the build (the baseline the two are compared with). */
  allJs: number;
  outDir: string;
}

const LOGIN_ROOTS = ['index.html', 'src/app/app.tsx', 'src/features/auth/login-page.tsx'];
const CHECK_ROOTS = ['src/layout/vertical-layout.tsx', 'src/features/check/check-page.tsx'];

/** Builds apps/web into `outDir` with a Vite manifest (never into apps/web/dist, which others use) and measures it. */
export async function measureBundle(outDir: string): Promise<BundleSizes> {
  execFileSync(
    'npx',
    ['vite', 'build', '--manifest', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: path.join(repoRoot, 'apps/web'),
      stdio: 'inherit',
    },
  );
  const manifest = JSON.parse(await readFile(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestEntry
  >;
  const closure = (roots: string[]) => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || !manifest[key]) return;
      seen.add(key);
      for (const dep of manifest[key]?.imports ?? []) visit(dep);
    };
    for (const root of roots) {
      if (!manifest[root]) throw new Error(`${root} is not in the Vite manifest: update bench/lib/bundle.ts`);
      visit(root);
    }
    return seen;
  };
  const gzipOf = async (keys: Iterable<string>) => {
    const files = new Set(
      [...keys].map((key) => manifest[key]?.file).filter((file): file is string => !!file?.endsWith('.js')),
    );
    let total = 0;
    for (const file of files) total += gzipSync(await readFile(path.join(outDir, file)), { level: 9 }).length;
    return total;
  };
  const login = closure(LOGIN_ROOTS);
  const check = [...closure(CHECK_ROOTS)].filter((key) => !login.has(key));
  return {
    loginJs: await gzipOf(login),
    checkJs: await gzipOf(check),
    allJs: await gzipOf(Object.keys(manifest)),
    outDir,
  };
}
