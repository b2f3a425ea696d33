import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Role } from '@cm/contracts/enums.ts';
import { openDatabase, prepare } from '../bootstrap.ts';
import { loadConfig } from '../config.ts';
import { insertLocation, insertMeter, insertReadings, regularReadings } from '../test/factories.ts';
import { insertUser } from '../test/test-app.ts';
import { openLegacyPglite } from './legacy-pglite.ts';
import { migrate } from './migrate.ts';

// An earlier version kept the embedded database in data/pglite: the first start of the embedded
// PostgreSQL copies it in, so an upgrade loses nothing.

const dir = await mkdtemp(path.join(os.tmpdir(), 'cm-legacy-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('an earlier version’s PGlite data folder', () => {
  it('is copied into the embedded PostgreSQL on first start and kept aside', async () => {
    const legacy = await openLegacyPglite(path.join(dir, 'pglite'));
    await migrate(legacy);
    const userId = await insertUser(legacy, {
      email: 'old@demo.cm',
      password: 'Old!password-1',
      role: Role.Admin,
    });
    const site = await insertLocation(legacy, 'Old site', 'Europe/Lisbon');
    const meter = await insertMeter(legacy, {
      meterNumber: 'OLD-1',
      locationId: site,
      meterInd: 1,
      installedAt: new Date('2025-01-01T00:00:00Z'),
    });
    const from = Date.parse('2025-02-01T00:00:00Z');
    await insertReadings(
      legacy,
      meter,
      regularReadings(from, from + 10 * 86_400_000, 900_000, 5000, () => 7),
    );
    await legacy.close();

    const db = await openDatabase(loadConfig({ CM_DATA_DIR: dir }));
    try {
      const started = await prepare(db, loadConfig({ CM_DATA_DIR: dir }));
      // 10 days of quarter hours, both ends.
      expect(started.legacyReadings).toBe(961);
      expect(await db.query('SELECT id, email FROM users')).toEqual([{ id: userId, email: 'old@demo.cm' }]);
      expect(
        await db.query('SELECT meter_number, time_zone FROM meters JOIN locations l ON l.id = location_id'),
      ).toEqual([{ meter_number: 'OLD-1', time_zone: 'Europe/Lisbon' }]);
      // New rows continue after the copied ids.
      const next = await insertLocation(db, 'New site');
      expect(next).toBeGreaterThan(site);
      expect(existsSync(path.join(dir, 'pglite'))).toBe(false);
      expect(existsSync(path.join(dir, 'pglite.imported', 'PG_VERSION'))).toBe(true);
      // A second start copies nothing again.
      expect((await prepare(db, loadConfig({ CM_DATA_DIR: dir }))).legacyReadings).toBeUndefined();
    } finally {
      await db.close();
    }
  }, 120_000);
});
