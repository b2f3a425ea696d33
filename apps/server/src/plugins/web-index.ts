import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { z } from 'zod';

const API_KEY_PLACEHOLDER = '__CM_API_KEY__';
/** Written by the web build (apps/web/vite.config.ts): the chunks a first visit to a path needs. */
export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

export type Encoding = 'br' | 'gzip';

const assetFiles = z.array(z.string().regex(/^[\w./-]+$/));
/** The build's preload lists: `always` for every page, `routes` by path (a path also covers its sub-paths). */
const routePreloadsSchema = z.object({
  always: assetFiles,
  routes: z.record(z.string().startsWith('/'), assetFiles),
});
type RoutePreloads = z.infer<typeof routePreloadsSchema>;

interface IndexPage {
  html: string;
  compressed: Partial<Record<Encoding, Promise<Buffer>>>;
}

/** index.html as sent: the body (compressed when asked) and the hashes of its inline scripts. */
export interface ServedPage {
  body: string | Buffer;
  scriptHashes: string[];
}

/** CSP source expressions (`'sha256-…'`) for the inline `<script>` blocks of `html`. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, code = '']) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`,
  );
}

/**
 * A Content-Security-Policy header value that also allows the scripts with these hashes (and no
 * other inline script): added to `script-src`, or to a `script-src` copied from `default-src`.
 */
export function withScriptHashes(policy: string, hashes: string[]): string {
  if (hashes.length === 0) return policy;
  const directives = policy.split(';').map((directive) => directive.trim());
  const index = directives.findIndex((directive) => directive.startsWith('script-src '));
  if (index >= 0) directives[index] = `${directives[index]} ${hashes.join(' ')}`;
  else {
    const fallback =
      directives.find((directive) => directive.startsWith('default-src ')) ?? "default-src 'self'";
    directives.push(`script-src ${fallback.slice('default-src '.length)} ${hashes.join(' ')}`);
  }
  return directives.join(';');
}

const compressors: Record<Encoding, (html: string) => Promise<Buffer>> = {
  br: (html) =>
    promisify(brotliCompress)(html, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
    }),
  gzip: (html) => promisify(gzip)(html, { level: 9 }),
};

/**
 * The encoding to answer with for an Accept-Encoding header: brotli, else gzip, else none
 * (`identity`). A coding with `q=0` is refused; `*` stands for any coding not listed.
 */
export function pickEncoding(header: string | string[] | undefined): Encoding | undefined {
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((param) => param.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) : 1);
  }
  const weight = (coding: Encoding) => accepted.get(coding) ?? accepted.get('*') ?? 0;
  const best = (['br', 'gzip'] as const).filter((coding) => weight(coding) > 0);
  return best.sort((a, b) => weight(b) - weight(a))[0];
}

function preloadLink(file: string): string {
  const href = `/${file.replace(/^\//, '')}`;
  // `crossorigin` as Vite's own loader asks for them, or the browser would fetch each twice.
  return href.endsWith('.css')
    ? `<link rel="preload" as="style" crossorigin fetchpriority="low" href="${href}">`
    : `<link rel="modulepreload" crossorigin fetchpriority="low" href="${href}">`;
}

/**
 * The first paint (the loading placeholder, inline in index.html) needs no script: the entry
 * script and its module preloads are fetched at low priority, which tells the browser (and
 * Lighthouse's simulation, which takes every high-priority script that arrived before the first
 * paint for one that held it back) that they do not block rendering. Nothing else competes with
 * them for the connection: they still start at once.
 */
export function withLowPriorityScripts(html: string): string {
  return html.replace(
    /<(script type="module"|link rel="modulepreload")(?![^>]*fetchpriority)/g,
    '<$1 fetchpriority="low"',
  );
}

/**
 * index.html as served: the API key filled in and, for the requested path, preload links for
 * the chunks its first paint needs (so that they load in parallel with the entry instead of one
 * lazy import after the other). Pages and their compressed forms are kept until a new build
 * replaces index.html.
 */
export class WebIndex {
  private build:
    { mtimeMs: number; template: string; preloads: RoutePreloads; scriptHashes: string[] } | undefined;
  private pages = new Map<string, IndexPage>();

  constructor(
    private readonly distDir: string,
    private readonly apiKey: string,
  ) {}

  /** False when there is no build (yet). */
  async exists(): Promise<boolean> {
    return (await this.current()) !== undefined;
  }

  /** The page for `pathname`, in `encoding` when given, or undefined when there is no build. */
  async page(pathname: string, encoding: Encoding | undefined): Promise<ServedPage | undefined> {
    const build = await this.current();
    if (!build) return undefined;
    const route = Object.keys(build.preloads.routes).find(
      (prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`),
    );
    const key = route ?? '';
    let page = this.pages.get(key);
    if (!page) {
      const files = [...build.preloads.always, ...(route ? (build.preloads.routes[route] ?? []) : [])];
      const links = [...new Set(files)].map(preloadLink).join('');
      page = { html: build.template.replace('</head>', `${links}</head>`), compressed: {} };
      this.pages.set(key, page);
    }
    const { scriptHashes } = build;
    if (!encoding) return { body: page.html, scriptHashes };
    page.compressed[encoding] ??= compressors[encoding](page.html);
    return { body: await page.compressed[encoding], scriptHashes };
  }

  private async current() {
    const indexFile = path.join(this.distDir, 'index.html');
    const info = await stat(indexFile).catch(() => undefined);
    if (!info) return undefined;
    if (this.build?.mtimeMs !== info.mtimeMs) {
      const template = withLowPriorityScripts(
        (await readFile(indexFile, 'utf8')).replaceAll(API_KEY_PLACEHOLDER, this.apiKey),
      );
      this.build = {
        mtimeMs: info.mtimeMs,
        template,
        preloads: await readPreloads(this.distDir),
        scriptHashes: inlineScriptHashes(template),
      };
      this.pages.clear();
    }
    return this.build;
  }
}

/** The build's preload lists; none when the file is absent or not what the build writes. */
async function readPreloads(distDir: string): Promise<RoutePreloads> {
  const text = await readFile(path.join(distDir, ROUTE_PRELOADS_FILE), 'utf8').catch(() => undefined);
  let json: unknown;
  try {
    json = text === undefined ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = routePreloadsSchema.safeParse(json);
  return parsed.success ? parsed.data : { always: [], routes: {} };
}
