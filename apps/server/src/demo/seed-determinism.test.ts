import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../test/test-db.ts';
import type { Db } from '../db/client.ts';
import { isDatabaseEmpty, seedDemo } from './seed.ts';

// Two months are enough to compare databases row by row; seed.test.ts covers the full 13 months.
const OPTIONS = { seed: 11, now: new Date('2026-05-10T13:07:00Z'), months: 2 };

// Every table the seed writes, with its key order. Password hashes are left out: argon2 salts each
// one at random, which is what makes them safe; that they verify is tested in seed.test.ts.
const TABLES: Record<string, string> = {
  roles: 'SELECT * FROM roles ORDER BY id',
  users:
    'SELECT id, email, full_name, role_id, is_disabled, must_change_password, last_login_at, created_at FROM users ORDER BY id',
  locations: 'SELECT * FROM locations ORDER BY id',
  tariffs: 'SELECT * FROM tariffs ORDER BY id',
  alert_rules: 'SELECT * FROM alert_rules ORDER BY id',
  user_locations: 'SELECT * FROM user_locations ORDER BY user_id, location_id',
  devices: 'SELECT * FROM devices ORDER BY id',
  meters: 'SELECT * FROM meters ORDER BY device_id',
  register_readings: 'SELECT * FROM register_readings ORDER BY meter_id, channel, read_at',
  bookmarks: 'SELECT * FROM bookmarks ORDER BY user_id, item_id',
  settings: 'SELECT * FROM settings ORDER BY key',
};

async function checksums(db: Db): Promise<Record<string, string>> {
  return db.transaction(async (tx) => {
    // Timestamps print in the session time zone; UTC makes the text independent of the server's setting.
    await tx.query("SET LOCAL TimeZone = 'UTC'");
    const result: Record<string, string> = {};
    for (const [table, select] of Object.entries(TABLES)) {
      const rows = await tx.query<{ sum: string; n: number }>(
        `SELECT md5(coalesce(string_agg(t::text, E'\\n'), '')) AS sum, count(*)::int AS n FROM (${select}) t`,
      );
      result[table] = `${rows[0]?.n ?? 0}:${rows[0]?.sum ?? ''}`;
    }
    return result;
  });
}

let first: Db;
let second: Db;
let other: Db;

beforeAll(async () => {
  [first, second, other] = await Promise.all([createTestDb(), createTestDb(), createTestDb()]);
  for (const db of [first, second, other]) expect(await isDatabaseEmpty(db)).toBe(true);
  await seedDemo(first, OPTIONS);
  await seedDemo(second, OPTIONS);
  await seedDemo(other, { ...OPTIONS, seed: 12 });
});
afterAll(async () => {
  await Promise.all([first, second, other].map((db) => db?.close()));
});

describe('demo seed determinism', () => {
  it('writes identical tables for the same seed and now', async () => {
    const a = await checksums(first);
    expect(a.register_readings).toMatch(/^[1-9]\d{4,}:/);
    expect(await checksums(second)).toEqual(a);
  });

  it('writes different readings for another seed, on the same site', async () => {
    const a = await checksums(first);
    const c = await checksums(other);
    expect(c.register_readings).not.toBe(a.register_readings);
    expect(c.locations).toBe(a.locations);
  });
});

describe('demo seed atomicity', () => {
  it('leaves nothing behind when it fails half-way', async () => {
    const db = await createTestDb();
    try {
      // The settings marker is the seed's last insert: a clash there fails the seed after all its readings.
      await db.query(`INSERT INTO settings (key, value) VALUES ('demo_seed', '"taken"')`);
      await expect(seedDemo(db, { ...OPTIONS, months: 1 })).rejects.toThrow();
      const left = await db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM locations) + (SELECT count(*) FROM devices)
              + (SELECT count(*) FROM register_readings) AS n`,
      );
      expect(left).toEqual([{ n: 0 }]);
      expect(await isDatabaseEmpty(db)).toBe(true);
    } finally {
      await db.close();
    }
  });
});
