import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import { extract } from 'tar-fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

// Which Chromium the browser suite and the benchmarks drive. Nothing is ever downloaded: the order
// is CM_CHROMIUM, a Chrome or Chromium installed on the system that starts, then the Chromium inside
// the npm package @sparticuz/chromium (Linux x64; unpacked once into node_modules/.cache).

export interface FoundChromium {
  executablePath: string;
  /** Where it came from, as the suite prints it. */
  source: string;
  /** Environment the browser needs on top of this process's (libraries, fonts). */
  env: Record<string, string>;
}

const SYSTEM_BROWSERS: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/snap/bin/chromium',
  ],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ],
  win32: [
    `${process.env.PROGRAMFILES ?? 'C:\\Program Files'}\\Google\\Chrome\\Application\\chrome.exe`,
    `${process.env['PROGRAMFILES(X86)'] ?? 'C:\\Program Files (x86)'}\\Google\\Chrome\\Application\\chrome.exe`,
  ],
};

const repoRoot = path.resolve(import.meta.dirname, '../..');
const NPM_PACKAGE = '@sparticuz/chromium';

/** Whether `binary --version` runs and exits 0 within 20 s (with `env` on top). */
function starts(binary: string, env: Record<string, string> = {}): boolean {
  if (!existsSync(binary)) return false;
  const result = spawnSync(binary, ['--version'], {
    stdio: 'ignore',
    timeout: 20_000,
    env: { ...process.env, ...env },
  });
  return result.status === 0;
}

/** Inflates a brotli file of the npm package (a tar when `tarInto` is given) into the cache. */
async function inflate(file: string, target: string, tarInto?: string): Promise<void> {
  const bytes = await promisify(brotliDecompress)(await readFile(file));
  if (tarInto === undefined) {
    await writeFile(target, bytes, { mode: 0o755 });
    return;
  }
  await pipeline(Readable.from([bytes]), extract(tarInto));
}

/** The installed package's folder (wherever npm put it), or undefined. */
function npmPackageDir(): string | undefined {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(NPM_PACKAGE);
  } catch {
    return undefined;
  }
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'bin', 'chromium.br'))) return dir;
  }
  return undefined;
}

/**
 * The npm package's Chromium, unpacked into node_modules/.cache/cm-chromium/<version> the first time
 * (into a temporary folder renamed when whole, so that a cut run leaves no half browser).
 */
async function npmChromium(): Promise<FoundChromium | undefined> {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  const packageDir = npmPackageDir();
  if (packageDir === undefined) return undefined;
  const { version } = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const cache = path.join(repoRoot, 'node_modules/.cache/cm-chromium', version);
  const binary = path.join(cache, 'chromium');
  if (!existsSync(binary)) {
    await mkdir(path.dirname(cache), { recursive: true });
    const building = await mkdtemp(`${cache}.unpacking-`);
    const bin = path.join(packageDir, 'bin');
    await inflate(path.join(bin, 'chromium.br'), path.join(building, 'chromium'));
    await inflate(path.join(bin, 'al2023.tar.br'), '', building);
    await inflate(path.join(bin, 'fonts.tar.br'), '', building);
    await rename(building, cache).catch(async (error: unknown) => {
      // Another run unpacked it meanwhile.
      await rm(building, { recursive: true, force: true });
      if (!existsSync(binary)) throw error;
    });
  }
  // Its own copies of NSS and expat, used only where the system has none; its fonts where the
  // system has no font configuration.
  const env: Record<string, string> = {};
  if (!starts(binary)) {
    env.LD_LIBRARY_PATH = [path.join(cache, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  }
  if (!existsSync('/etc/fonts/fonts.conf')) env.FONTCONFIG_PATH = cache;
  if (!starts(binary, env)) return undefined;
  return { executablePath: binary, source: `npm package ${NPM_PACKAGE} ${version}`, env };
}

/** The Chromium to drive, or an error that says what was tried and how to provide one. */
export async function findChromium(): Promise<FoundChromium> {
  const named = process.env.CM_CHROMIUM;
  if (named) {
    if (!starts(named)) throw new Error(`CM_CHROMIUM names ${named}, which does not start.`);
    return { executablePath: named, source: `CM_CHROMIUM (${named})`, env: {} };
  }
  const tried = SYSTEM_BROWSERS[process.platform] ?? [];
  const system = tried.find((binary) => starts(binary));
  if (system) return { executablePath: system, source: `system browser ${system}`, env: {} };
  const packaged = await npmChromium();
  if (packaged) return packaged;
  throw new Error(
    `No Chromium found: CM_CHROMIUM is not set, none of ${tried.join(', ') || '(no known paths on this system)'} starts, and the npm package ${NPM_PACKAGE} has no browser for ${process.platform}-${process.arch}. Install Chrome or Chromium, or set CM_CHROMIUM to its executable.`,
  );
}
