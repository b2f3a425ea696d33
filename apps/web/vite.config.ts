import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

export default defineConfig({
  plugins: [react(), devApiKey()],
  // `@/lib/…` instead of `../../lib/…`: features may not reach into each other with relative paths (lint).
  resolve: { alias: { '@': resolve(import.meta.dirname, 'src') } },
  server: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
});
