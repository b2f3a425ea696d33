import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// ARCHITECTURE.md's table of server modules names every module folder and every table of the
// schema, so that a new module or table cannot arrive without its line.

const root = path.resolve(import.meta.dirname, '..');
const architecture = readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8');
/** The rows of the table whose header starts `| module`, by their first cell. */
const moduleRows = new Map(
  architecture
    .slice(architecture.indexOf('| module'))
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => [/^\| `([^`]+)`/.exec(line)?.[1] ?? '', line]),
);

describe('ARCHITECTURE.md', () => {
  it('has a row for every server module', () => {
    const modules = readdirSync(path.join(root, 'apps/server/src/modules'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect([...moduleRows.keys()].sort()).toEqual(modules);
  });

  it('names every table of the schema', () => {
    const schema = readFileSync(path.join(root, 'apps/server/src/db/schema.ts'), 'utf8');
    const tables = [...schema.matchAll(/pgTable\(\s*'([a-z_]+)'/g)].map((match) => match[1]);
    expect(tables.length).toBeGreaterThan(20);
    const unnamed = tables.filter((table) => !architecture.includes(`\`${table}\``));
    expect(unnamed).toEqual([]);
  });
});
