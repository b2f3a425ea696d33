import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';

const API_KEY_PLACEHOLDER = '__CM_API_KEY__';

/**
 * In `vite dev` only: fill the API key placeholder of index.html from the key file the
 * server writes into its data folder. In production the server injects the key itself at
 * serve time, so the key never enters the bundle.
 */
function devApiKey(): Plugin {
  return {
    name: 'cm-dev-api-key',
    apply: 'serve',
    transformIndexHtml(html) {
      const dataDir = process.env.CM_DATA_DIR ?? resolve(import.meta.dirname, '../../data');
      const file = resolve(dataDir, 'web-api-key');
      if (!existsSync(file)) return html;
      const key = readFileSync(file, 'utf8').trim();
      const escaped = key.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
      return html.replace(API_KEY_PLACEHOLDER, escaped);
    },
  };
}

/** Where index.html's first paint takes the check page's title and intro, in every language. */
const FIRST_PAINT_TEXTS = '__CM_FIRST_PAINT_TEXTS__';
const FIRST_PAINT_KEYS = { title: 'check.title', intro: 'check.subtitle' } as const;

/**
 * index.html paints a signed-in meter view's title and intro before any script runs (its script
 * at the end of <body>): here the placeholder becomes those two texts of every language, read from
 * the translation files the app itself loads (public/locales), in dev and in the build.
 */
function firstPaintTexts(): Plugin {
  return {
    name: 'cm-first-paint-texts',
    async transformIndexHtml(html) {
      const folder = resolve(import.meta.dirname, 'public/locales');
      const files = (await readdir(folder)).filter((file) => file.endsWith('.json')).sort();
      const texts: Record<string, Record<string, string>> = {};
      for (const file of files) {
        const messages = JSON.parse(await readFile(resolve(folder, file), 'utf8')) as Record<string, unknown>;
        texts[file.slice(0, -'.json'.length)] = Object.fromEntries(
          Object.entries(FIRST_PAINT_KEYS).map(([name, key]) => {
            const text = messages[key];
            if (typeof text !== 'string') throw new Error(`public/locales/${file} has no "${key}"`);
            return [name, text];
          }),
        );
      }
      if (!html.includes(FIRST_PAINT_TEXTS)) throw new Error(`index.html has no ${FIRST_PAINT_TEXTS}`);
      // Inside a <script>: no `<` may close it.
      return html.replace(FIRST_PAINT_TEXTS, () => JSON.stringify(texts).replace(/</g, '\\u003c'));
    },
  };
}

/** zod's JSON Schema modules, which the web app never calls (the server writes the OpenAPI document). */
const ZOD_JSON_SCHEMA =
  /[\\/]zod[\\/]v4[\\/]core[\\/](?:json-schema-processors|to-json-schema|json-schema-generator)\.js$/;

/**
 * Build only: zod's JSON Schema generation is left out of the web bundle (5.4 KB gzip of the check
 * route's own JS, issue 14). zod 4 attaches a JSON Schema method to every schema, so tree shaking
 * cannot drop it; here each of those modules becomes one whose exports, read off the real module,
 * throw when called. `CM_WEB_FULL_ZOD=1 npm run build` keeps zod whole (to debug a build).
 */
function zodWithoutJsonSchema(): Plugin {
  return {
    name: 'cm-zod-without-json-schema',
    apply: (_config, { command }) => command === 'build' && process.env.CM_WEB_FULL_ZOD !== '1',
    enforce: 'pre',
    load: {
      filter: { id: ZOD_JSON_SCHEMA },
      handler(id) {
        const source = readFileSync(id, 'utf8');
        const declared = [...source.matchAll(/^export (?:const|function|class|let) ([\w$]+)/gm)].map(
          (m) => m[1],
        );
        const listed = [...source.matchAll(/^export \{([^}]*)\}/gm)].flatMap((m) =>
          (m[1] ?? '').split(',').map((name) => name.split(' as ').pop()?.trim() ?? ''),
        );
        const names = [...declared, ...listed].filter((name): name is string => Boolean(name));
        const message = JSON.stringify(
          `zod's JSON Schema is not in the web build (${id}): see vite.config.ts`,
        );
        return names
          .map((name) => `export const ${name} = () => { throw new Error(${message}); };`)
          .join('\n');
      },
    },
  };
}

/**
 * The modules a first visit needs at once: the app shell on every page, and on a route's path
 * (or below it) that route's page and layout. Keep in step with src/app/router.tsx; a module
 * that is no longer a chunk of its own fails the build.
 */
const FIRST_VISIT_MODULES = {
  always: ['src/app/app.tsx'],
  routes: {
    '/login': ['src/features/auth/login-page.tsx'],
    '/check': ['src/layout/vertical-layout.tsx', 'src/features/check/check-page.tsx'],
    '/admin': ['src/layout/vertical-layout.tsx', 'src/features/admin/admin-page.tsx'],
  },
};

/**
 * Build only: writes `route-preloads.json`, the JS and CSS files of FIRST_VISIT_MODULES with
 * their static imports (the entry's own are in index.html already). The server adds them to
 * index.html as preloads for the requested path, so that the lazily imported app shell and page
 * load in parallel with the entry instead of one after the other.
 */
function routePreloads(): Plugin {
  return {
    name: 'cm-route-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter(
        (output): output is Rolldown.OutputChunk => output.type === 'chunk',
      );
      const closure = (roots: Rolldown.OutputChunk[], seen = new Set<Rolldown.OutputChunk>()) => {
        for (const chunk of roots) {
          if (seen.has(chunk)) continue;
          seen.add(chunk);
          closure(
            chunk.imports.map((file) => bundle[file]).filter((output) => output?.type === 'chunk'),
            seen,
          );
        }
        return seen;
      };
      const chunkOf = (module: string) => {
        const id = resolve(import.meta.dirname, module);
        const chunk = chunks.find((candidate) => candidate.facadeModuleId === id);
        if (!chunk) this.error(`${module} is not a chunk of its own: update FIRST_VISIT_MODULES`);
        return chunk;
      };
      const loaded = closure(chunks.filter((chunk) => chunk.isEntry));
      const firstVisit = [...FIRST_VISIT_MODULES.always, ...Object.values(FIRST_VISIT_MODULES.routes).flat()];
      const withZod = [...closure(firstVisit.map(chunkOf), new Set(loaded))].find(holdsZod);
      if (withZod)
        this.error(
          `${withZod.fileName} holds zod, and a first visit waits for it: keep the modules the entry, the app shell and the route pages import free of zod (answers' schemas load with their answers)`,
        );
      const filesOf = (modules: string[], before: Set<Rolldown.OutputChunk>) =>
        [...closure(modules.map(chunkOf))]
          .filter((chunk) => !before.has(chunk))
          .flatMap((chunk) => [chunk.fileName, ...(chunk.viteMetadata?.importedCss ?? [])]);
      const always = filesOf(FIRST_VISIT_MODULES.always, loaded);
      const withShell = closure(FIRST_VISIT_MODULES.always.map(chunkOf), new Set(loaded));
      const routes = Object.fromEntries(
        Object.entries(FIRST_VISIT_MODULES.routes).map(([path, modules]) => [
          path,
          filesOf(modules, withShell),
        ]),
      );
      this.emitFile({
        type: 'asset',
        fileName: 'route-preloads.json',
        source: JSON.stringify({ always, routes }),
      });
    },
  };
}

/**
 * Zod (~20 KB gzip) checks answers, so it loads with the first answer a page parses; a first visit
 * (the entry, the app shell, a route's page) never waits for it. This is why the contracts modules
 * the browser reads at start-up (languages.ts, enums.ts, abilities.ts, check-limits.ts) are plain
 * data (issue 38).
 */
function holdsZod(chunk: Rolldown.OutputChunk): boolean {
  return chunk.moduleIds.some((id) => /[\\/]node_modules[\\/]zod[\\/]/.test(id));
}

const COMPRESSIBLE = /\.(?:js|css|json|svg|webmanifest)$/;

/**
 * Build only: writes `<file>.br` and `<file>.gz` next to every text file of the build (public/
 * files included) of 1 KB or more, which the server sends to browsers that accept them.
 * index.html is left out: the server fills it in per request and compresses it itself.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'cm-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    writeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const files = (await readdir(outDir, { recursive: true })).filter(
          (file) => COMPRESSIBLE.test(file) && !file.startsWith('.vite'),
        );
        await Promise.all(
          files.map(async (file) => {
            const path = resolve(outDir, file);
            const source = await readFile(path);
            if (source.length < 1024) return;
            const [br, gz] = await Promise.all([
              promisify(brotliCompress)(source, {
                params: {
                  [zlib.BROTLI_PARAM_QUALITY]: 11,
                  [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
                  [zlib.BROTLI_PARAM_SIZE_HINT]: source.length,
                },
              }),
              promisify(gzip)(source, { level: 9 }),
            ]);
            if (br.length < source.length) await writeFile(`${path}.br`, br);
            if (gz.length < source.length) await writeFile(`${path}.gz`, gz);
          }),
        );
      },
    },
  };
}

export default defineConfig({
  plugins: [zodWithoutJsonSchema(), react(), devApiKey(), firstPaintTexts(), routePreloads(), precompress()],
  // `@/lib/…` instead of `../../lib/…`: features may not reach into each other with relative paths (lint).
  resolve: {
    alias: [
      { find: '@', replacement: resolve(import.meta.dirname, 'src') },
      // zod as the browser may run it: no parser compiled with eval, which the CSP forbids.
      { find: /^zod$/, replacement: resolve(import.meta.dirname, 'src/lib/zod-without-eval.ts') },
    ],
  },
  server: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      preserveEntrySignatures: false,
      output: {
        codeSplitting: {
          // Small shared chunks are copied into the chunks that use them (one module state kept by the
          // runtime): the login page then loads 7 files instead of 26 and /check 11 instead of 47, each
          // a round trip on a phone's HTTP/1.1 connections, and fewer bytes. Chunks with styles stay files,
          // and so do the stars the signed-in layout shares with the check page and Mantine's Popover
          // (with the inputs, transitions and focus trap that come with it), shared by the layout's
          // user menu and the lookup's suggestions: copied, a page would load again what the layout
          // has already loaded (Popover: 13 KB gzip more before /check's first paint).
          experimentalInlineCommonChunks: {
            maxSize: 40_000,
            exclude:
              /\.css(\?|$)|[\\/]src[\\/]components[\\/](bookmark-toggle|suggestion-title)\.|[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]Popover[\\/]/,
          },
        },
      },
    },
  },
});
