import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@cm/contracts/enums.ts';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../test/test-db.ts';
import { insertLocation, insertMeter, insertReadings, regularReadings } from '../../test/factories.ts';
import type { AuthContext } from '../access/index.ts';
import { CheckService } from '../check/index.ts';

const Q = 15 * 60_000;
const FROM = Date.parse('2026-03-01T00:00:00Z');
const LAST = Date.parse('2026-03-20T00:00:00Z');
const admin: AuthContext = {
  user: { id: 1, email: 'a@x', fullName: 'A', role: Role.Admin, mustChangePassword: false },
  sessionId: 's',
};
let db: Db;
let meterId: number;

beforeAll(async () => {
  db = await createTestDb();
  const location = await insertLocation(db, 'Completeness');
  meterId = await insertMeter(db, {
    meterNumber: 'EM-COMPLETE',
    locationId: location,
    meterInd: 1,
    installedAt: new Date(FROM),
  });
  await insertReadings(
    db,
    meterId,
    regularReadings(FROM, LAST, Q, 1_000, () => 5),
  );
});
afterAll(() => db.close());

const readingsVersion = async () =>
  (
    await db.query<{ v: number }>('SELECT readings_version AS v FROM meters WHERE device_id = $1', [meterId])
  )[0]?.v;

describe('completeness', () => {
  it('changes the meter readings_version on every write to its readings', async () => {
    const versions = [await readingsVersion()];
    await db.query(
      "UPDATE register_readings SET quality = 1 WHERE meter_id = $1 AND read_at = '2026-03-10T00:00:00Z'",
      [meterId],
    );
    versions.push(await readingsVersion());
    await db.query(
      "UPDATE register_readings SET quality = 0 WHERE meter_id = $1 AND read_at = '2026-03-10T00:00:00Z'",
      [meterId],
    );
    versions.push(await readingsVersion());
    expect(new Set(versions).size).toBe(3);
  });

  it('is remembered per process yet follows writes made by another process', async () => {
    const thisProcess = new CheckService(db);
    expect((await thisProcess.meterInfo(admin, 'EM-COMPLETE')).completeUpTo).toBe(
      new Date(LAST).toISOString(),
    );

    // Another process deletes an hour on March 15: the next lookup here sees the gap.
    await db.query(
      "DELETE FROM register_readings WHERE meter_id = $1 AND read_at > '2026-03-15T10:00:00Z' AND read_at < '2026-03-15T11:00:00Z'",
      [meterId],
    );
    expect((await thisProcess.meterInfo(admin, 'EM-COMPLETE')).completeUpTo).toBe('2026-03-15T10:00:00.000Z');

    // And once the hour is filled in again, complete up to the last reading.
    await insertReadings(
      db,
      meterId,
      [1, 2, 3].map((i) => [Date.parse('2026-03-15T10:00:00Z') + i * Q, 0] as const),
    );
    expect((await thisProcess.meterInfo(admin, 'EM-COMPLETE')).completeUpTo).toBe(
      new Date(LAST).toISOString(),
    );
  });

  it('remembers the last reading per process yet shows a reading written by another process at once', async () => {
    const thisProcess = new CheckService(db);
    const before = await thisProcess.meterInfo(admin, 'EM-COMPLETE');
    expect(before.lastReading?.at).toBe(new Date(LAST).toISOString());
    // Another process stores a newer reading: the meter's readings_version moves, the memory follows.
    await insertReadings(db, meterId, [[LAST + Q, 99_999_000] as const]);
    const after = await thisProcess.meterInfo(admin, 'EM-COMPLETE');
    expect(after.lastReading?.at).toBe(new Date(LAST + Q).toISOString());
    expect(after.lastReading?.value).toBeGreaterThan(before.lastReading?.value ?? Infinity);
    // And when it is deleted again, the earlier one is the last once more.
    await db.query('DELETE FROM register_readings WHERE meter_id = $1 AND read_at = $2', [
      meterId,
      new Date(LAST + Q),
    ]);
    expect((await thisProcess.meterInfo(admin, 'EM-COMPLETE')).lastReading?.at).toBe(
      new Date(LAST).toISOString(),
    );
  });
});
