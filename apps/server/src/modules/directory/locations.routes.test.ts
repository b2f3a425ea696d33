import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminLocation } from '@cm/contracts/admin.ts';
import { createAdminContext, auditActionsOf, type AdminContext } from '../../test/admin-context.ts';

let t: AdminContext['t'];
let admin: string;

beforeAll(async () => {
  ({ t, admin } = await createAdminContext());
});
afterAll(() => t.close());

const auditActions = (targetType: string, targetId: string | number) =>
  auditActionsOf(t.db, targetType, targetId);

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
