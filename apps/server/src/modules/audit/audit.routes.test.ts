import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminUser, AuditList } from '@cm/contracts/admin.ts';
import { createAdminContext, type AdminContext } from '../../test/admin-context.ts';

let t: AdminContext['t'];
let admin: string;
let adminId: number;
let harbour: number;

beforeAll(async () => {
  ({ t, admin, adminId, harbour } = await createAdminContext());
});
afterAll(() => t.close());

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
