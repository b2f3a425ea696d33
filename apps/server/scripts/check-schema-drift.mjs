// The schema (src/db/schema.ts) and the committed migrations agree: drizzle-kit checks the
// migrations' snapshots, then generates from schema.ts into a copy of the migrations folder, where
// any new migration means schema.ts changed without one (run `npm run db:generate -w @cm/server`).
// Run by `npm run lint`; exits 1 on drift, printing the SQL a migration would need.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const migrations = path.join(serverRoot, 'src/db/migrations');

/** drizzle-kit, run in the server's folder; `out` must be relative (drizzle-kit prefixes "./"). */
function drizzleKit(command, out) {
  const result = spawnSync(
    'npx',
    [
      'drizzle-kit',
      command,
      '--dialect',
      'postgresql',
      ...(command === 'generate' ? ['--schema', './src/db/schema.ts'] : []),
      '--out',
      path.relative(serverRoot, out),
    ],
    { cwd: serverRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 },
  );
  if (result.status !== 0)
    throw new Error(`drizzle-kit ${command} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

drizzleKit('check', migrations);
const scratch = mkdtempSync(path.join(tmpdir(), 'cm-schema-drift-'));
try {
  const copy = path.join(scratch, 'migrations');
  cpSync(migrations, copy, { recursive: true });
  const before = new Set(readdirSync(copy));
  drizzleKit('generate', copy);
  const added = readdirSync(copy).filter((name) => !before.has(name) && name.endsWith('.sql'));
  if (added.length > 0) {
    console.error(
      'schema.ts differs from the migrations: it needs a migration (npm run db:generate -w @cm/server):',
    );
    for (const name of added) console.error(`\n-- ${name}\n${readFileSync(path.join(copy, name), 'utf8')}`);
    process.exitCode = 1;
  } else console.log('schema drift: none, schema.ts matches the migrations');
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
