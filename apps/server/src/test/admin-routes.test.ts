import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AdminApiKey,
  AdminDevice,
  AdminLocation,
  AdminUser,
  AuditList,
  DeviceTree,
  UserList,
} from '@cm/contracts/admin.ts';
import { API_KEY_HEADER, Role } from '@cm/contracts/enums.ts';
import { createTestApp, insertUser, readingsAnswer, type TestApp } from './test-app.ts';
import { insertLocation, insertReadings, linkUserToLocation, regularReadings } from './factories.ts';

let t: TestApp;
let admin: string;
let client: string;
let adminId: number;
let clientId: number;
let harbour: number;

beforeAll(async () => {
  t = await createTestApp();
  adminId = await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  clientId = await insertUser(t.db, {
    email: 'client@test.cm',
    password: 'Client!pass1',
    fullName: 'Carla Client',
  });
  harbour = await insertLocation(t.db, 'Harbour', 'Europe/Berlin');
  await linkUserToLocation(t.db, clientId, harbour);
  admin = (await t.login('admin@test.cm', 'Admin!pass1')).token;
  client = (await t.login('client@test.cm', 'Client!pass1')).token;
});
afterAll(() => t.close());

/** The changes recorded on a target, in order (sign-ins, which every login adds, are left out). */
const auditActions = async (targetType: string, targetId: string | number) =>
  (
    await t.db.query<{ action: string; actor_user_id: number | null }>(
      `SELECT action, actor_user_id FROM audit_log
       WHERE target_type = $1 AND target_id = $2 AND action NOT LIKE 'user.sign-in%' ORDER BY id`,
      [targetType, String(targetId)],
    )
  ).map((row) => row.action);

// Every admin endpoint, with a body that would be valid for an administrator where one is needed.
const ADMIN_ROUTES: Array<[method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown]> = [
  ['GET', '/api/admin/users'],
  ['GET', '/api/admin/users/1'],
  ['POST', '/api/admin/users', { email: 'x@test.cm', fullName: 'X', role: 2, password: 'long-enough-1' }],
  ['PATCH', '/api/admin/users/1', { fullName: 'Y' }],
  ['POST', '/api/admin/users/1/disable'],
  ['POST', '/api/admin/users/1/enable'],
  ['POST', '/api/admin/users/1/reset-password', {}],
  ['GET', '/api/admin/locations'],
  ['GET', '/api/admin/locations/1'],
  ['POST', '/api/admin/locations', { publicName: 'Z', timeZone: 'UTC' }],
  ['PATCH', '/api/admin/locations/1', { address: 'a' }],
  ['POST', '/api/admin/locations/1/archive'],
  ['POST', '/api/admin/locations/1/restore'],
  ['GET', '/api/admin/locations/1/meters'],
  ['GET', '/api/admin/locations/1/devices/tree'],
  ['GET', '/api/admin/devices'],
  ['GET', '/api/admin/devices/1'],
  ['POST', '/api/admin/devices', { type: 1, serial: 'S', locationId: 1 }],
  ['PATCH', '/api/admin/devices/1', { priority: 2 }],
  [
    'POST',
    '/api/admin/meters',
    { meterNumber: 'M', locationId: 1, meterInd: 9, installedAt: '2026-01-01T00:00:00Z' },
  ],
  ['GET', '/api/admin/meters/M'],
  ['PATCH', '/api/admin/meters/M', { priority: 2 }],
  ['POST', '/api/admin/meters/M/move', { cubeId: null }],
  [
    'POST',
    '/api/admin/meters/M/exchange',
    { at: '2026-02-01T00:00:00Z', finalRegister: 1, newMeterNumber: 'N', newStartRegister: 0 },
  ],
  ['GET', '/api/admin/api-keys'],
  ['POST', '/api/admin/api-keys', { name: 'k', scopes: ['read'] }],
  ['POST', '/api/admin/api-keys/1/revoke'],
  ['GET', '/api/admin/audit'],
  ['POST', '/api/admin/imports?format=csv', 'meter_number,timestamp,register_kwh\n'],
  ['GET', '/api/admin/exports/readings?meterNumber=M&From=2026-01-01&To=2026-01-02'],
];

describe('admin endpoints are for administrators only', () => {
  it('answers 403 to a client and 401 without a token on every admin endpoint, changing nothing', async () => {
    const auditBefore = await t.db.query('SELECT id FROM audit_log');
    for (const [method, url, body] of ADMIN_ROUTES) {
      const headers = typeof body === 'string' ? { 'content-type': 'text/csv' } : undefined;
      const asClient = await t.call(method, url, { token: client, body, ...(headers ? { headers } : {}) });
      expect(asClient.statusCode, `${method} ${url}`).toBe(403);
      expect(asClient.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
      const anonymous = await t.call(method, url, { body, ...(headers ? { headers } : {}) });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await t.db.query('SELECT id FROM audit_log')).toEqual(auditBefore);
  });
});

describe('users', () => {
  it('creates, searches, filters and pages users, with their locations and last login', async () => {
    const created = await t.call('POST', '/api/admin/users', {
      token: admin,
      body: {
        email: 'New.Tenant@Test.cm',
        fullName: 'Nina Tenant',
        role: 2,
        password: 'first-pass-123',
        locationIds: [harbour],
      },
    });
    expect(created.statusCode).toBe(201);
    const user = created.json<AdminUser>();
    expect(user).toMatchObject({
      email: 'new.tenant@test.cm',
      role: 2,
      isDisabled: false,
      locationIds: [harbour],
      lastLoginAt: null,
    });
    expect(user).not.toHaveProperty('passwordHash');
    await t.login('new.tenant@test.cm', 'first-pass-123');
    const found = (await t.call('GET', '/api/admin/users?search=tenant', { token: admin })).json<UserList>();
    expect(found.items.map((u) => u.email)).toEqual(['new.tenant@test.cm']);
    expect(found.items[0]?.lastLoginAt).not.toBeNull();
    const clients = (
      await t.call('GET', '/api/admin/users?role=2&pageSize=1&page=2', { token: admin })
    ).json<UserList>();
    expect(clients).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(clients.items).toHaveLength(1);
    expect(
      (await t.call('GET', '/api/admin/users?search=Carla', { token: admin })).json<UserList>().items[0]?.id,
    ).toBe(clientId);
    expect(await auditActions('user', user.id)).toEqual(['user.create']);
  });

  it('refuses bad input with 400 naming the parameter, a taken email with 409', async () => {
    const cases: Array<[unknown, string]> = [
      [{ email: 'bad', fullName: 'B', role: 2, password: 'long-enough-1' }, 'email'],
      [{ email: 'b@test.cm', fullName: 'B', role: 3, password: 'long-enough-1' }, 'role'],
      [{ email: 'b@test.cm', fullName: 'B', role: 2, password: 'short' }, 'password'],
      // Long enough but easy to guess (ASVS 5.0 V6.2): common, or built from the user's own e-mail.
      [{ email: 'b@test.cm', fullName: 'B', role: 2, password: 'password12' }, 'password'],
      [{ email: 'bruno.b@test.cm', fullName: 'Bruno B', role: 2, password: 'bruno.b@test.cm' }, 'password'],
      [
        { email: 'b@test.cm', fullName: 'B', role: 2, password: 'long-enough-1', locationIds: [999999] },
        'locationIds',
      ],
    ];
    for (const [body, param] of cases) {
      const response = await t.call('POST', '/api/admin/users', { token: admin, body });
      expect(response.statusCode, param).toBe(400);
      expect(response.json<{ param: string }>().param, param).toBe(param);
    }
    const weakReset = await t.call('POST', `/api/admin/users/${clientId}/reset-password`, {
      token: admin,
      body: { temporaryPassword: 'aaaaaaaaaa' },
    });
    expect(weakReset.json()).toMatchObject({ statusCode: 400, param: 'temporaryPassword' });
    expect(weakReset.json().message).toMatch(/too easy to guess: it repeats the same characters/);
    expect((await t.call('GET', '/api/admin/users?pageSize=101', { token: admin })).json()).toMatchObject({
      statusCode: 400,
      param: 'pageSize',
    });
    const taken = await t.call('POST', '/api/admin/users', {
      token: admin,
      body: { email: 'CLIENT@test.cm', fullName: 'C', role: 2, password: 'long-enough-1' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ param: 'email' });
    expect((await t.call('GET', '/api/admin/users/999999', { token: admin })).statusCode).toBe(404);
  });

  it('never disables or demotes the last enabled administrator', async () => {
    const disable = await t.call('POST', `/api/admin/users/${adminId}/disable`, { token: admin });
    expect(disable.statusCode).toBe(409);
    expect(disable.json<{ message: string }>().message).toMatch(/last enabled administrator/);
    const demote = await t.call('PATCH', `/api/admin/users/${adminId}`, { token: admin, body: { role: 2 } });
    expect(demote.statusCode).toBe(409);
    // With a second administrator, the first may be demoted; then the second is the last one.
    const second = (
      await t.call('POST', '/api/admin/users', {
        token: admin,
        body: { email: 'admin2@test.cm', fullName: 'Second', role: 1, password: 'second-admin-1' },
      })
    ).json<AdminUser>();
    const admin2 = (await t.login('admin2@test.cm', 'second-admin-1')).token;
    expect((await t.call('POST', `/api/admin/users/${second.id}/disable`, { token: admin })).statusCode).toBe(
      200,
    );
    // A disabled user's session ends at once.
    expect((await t.call('GET', '/api/auth/me', { token: admin2 })).statusCode).toBe(401);
    expect((await t.call('POST', `/api/admin/users/${adminId}/disable`, { token: admin })).statusCode).toBe(
      409,
    );
    expect(
      (await t.call('POST', `/api/admin/users/${second.id}/enable`, { token: admin })).json<AdminUser>()
        .isDisabled,
    ).toBe(false);
    expect(await auditActions('user', second.id)).toEqual(['user.create', 'user.disable', 'user.enable']);
  });

  it('edits a client, and reset password forces a change and ends its sessions', async () => {
    const edited = await t.call('PATCH', `/api/admin/users/${clientId}`, {
      token: admin,
      body: { fullName: 'Carla C.', locationIds: [] },
    });
    expect(edited.json<AdminUser>()).toMatchObject({ fullName: 'Carla C.', locationIds: [] });
    await t.call('PATCH', `/api/admin/users/${clientId}`, { token: admin, body: { locationIds: [harbour] } });
    const reset = await t.call('POST', `/api/admin/users/${clientId}/reset-password`, {
      token: admin,
      body: {},
    });
    const { temporaryPassword, user } = reset.json<{ temporaryPassword: string; user: AdminUser }>();
    expect(temporaryPassword.length).toBeGreaterThanOrEqual(10);
    expect(user.mustChangePassword).toBe(true);
    expect((await t.call('GET', '/api/auth/me', { token: client })).statusCode).toBe(401);
    await expect(t.login('client@test.cm', 'Client!pass1')).rejects.toThrow();
    const first = await t.login('client@test.cm', temporaryPassword);
    const second = await t.login('client@test.cm', temporaryPassword);
    expect(first.user.mustChangePassword).toBe(true);
    const detail = await t.db.query<{ detail: unknown }>(
      `SELECT detail FROM audit_log WHERE action = 'user.reset-password'`,
    );
    expect(JSON.stringify(detail)).not.toContain(temporaryPassword);

    // change-password: checks the current one and the length, clears the flag, ends the other sessions.
    const wrong = await t.call('POST', '/api/auth/change-password', {
      token: first.token,
      body: { currentPassword: 'nope', newPassword: 'Client!pass2-long' },
    });
    expect(wrong.json()).toMatchObject({ statusCode: 400, param: 'currentPassword' });
    const short = await t.call('POST', '/api/auth/change-password', {
      token: first.token,
      body: { currentPassword: temporaryPassword, newPassword: 'short' },
    });
    expect(short.json()).toMatchObject({ statusCode: 400, param: 'newPassword' });
    const changed = await t.call('POST', '/api/auth/change-password', {
      token: first.token,
      body: { currentPassword: temporaryPassword, newPassword: 'Client!pass2-long' },
    });
    expect(changed.statusCode).toBe(204);
    expect((await t.call('GET', '/api/auth/me', { token: first.token })).json()).toMatchObject({
      currentUser: { mustChangePassword: false },
    });
    expect((await t.call('GET', '/api/auth/me', { token: second.token })).statusCode).toBe(401);
    client = (await t.login('client@test.cm', 'Client!pass2-long')).token;
    expect(await auditActions('user', clientId)).toEqual([
      'user.update',
      'user.update',
      'user.reset-password',
      'user.change-password',
    ]);
  });
});

describe('reset password body', () => {
  it('is optional: no body or an empty one generates a password, a given one is set, others are refused', async () => {
    const userId = await insertUser(t.db, { email: 'reset@test.cm', password: 'Reset!pass1' });
    const url = `/api/admin/users/${userId}/reset-password`;
    for (const body of [undefined, {}]) {
      const reset = await t.call('POST', url, { token: admin, body });
      expect(reset.statusCode, JSON.stringify(body)).toBe(200);
      const { temporaryPassword } = reset.json<{ temporaryPassword: string }>();
      expect(temporaryPassword.length).toBeGreaterThanOrEqual(10);
      expect((await t.login('reset@test.cm', temporaryPassword)).user.mustChangePassword).toBe(true);
    }
    const chosen = await t.call('POST', url, { token: admin, body: { temporaryPassword: 'Chosen!pass-1' } });
    expect(chosen.json()).toMatchObject({ temporaryPassword: 'Chosen!pass-1' });
    await t.login('reset@test.cm', 'Chosen!pass-1');
    for (const body of [{ temporaryPassword: 'short' }, { temporaryPassword: 'Chosen!pass-1', extra: 1 }]) {
      const refused = await t.call('POST', url, { token: admin, body });
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
    }
    await t.login('reset@test.cm', 'Chosen!pass-1');
  });

  it('is documented as optional, while other bodies stay required', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { requestBody?: { required?: boolean } }>>;
    }>();
    expect(document.paths['/api/admin/users/{id}/reset-password']?.post?.requestBody?.required).toBe(false);
    expect(document.paths['/api/admin/users']?.post?.requestBody?.required).toBe(true);
    expect(document.paths['/api/admin/meters/{meterNumber}/exchange']?.post?.requestBody?.required).toBe(
      true,
    );
  });
});

describe('locations', () => {
  it('creates, edits and archives locations; names are unique ignoring case and zones are IANA', async () => {
    const created = await t.call('POST', '/api/admin/locations', {
      token: admin,
      body: { publicName: 'Marina West', address: 'Quay 1', timeZone: 'America/New_York' },
    });
    expect(created.statusCode).toBe(201);
    const marina = created.json<AdminLocation>();
    expect(marina).toMatchObject({
      publicName: 'Marina West',
      timeZone: 'America/New_York',
      meterCount: 0,
      archivedAt: null,
    });
    const taken = await t.call('POST', '/api/admin/locations', {
      token: admin,
      body: { publicName: 'marina west', timeZone: 'UTC' },
    });
    expect(taken.json()).toMatchObject({ statusCode: 409, param: 'publicName' });
    const rename = await t.call('PATCH', `/api/admin/locations/${marina.id}`, {
      token: admin,
      body: { publicName: 'HARBOUR' },
    });
    expect(rename.statusCode).toBe(409);
    for (const timeZone of ['Mars/Olympus', "Europe/Berlin'; DROP TABLE locations; --", '+01:00']) {
      const bad = await t.call('POST', '/api/admin/locations', {
        token: admin,
        body: { publicName: 'Bad zone', timeZone },
      });
      expect(bad.json(), timeZone).toMatchObject({ statusCode: 400, param: 'timeZone' });
    }
    const edited = await t.call('PATCH', `/api/admin/locations/${marina.id}`, {
      token: admin,
      body: { timeZone: 'Europe/Dublin', address: 'Quay 2' },
    });
    expect(edited.json<AdminLocation>()).toMatchObject({ timeZone: 'Europe/Dublin', address: 'Quay 2' });
    const archived = await t.call('POST', `/api/admin/locations/${marina.id}/archive`, { token: admin });
    expect(archived.json<AdminLocation>().archivedAt).not.toBeNull();
    const listed = (await t.call('GET', '/api/admin/locations', { token: admin })).json<{
      items: AdminLocation[];
    }>();
    expect(listed.items.map((l) => l.publicName)).not.toContain('Marina West');
    const all = (await t.call('GET', '/api/admin/locations?includeArchived=true', { token: admin })).json<{
      items: AdminLocation[];
    }>();
    expect(all.items.map((l) => l.publicName)).toContain('Marina West');
    expect(await auditActions('location', marina.id)).toEqual([
      'location.create',
      'location.update',
      'location.archive',
    ]);
  });
});

describe('devices and meters', () => {
  let ap: AdminDevice;
  let cube1: AdminDevice;
  let cube2: AdminDevice;

  it('builds AccessPoint → Cube → Meter and refuses wrong parents and bad meter fields', async () => {
    ap = (
      await t.call('POST', '/api/admin/devices', {
        token: admin,
        body: { type: 1, serial: 'AP-1', locationId: harbour },
      })
    ).json<AdminDevice>();
    cube1 = (
      await t.call('POST', '/api/admin/devices', {
        token: admin,
        body: { type: 2, serial: 'CUBE-1', locationId: harbour, parentId: ap.id, priority: 2 },
      })
    ).json<AdminDevice>();
    cube2 = (
      await t.call('POST', '/api/admin/devices', {
        token: admin,
        body: { type: 2, serial: 'CUBE-2', locationId: harbour, parentId: ap.id },
      })
    ).json<AdminDevice>();
    expect(cube1).toMatchObject({ type: 2, parentId: ap.id, parentSerial: 'AP-1', priorityLabel: 'High' });
    const wrongParent = await t.call('POST', '/api/admin/devices', {
      token: admin,
      body: { type: 2, serial: 'CUBE-X', locationId: harbour, parentId: cube1.id },
    });
    expect(wrongParent.json()).toMatchObject({ statusCode: 400, param: 'parentId' });
    const dupSerial = await t.call('POST', '/api/admin/devices', {
      token: admin,
      body: { type: 1, serial: 'AP-1', locationId: harbour },
    });
    expect(dupSerial.json()).toMatchObject({ statusCode: 409, param: 'serial' });

    const meter = {
      meterNumber: 'EM-1',
      locationId: harbour,
      cubeId: cube1.id,
      meterInd: 1,
      intervalMinutes: 15,
      installedAt: '2026-01-01T00:00:00Z',
    };
    const created = await t.call('POST', '/api/admin/meters', { token: admin, body: meter });
    expect(created.statusCode).toBe(201);
    expect(created.json<AdminDevice>()).toMatchObject({
      type: 3,
      parentId: cube1.id,
      meter: { meterNumber: 'EM-1', meterInd: 1, multiplier: 1, registerDigits: 6 },
    });
    const bad: Array<[Record<string, unknown>, string, number]> = [
      [{ meterNumber: 'EM-2', meterInd: 0 }, 'meterInd', 400],
      [{ meterNumber: 'EM-2', meterInd: 2, multiplier: 0 }, 'multiplier', 400],
      [{ meterNumber: 'EM-2', meterInd: 2, registerDigits: 13 }, 'registerDigits', 400],
      [{ meterNumber: 'EM-2', meterInd: 2, registerDigits: 2 }, 'registerDigits', 400],
      [{ meterNumber: 'EM-2', meterInd: 2, installedAt: '2026-01-01 00:00' }, 'installedAt', 400],
      [{ meterNumber: 'EM-2', meterInd: 2, cubeId: ap.id }, 'cubeId', 400],
      [{ meterNumber: 'EM-1', meterInd: 2 }, 'meterNumber', 409],
      [{ meterNumber: 'EM-2', meterInd: 1 }, 'meterInd', 409],
    ];
    for (const [changes, param, status] of bad) {
      const response = await t.call('POST', '/api/admin/meters', {
        token: admin,
        body: { ...meter, ...changes },
      });
      expect(response.json(), JSON.stringify(changes)).toMatchObject({ statusCode: status, param });
    }
    await t.call('POST', '/api/admin/meters', {
      token: admin,
      body: { ...meter, meterNumber: 'EM-2', meterInd: 2, cubeId: cube2.id, priority: 3 },
    });
  });

  it('shows the network as a tree and as a filtered table, and moves a meter to another Cube', async () => {
    const tree = (
      await t.call('GET', `/api/admin/locations/${harbour}/devices/tree`, { token: admin })
    ).json<DeviceTree>();
    expect(tree.roots.map((n) => n.serial)).toEqual(['AP-1']);
    expect(
      tree.roots[0]?.children.map((c) => [c.serial, c.children.map((m) => m.meter?.meterNumber)]),
    ).toEqual([
      ['CUBE-1', ['EM-1']],
      ['CUBE-2', ['EM-2']],
    ]);
    const cubes = (
      await t.call('GET', `/api/admin/devices?type=2&locationId=${harbour}`, { token: admin })
    ).json<{ items: AdminDevice[]; total: number }>();
    expect(cubes.items.map((d) => d.serial)).toEqual(['CUBE-1', 'CUBE-2']);
    const medium = (await t.call('GET', '/api/admin/devices?priority=3', { token: admin })).json<{
      items: AdminDevice[];
    }>();
    expect(medium.items.map((d) => d.meter?.meterNumber)).toEqual(['EM-2']);
    expect((await t.call('GET', '/api/admin/devices?type=4', { token: admin })).json()).toMatchObject({
      statusCode: 400,
      param: 'type',
    });
    expect((await t.call('GET', '/api/admin/devices?status=broken', { token: admin })).json()).toMatchObject({
      statusCode: 400,
      param: 'status',
    });
    const moved = await t.call('POST', '/api/admin/meters/EM-2/move', {
      token: admin,
      body: { cubeId: cube1.id },
    });
    expect(moved.json<AdminDevice>()).toMatchObject({ parentId: cube1.id, parentSerial: 'CUBE-1' });
    expect(
      (await t.call('POST', '/api/admin/meters/EM-2/move', { token: admin, body: { cubeId: ap.id } }))
        .statusCode,
    ).toBe(400);
    expect(
      (await t.call('POST', '/api/admin/meters/NOPE/move', { token: admin, body: { cubeId: null } }))
        .statusCode,
    ).toBe(404);
    const edited = await t.call('PATCH', '/api/admin/meters/EM-2', {
      token: admin,
      body: { multiplier: 40, status: 'faulty' },
    });
    expect(edited.json<AdminDevice>()).toMatchObject({ status: 'faulty', meter: { multiplier: 40 } });
    const meters = (await t.call('GET', `/api/admin/locations/${harbour}/meters`, { token: admin })).json<{
      items: AdminDevice[];
    }>();
    expect(meters.items.map((m) => m.meter?.meterNumber)).toEqual(['EM-1', 'EM-2']);
    expect(await auditActions('meter', 'EM-2')).toEqual(['meter.create', 'meter.move', 'meter.update']);
  });

  it('names a meter as people call it, renames and clears it; clients read the name', async () => {
    // Issue 17.5: "Apt C-101", "HVAC", "Café" were in the data and nowhere on screen.
    const named = await t.call('POST', '/api/admin/meters', {
      token: admin,
      body: {
        meterNumber: 'EM-NAMED',
        label: '  Café  ',
        locationId: harbour,
        meterInd: 7,
        installedAt: '2026-01-01T00:00:00Z',
      },
    });
    expect(named.statusCode).toBe(201);
    expect(named.json<AdminDevice>().meter?.label).toBe('Café');
    const info = await t.call('GET', '/api/CheckMeter/GetMeterInfo?meterNumber=EM-NAMED', { token: client });
    expect(info.json<{ label: string }>().label).toBe('Café');
    const renamed = await t.call('PATCH', '/api/admin/meters/EM-NAMED', {
      token: admin,
      body: { label: 'Café & bakery' },
    });
    expect(renamed.json<AdminDevice>().meter?.label).toBe('Café & bakery');
    const tooLong = await t.call('PATCH', '/api/admin/meters/EM-NAMED', {
      token: admin,
      body: { label: 'x'.repeat(61) },
    });
    expect(tooLong.json()).toMatchObject({ statusCode: 400, param: 'label' });
    const cleared = await t.call('PATCH', '/api/admin/meters/EM-NAMED', {
      token: admin,
      body: { label: '' },
    });
    expect(cleared.json<AdminDevice>().meter?.label).toBe('');
    // Issue 17.5: the main supply, against which the location's sub-meters are set.
    expect(named.json<AdminDevice>().meter?.mainSupply).toBe(false);
    const main = await t.call('PATCH', '/api/admin/meters/EM-NAMED', {
      token: admin,
      body: { mainSupply: true },
    });
    expect(main.json<AdminDevice>().meter).toMatchObject({ mainSupply: true, label: '' });
    const mainInfo = await t.call('GET', '/api/CheckMeter/GetMeterInfo?meterNumber=EM-NAMED', {
      token: client,
    });
    expect(mainInfo.json<{ mainSupply: boolean }>().mainSupply).toBe(true);
    const notBoolean = await t.call('PATCH', '/api/admin/meters/EM-NAMED', {
      token: admin,
      body: { mainSupply: 'yes' },
    });
    expect(notBoolean.json()).toMatchObject({ statusCode: 400, param: 'mainSupply' });
    // An unnamed meter answers '' (never null), as the contract says.
    const unnamed = await t.call('GET', '/api/CheckMeter/GetMeterInfo?meterNumber=EM-1', { token: admin });
    expect(unnamed.json<{ label: string }>().label).toBe('');
  });

  it('exchanges a meter so that the location shows continuous consumption', async () => {
    // EM-1 reads every 15 min from 1 March 00:00 Berlin, +0.1 kWh each; exchanged at 12:00 UTC.
    const meterId =
      (await t.db.query<{ device_id: number }>(`SELECT device_id FROM meters WHERE meter_number = 'EM-1'`))[0]
        ?.device_id ?? 0;
    const start = Date.parse('2026-02-28T23:00:00Z');
    const exchangeAt = Date.parse('2026-03-01T12:00:00Z');
    await insertReadings(
      t.db,
      meterId,
      regularReadings(start, exchangeAt - 15 * 60_000, 15 * 60_000, 5_000_000, () => 100),
    );
    // The final register closes the last interval: +0.1 kWh after the last stored reading.
    const final = (5_000_000 + 51 * 100 + 100) / 1000;
    const body = {
      at: '2026-03-01T12:00:00Z',
      finalRegister: final,
      newMeterNumber: 'EM-1B',
      newStartRegister: 2.5,
    };
    expect(
      (
        await t.call('POST', '/api/admin/meters/EM-1/exchange', {
          token: admin,
          body: { ...body, finalRegister: 4000 },
        })
      ).json(),
    ).toMatchObject({ statusCode: 400, param: 'finalRegister' });
    expect(
      (
        await t.call('POST', '/api/admin/meters/EM-1/exchange', {
          token: admin,
          body: { ...body, newMeterNumber: 'EM-2' },
        })
      ).json(),
    ).toMatchObject({ statusCode: 409, param: 'newMeterNumber' });
    expect(
      (
        await t.call('POST', '/api/admin/meters/EM-1/exchange', {
          token: admin,
          body: { ...body, at: '2025-12-01T00:00:00Z' },
        })
      ).json(),
    ).toMatchObject({ statusCode: 400, param: 'at' });
    const exchanged = await t.call('POST', '/api/admin/meters/EM-1/exchange', { token: admin, body });
    expect(exchanged.statusCode).toBe(200);
    const result = exchanged.json<{ oldMeter: AdminDevice; newMeter: AdminDevice }>();
    expect(result.oldMeter).toMatchObject({
      status: 'removed',
      meter: { removedAt: '2026-03-01T12:00:00.000Z' },
    });
    expect(result.newMeter).toMatchObject({
      status: 'active',
      parentId: cube1.id,
      meter: { meterInd: 1, installedAt: '2026-03-01T12:00:00.000Z' },
    });
    const stored = await t.db.query<{ meter_number: string; register_milli: number; source: number }>(
      `SELECT m.meter_number, r.value_micro / 1000 AS register_milli, r.source FROM register_readings r JOIN meters m ON m.device_id = r.meter_id WHERE r.source = 4 ORDER BY m.meter_number`,
    );
    expect(stored).toEqual([
      { meter_number: 'EM-1', register_milli: 5_005_200, source: 4 },
      { meter_number: 'EM-1B', register_milli: 2_500, source: 4 },
    ]);
    const newId = result.newMeter.id;
    await insertReadings(
      t.db,
      newId,
      regularReadings(
        exchangeAt + 15 * 60_000,
        Date.parse('2026-03-01T23:00:00Z'),
        15 * 60_000,
        2_600,
        () => 100,
      ),
    );
    const day = readingsAnswer(
      await t.call(
        'GET',
        '/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=Harbour&From=2026-03-01&To=2026-03-01&meterInd=1',
        { token: admin },
      ),
    );
    const indicator = day.meters[0];
    expect(indicator?.meterNumbers).toEqual(['EM-1', 'EM-1B']);
    // 96 quarter hours of 0.1 kWh across both meters, with no gap at the exchange.
    expect(indicator?.totals.consumption).toBeCloseTo(9.6, 6);
    expect(indicator?.totals.missingIntervals).toBe(0);
    expect(indicator?.gaps).toEqual([]);
    expect(indicator?.events.map((e) => e.type)).toContain('meterExchange');
    expect(
      (
        await t.call('POST', '/api/admin/meters/EM-1/exchange', {
          token: admin,
          body: { ...body, newMeterNumber: 'EM-1C' },
        })
      ).statusCode,
    ).toBe(409);
    expect(await auditActions('meter', 'EM-1')).toEqual(['meter.create', 'meter.exchange']);
  });
});

describe('API keys', () => {
  it('creates a key shown once, lists it by prefix with last use, and revocation is immediate', async () => {
    const created = await t.call('POST', '/api/admin/api-keys', {
      token: admin,
      body: { name: 'Reporting', scopes: ['read'] },
    });
    expect(created.statusCode).toBe(201);
    const { key, apiKey } = created.json<{ key: string; apiKey: AdminApiKey }>();
    expect(key.startsWith(apiKey.prefix)).toBe(true);
    expect(apiKey).toMatchObject({ name: 'Reporting', scopes: ['read'], revokedAt: null });
    const stored = await t.db.query<{ key_hash: string }>('SELECT key_hash FROM api_keys WHERE id = $1', [
      apiKey.id,
    ]);
    expect(stored[0]?.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await t.db.query('SELECT * FROM api_keys'))).not.toContain(key);
    const withKey = await t.call('GET', '/api/auth/me', { token: admin, headers: { [API_KEY_HEADER]: key } });
    expect(withKey.statusCode).toBe(200);
    const listed = (await t.call('GET', '/api/admin/api-keys', { token: admin })).json<{
      items: AdminApiKey[];
    }>();
    expect(listed.items.find((k) => k.id === apiKey.id)?.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(
      (
        await t.call('POST', '/api/admin/api-keys', { token: admin, body: { name: 'x', scopes: ['admin'] } })
      ).json(),
    ).toMatchObject({ statusCode: 400 });
    const revoked = await t.call('POST', `/api/admin/api-keys/${apiKey.id}/revoke`, { token: admin });
    expect(revoked.json<AdminApiKey>().revokedAt).not.toBeNull();
    expect(
      (await t.call('GET', '/api/auth/me', { token: admin, headers: { [API_KEY_HEADER]: key } })).statusCode,
    ).toBe(401);
    expect((await t.call('POST', '/api/admin/api-keys/999999/revoke', { token: admin })).statusCode).toBe(
      404,
    );
    expect(await auditActions('api-key', apiKey.id)).toEqual(['api-key.create', 'api-key.revoke']);
    const audit = (await t.call('GET', '/api/admin/audit?targetType=api-key', { token: admin })).json<{
      items: Array<{ action: string; actorUserId: number }>;
    }>();
    expect(audit.items.map((e) => e.action)).toEqual(['api-key.revoke', 'api-key.create']);
    expect(audit.items[0]?.actorUserId).toBe(adminId);
  });

  it("refuses to revoke the web app's own key, which the list marks, so that sign-in keeps working", async () => {
    const listed = (await t.call('GET', '/api/admin/api-keys', { token: admin })).json<{
      items: AdminApiKey[];
    }>();
    const webKeys = listed.items.filter((k) => k.isWebApp);
    expect(webKeys).toHaveLength(1);
    const webKey = webKeys[0];
    expect(t.apiKey.startsWith(webKey?.prefix ?? '?')).toBe(true);
    const refused = await t.call('POST', `/api/admin/api-keys/${webKey?.id}/revoke`, { token: admin });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/web app's own key.*CM_WEB_API_KEY/);
    const [row] = await t.db.query<{ revoked_at: Date | null }>(
      'SELECT revoked_at FROM api_keys WHERE id = $1',
      [webKey?.id],
    );
    expect(row?.revoked_at).toBeNull();
    expect(await auditActions('api-key', webKey?.id ?? 0)).toEqual([]);
    // The web app's key still opens the API.
    expect((await t.call('GET', '/api/auth/me', { token: admin })).statusCode).toBe(200);
  });
});

describe('audit log', () => {
  it('names who did what to whom, records sign-ins (failed ones too) and filters by time, actor and action', async () => {
    // Issue 17.13: "User #1", `locationIds: [1]` and no sign-ins were all the log said.
    const named = await t.call('POST', '/api/admin/users', {
      token: admin,
      body: {
        email: 'rita@test.cm',
        fullName: 'Rita Reviewer',
        role: 2,
        password: 'Rita!pass-long-1',
        locationIds: [harbour],
      },
    });
    expect(named.statusCode).toBe(201);
    const rita = named.json<AdminUser>().id;
    expect((await t.call('POST', `/api/admin/users/${rita}/disable`, { token: admin })).statusCode).toBe(200);
    const wrong = await t.call('POST', '/api/auth/login', {
      body: { email: 'rita@test.cm', password: 'whatever-1' },
    });
    expect(wrong.statusCode).toBe(401);
    await t.call('POST', '/api/auth/login', { body: { email: 'nobody@test.cm', password: 'whatever-1' } });
    await t.login('admin@test.cm', 'Admin!pass1');

    type Entry = AuditList['items'][number];
    const list = async (query: string) =>
      (await t.call('GET', `/api/admin/audit?pageSize=100&${query}`, { token: admin })).json<AuditList>()
        .items;
    const byAction = (items: Entry[], action: string) => items.find((entry) => entry.action === action);
    const recent = await list('');
    const adminName = 'admin@test.cm';
    expect(byAction(recent, 'user.disable')).toMatchObject({
      actorName: adminName,
      targetName: 'Rita Reviewer',
    });
    expect(byAction(recent, 'user.create')).toMatchObject({
      targetName: 'Rita Reviewer',
      names: { [`location:${harbour}`]: 'Harbour', [`user:${rita}`]: 'Rita Reviewer' },
    });
    // A disabled account that types a wrong password, and an address nobody has.
    const failures = await list('action=user.sign-in-failed');
    expect(failures.slice(0, 2).map((entry) => [entry.targetName, entry.detail])).toEqual([
      [null, { email: 'nobody@test.cm', reason: 'unknownEmail' }],
      ['Rita Reviewer', { email: 'rita@test.cm', reason: 'password' }],
    ]);
    expect(failures.every((entry) => entry.actorName === null)).toBe(true);
    const signIns = await list(`action=user.sign-in&actorUserId=${adminId}`);
    expect(signIns.length).toBeGreaterThan(0);
    expect(signIns.every((entry) => entry.actorName === adminName && entry.actorUserId === adminId)).toBe(
      true,
    );
    // Time bounds: from inclusive, to exclusive.
    const newest = recent[0];
    if (!newest) throw new Error('the log is empty');
    const at = encodeURIComponent(newest.at);
    expect((await list(`from=${at}`)).map((entry) => entry.id)).toContain(newest.id);
    expect((await list(`to=${at}`)).map((entry) => entry.id)).not.toContain(newest.id);
    // Bad filters are named.
    for (const [query, param] of [
      ['from=yesterday', 'from'],
      ['action=user.explode', 'action'],
      ['actorUserId=-1', 'actorUserId'],
    ]) {
      const answer = await t.call('GET', `/api/admin/audit?${query}`, { token: admin });
      expect(answer.json(), query).toMatchObject({ statusCode: 400, param });
    }
  });
});
