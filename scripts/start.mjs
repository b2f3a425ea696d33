// `npm start`: builds the web app and the server when they are missing or older than their
// sources, then runs the server (plain JavaScript), which serves API and web app from one process.
// Node reads the bundle's source map, so a stack trace names the TypeScript file and line.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { withServerMalloc } from './server-environment.mjs';

const root = path.resolve(import.meta.dirname, '..');
const contracts = path.join(root, 'packages/contracts/src');

/** The newest modification time of a file, or of any file under a folder. */
function newestMtime(dir) {
  if (!statSync(dir).isDirectory()) return statSync(dir).mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Runs `npm run build -w workspace` when `output` is missing or older than any of `sources`. */
function buildIfStale(workspace, output, sources) {
  const isStale =
    !existsSync(output) ||
    Math.max(...sources.filter(existsSync).map(newestMtime)) > statSync(output).mtimeMs;
  if (!isStale) return;
  console.log(`Building ${workspace}…`);
  const result = spawnSync('npm', ['run', 'build', '-w', workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const web = path.join(root, 'apps/web');
buildIfStale('@cm/web', path.join(web, 'dist/index.html'), [
  path.join(web, 'src'),
  path.join(web, 'public'),
  path.join(web, 'index.html'),
  contracts,
]);
const server = path.join(root, 'apps/server');
buildIfStale('@cm/server', path.join(server, 'dist/main.js'), [path.join(server, 'src'), contracts]);

const child = spawn(process.execPath, ['--enable-source-maps', path.join(server, 'dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
  env: withServerMalloc({ NODE_ENV: 'production', ...process.env }),
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
