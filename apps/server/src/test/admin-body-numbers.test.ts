import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@cm/contracts/enums.ts';
import { createTestApp, insertUser, type TestApp } from './test-app.ts';
import { insertDevice, insertLocation, insertMeter } from './factories.ts';

// JSON bodies carry JSON numbers: a number sent as a string ("2") is refused with 400 naming the
// field, and nothing changes. (Query strings and paths carry text only; there numbers are read from text.)

let t: TestApp;
let admin: string;
let clientId: number;
let harbour: number;
let accessPoint: number;
let cube: number;

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  clientId = await insertUser(t.db, { email: 'client@test.cm', password: 'Client!pass1' });
  harbour = await insertLocation(t.db, 'Harbour', 'Europe/Berlin');
  accessPoint = await insertDevice(t.db, { type: 1, serial: 'AP-1', locationId: harbour });
  cube = await insertDevice(t.db, { type: 2, serial: 'CUBE-1', locationId: harbour, parentId: accessPoint });
  await insertMeter(t.db, {
    meterNumber: 'EM-1',
    locationId: harbour,
    meterInd: 1,
    cubeId: cube,
    installedAt: new Date('2026-01-01T00:00:00Z'),
  });
  admin = (await t.login('admin@test.cm', 'Admin!pass1')).token;
});
afterAll(() => t.close());

const TABLES = [
  'users',
  'user_locations',
  'locations',
  'devices',
  'meters',
  'register_readings',
  'interval_readings',
  'audit_log',
];
const snapshot = async () =>
  Object.fromEntries(
    await Promise.all(
      TABLES.map(async (table) => [table, await t.db.query(`SELECT * FROM ${table} ORDER BY 1, 2`)]),
    ),
  );

/** Every admin create/edit body that holds numbers: a valid body and its number fields. */
const bodies = (): Array<[method: 'POST' | 'PATCH', url: string, body: Record<string, unknown>]> => [
  [
    'POST',
    '/api/admin/users',
    { email: 'new@test.cm', fullName: 'New', role: 2, password: 'long-enough-1', locationIds: [harbour] },
  ],
  ['PATCH', `/api/admin/users/${clientId}`, { role: 2, locationIds: [harbour] }],
  [
    'POST',
    '/api/admin/devices',
    { type: 2, serial: 'CUBE-2', locationId: harbour, parentId: accessPoint, priority: 2 },
  ],
  ['PATCH', `/api/admin/devices/${cube}`, { parentId: accessPoint, priority: 3 }],
  [
    'POST',
    '/api/admin/meters',
    {
      meterNumber: 'EM-2',
      locationId: harbour,
      cubeId: cube,
      meterInd: 2,
      multiplier: 2,
      registerDigits: 7,
      intervalMinutes: 30,
      installedAt: '2026-01-01T00:00:00Z',
      priority: 2,
    },
  ],
  [
    'PATCH',
    '/api/admin/meters/EM-1',
    { meterInd: 3, multiplier: 2, registerDigits: 7, intervalMinutes: 30, priority: 2 },
  ],
  ['POST', '/api/admin/meters/EM-1/move', { cubeId: cube }],
  [
    'POST',
    '/api/admin/meters/EM-1/exchange',
    {
      at: '2026-02-01T00:00:00Z',
      finalRegister: 12.5,
      newMeterNumber: 'EM-1B',
      newStartRegister: 0.5,
      newMultiplier: 2,
      newRegisterDigits: 7,
    },
  ],
];

describe('admin bodies take JSON numbers only', () => {
  it('answers 400 naming the field for each number sent as a numeric string, and changes nothing', async () => {
    const before = await snapshot();
    let cases = 0;
    for (const [method, url, body] of bodies()) {
      for (const [field, value] of Object.entries(body)) {
        const isList = Array.isArray(value);
        if (typeof value !== 'number' && !isList) continue;
        const asText = isList ? value.map(String) : String(value);
        const response = await t.call(method, url, { token: admin, body: { ...body, [field]: asText } });
        const label = `${method} ${url} ${field}: ${JSON.stringify(asText)}`;
        expect(response.statusCode, label).toBe(400);
        expect(response.json(), label).toMatchObject({ param: isList ? `${field}.0` : field });
        expect(response.json<{ message: string }>().message, label).toContain(field);
        cases++;
      }
    }
    expect(cases).toBe(27);
    expect(await snapshot()).toEqual(before);
  });

  it('accepts the same bodies with JSON numbers (so each refusal above was the string)', async () => {
    for (const [method, url, body] of bodies()) {
      const response = await t.call(method, url, { token: admin, body });
      expect(response.statusCode, `${method} ${url} ${response.body}`).toBeLessThan(300);
    }
  });

  it('still reads numbers from query strings and paths, where they can only be text', async () => {
    const response = await t.call(
      'GET',
      `/api/admin/devices?locationId=${harbour}&type=1&priority=1&page=1&pageSize=5`,
      { token: admin },
    );
    expect(response.statusCode).toBe(200);
    expect(response.json<{ items: Array<{ id: number }> }>().items.map((d) => d.id)).toEqual([accessPoint]);
    expect((await t.call('GET', `/api/admin/users?role=2`, { token: admin })).statusCode).toBe(200);
  });
});
