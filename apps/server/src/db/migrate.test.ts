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
    // Parent tables only: the readings tables' monthly partitions come and go with the data.
    `SELECT c.relname AS table_name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
  );
  return rows.map((row) => row.table_name);
}

describe('migrations', () => {
  it('create the whole schema from empty and are idempotent', async () => {
    expect(await tableNames()).toEqual([
      'alert_episodes',
      'alert_notifications',
      'alert_preferences',
      'alert_rules',
      'api_keys',
      'audit_log',
      'bookmarks',
      'carbon_points',
      'carbon_series',
      'connect_apps',
      'connect_grants',
      'devices',
      'espi_notifications',
      'import_jobs',
      'import_mappings',
      'interval_readings',
      'location_carbon',
      'locations',
      'login_addresses',
      'login_throttle',
      'meter_access_log',
      'meter_nicknames',
      'meters',
      'oauth_artefacts',
      'price_points',
      'price_series',
      'reading_chunk_queue',
      'reading_chunks',
      'reading_revisions',
      'register_readings',
      'roles',
      'sessions',
      'settings',
      'tariffs',
      'user_locations',
      'users',
      'webhook_deliveries',
      'webhooks',
    ]);
    expect(await db.query('SELECT id, name FROM roles ORDER BY id')).toEqual([
      { id: 1, name: 'Admin' },
      { id: 2, name: 'Client' },
    ]);
    expect(await migrate(db)).toEqual({ applied: 0 });
    const pk = async (table: string) =>
      (
        await db.query<{ def: string }>(
          `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = '${table}'::regclass AND contype = 'p'`,
        )
      )[0]?.def;
    expect(await pk('register_readings')).toBe('PRIMARY KEY (meter_id, channel, read_at)');
    expect(await pk('interval_readings')).toBe('PRIMARY KEY (meter_id, channel, start_at)');
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
