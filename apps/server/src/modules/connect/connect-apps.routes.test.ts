import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditList } from '@cm/contracts/admin.ts';
import type { ConnectApp, CreatedConnectApp } from '@cm/contracts/connect.ts';
import { createAdminContext, auditActionsOf, type AdminContext } from '../../test/admin-context.ts';

let t: AdminContext['t'];
let admin: string;
let client: string;

beforeAll(async () => {
  ({ t, admin, client } = await createAdminContext());
});
afterAll(() => t.close());

const solar = {
  name: 'SunSizer',
  contact: 'support@sunsizer.example',
  redirectUris: ['https://sunsizer.example/callback', 'http://127.0.0.1:8765/cb'],
  dataKinds: ['intervals', 'details'],
  notificationUri: 'https://sunsizer.example/espi/notify',
};

const register = (body: object) => t.call('POST', '/api/admin/connect/apps', { token: admin, body });
const listed = async () =>
  (await t.call('GET', '/api/admin/connect/apps', { token: admin })).json<{ items: ConnectApp[] }>().items;

describe('third-party apps', () => {
  it('registers an app; its client secret is answered once and stored only as its SHA-256', async () => {
    const response = await register(solar);
    expect(response.statusCode).toBe(201);
    const { app, clientSecret } = response.json<CreatedConnectApp>();
    expect(app).toMatchObject({ ...solar, status: 'active', suspendedAt: null });
    expect(app.clientId).toMatch(/^cmapp_[0-9a-f]{24}$/);
    expect(clientSecret).toMatch(/^cmcs_[\w-]{43}$/);
    const [stored] = await t.db.query<{ secret_hash: string }>(
      'SELECT secret_hash FROM connect_apps WHERE id = $1',
      [app.id],
    );
    expect(stored?.secret_hash).toBe(createHash('sha256').update(clientSecret).digest('hex'));
    expect(JSON.stringify(await t.db.query('SELECT * FROM connect_apps'))).not.toContain(clientSecret);
    const list = await listed();
    expect(list).toEqual([app]);
    expect(JSON.stringify(list)).not.toContain(clientSecret);
    expect(await auditActionsOf(t.db, 'connect-app', app.id)).toEqual(['connect-app.create']);
    const audit = await t.call('GET', '/api/admin/audit?action=connect-app.create', { token: admin });
    expect(audit.json<AuditList>().items[0]).toMatchObject({ targetName: 'SunSizer' });
  });

  it('refuses addresses that are not https (but loopback), with fragments, repeated, and empty kinds', async () => {
    const refusals: Array<[object, string]> = [
      [{ redirectUris: ['http://sunsizer.example/cb'] }, 'must use https (http only for localhost'],
      [{ redirectUris: ['https://sunsizer.example/cb#x'] }, 'must not have a fragment'],
      [{ redirectUris: ['/cb'] }, 'must be an absolute URL'],
      [{ redirectUris: ['https://a:b@sunsizer.example/cb'] }, 'must not carry a user name'],
      [{ redirectUris: ['https://x.example/cb', 'https://x.example/cb'] }, 'must not repeat a URL'],
      [{ redirectUris: [] }, 'must hold at least one URL'],
      [{ dataKinds: [] }, 'must name at least one kind of data'],
      [{ dataKinds: ['everything'] }, 'may only hold intervals, registers, cost, details'],
      [{ notificationUri: 'ftp://sunsizer.example/n' }, 'must use https'],
    ];
    for (const [change, message] of refusals) {
      const response = await register({ ...solar, ...change });
      expect({ change, status: response.statusCode }).toEqual({ change, status: 400 });
      const body = response.json<{ message: string; param: string }>();
      // The message names the field the change is about.
      expect(body.message).toContain(message);
      expect(body.message.startsWith(Object.keys(change)[0] ?? '')).toBe(true);
    }
    // No notices: the notification URI may be left out.
    const quiet = await register({ ...solar, name: 'Quiet', notificationUri: undefined });
    expect(quiet.json<CreatedConnectApp>().app.notificationUri).toBeNull();
  });

  it('suspends, resumes and removes an app, each in the audit log', async () => {
    const { app } = (await register({ ...solar, name: 'HeatPump Pro' })).json<CreatedConnectApp>();
    const suspend = () => t.call('POST', `/api/admin/connect/apps/${app.id}/suspend`, { token: admin });
    const suspended = await suspend();
    expect(suspended.json<ConnectApp>()).toMatchObject({
      status: 'suspended',
      suspendedAt: expect.any(String),
    });
    expect((await suspend()).statusCode).toBe(409);
    const resumed = await t.call('POST', `/api/admin/connect/apps/${app.id}/resume`, { token: admin });
    expect(resumed.json<ConnectApp>()).toMatchObject({ status: 'active', suspendedAt: null });
    const removed = await t.call('DELETE', `/api/admin/connect/apps/${app.id}`, { token: admin });
    expect(removed.statusCode).toBe(204);
    expect((await listed()).map((listedApp) => listedApp.id)).not.toContain(app.id);
    expect((await t.call('DELETE', `/api/admin/connect/apps/${app.id}`, { token: admin })).statusCode).toBe(
      404,
    );
    expect((await suspend()).statusCode).toBe(404);
    expect(await auditActionsOf(t.db, 'connect-app', app.id)).toEqual([
      'connect-app.create',
      'connect-app.suspend',
      'connect-app.resume',
      'connect-app.remove',
    ]);
    // The removed app keeps its name in the log.
    const audit = await t.call('GET', '/api/admin/audit?action=connect-app.remove', { token: admin });
    expect(audit.json<AuditList>().items[0]).toMatchObject({ targetName: 'HeatPump Pro' });
  });

  it('is for administrators only', async () => {
    expect((await t.call('GET', '/api/admin/connect/apps', { token: client })).statusCode).toBe(403);
    expect((await t.call('POST', '/api/admin/connect/apps', { token: client, body: solar })).statusCode).toBe(
      403,
    );
  });
});
