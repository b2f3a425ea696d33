// `npm run dev`: the server with reload on :3000 and Vite's dev server (which proxies /api to it).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { withServerMalloc } from './server-environment.mjs';

const root = path.resolve(import.meta.dirname, '..');
const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    stdio: 'inherit',
    env: withServerMalloc({ NODE_ENV: 'development', ...process.env }),
  }),
  spawn('npm', ['run', 'dev', '-w', '@cm/web'], { cwd: root, stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
