import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminUser, UserList } from '@cm/contracts/admin.ts';
import { createAdminContext, auditActionsOf, type AdminContext } from '../../test/admin-context.ts';
import { insertUser } from '../../test/test-app.ts';

let t: AdminContext['t'];
let admin: string;
let client: string;
let adminId: number;
let clientId: number;
let harbour: number;

beforeAll(async () => {
  ({ t, admin, client, adminId, clientId, harbour } = await createAdminContext());
});
afterAll(() => t.close());

const auditActions = (targetType: string, targetId: string | number) =>
  auditActionsOf(t.db, targetType, targetId);

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
