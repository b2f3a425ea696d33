// Sums the gzip size of the JavaScript needed before the login page is interactive:
// the entry, the lazy app chunk and the lazy login page chunk, with all their static imports.
// Usage: npx vite build --manifest && node scripts/measure-bundle.mjs
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { resolve } from 'node:path';

const dist = resolve(import.meta.dirname, '../dist');
const manifest = JSON.parse(readFileSync(resolve(dist, '.vite/manifest.json'), 'utf8'));
const byFile = new Map(Object.entries(manifest));
const roots = ['index.html', 'src/app/app.tsx', 'src/features/auth/login-page.tsx'];
const seen = new Set();
function visit(key) {
  if (seen.has(key)) return;
  seen.add(key);
  for (const dep of byFile.get(key)?.imports ?? []) visit(dep);
}
for (const root of roots) visit(root);
let total = 0;
const rows = [];
for (const key of seen) {
  const file = byFile.get(key)?.file;
  if (!file?.endsWith('.js')) continue;
  const size = gzipSync(readFileSync(resolve(dist, file)), { level: 9 }).length;
  total += size;
  rows.push([file, size]);
}
rows.sort((a, b) => b[1] - a[1]);
for (const [file, size] of rows) console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
console.log(
  `${(total / 1024).toFixed(1).padStart(7)} KB  total before the login page is interactive (gzip -9)`,
);
