import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../test/test-db.ts';
import type { Db } from './client.ts';
import { migrate } from './migrate.ts';

const shipped = fileURLToPath(new URL('./migrations', import.meta.url));
let db: Db;
beforeAll(async () => {
  db = await createTestDb(); // already migrated from empty
});
afterAll(() => db.close());

async function tableNames(): Promise<string[]> {
  const rows = await db.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
  );
  return rows.map((row) => row.table_name);
}

describe('migrations', () => {
  it('create the whole schema from empty and are idempotent', async () => {
    expect(await tableNames()).toEqual([
      'api_keys',
      'audit_log',
      'bookmarks',
      'devices',
      'locations',
      'login_throttle',
      'meters',
      'reading_chunks',
      'readings',
      'roles',
      'sessions',
      'settings',
      'user_locations',
      'users',
    ]);
    expect(await db.query('SELECT id, name FROM roles ORDER BY id')).toEqual([
      { id: 1, name: 'Admin' },
      { id: 2, name: 'Client' },
    ]);
    expect(await migrate(db)).toEqual({ applied: 0 });
    const pk = await db.query<{ def: string }>(
      "SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'readings'::regclass AND contype = 'p'",
    );
    expect(pk[0]?.def).toBe('PRIMARY KEY (meter_id, read_at)');
  });

  it('leave the schema untouched when a migration fails half-way', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'cm-migrations-'));
    await cp(shipped, folder, { recursive: true });
    const journalFile = path.join(folder, 'meta/_journal.json');
    const journal = JSON.parse(await readFile(journalFile, 'utf8'));
    const last = journal.entries[journal.entries.length - 1];
    journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag: '9999_broken' });
    await writeFile(journalFile, JSON.stringify(journal));
    await writeFile(
      path.join(folder, '9999_broken.sql'),
      'CREATE TABLE half_done (id int);\n--> statement-breakpoint\nALTER TABLE no_such_table ADD COLUMN x int;',
    );
    await expect(migrate(db, folder)).rejects.toThrow(/no_such_table/);
    expect(await tableNames()).not.toContain('half_done');
    const applied = await db.query('SELECT hash FROM drizzle.__drizzle_migrations');
    expect(applied).toHaveLength(journal.entries.length - 1);
  });
});
