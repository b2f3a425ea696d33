import { afterAll, describe, expect, it } from 'vitest';
import { Role } from '@cm/contracts/enums.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';

/** An install's admin and client, signed in. */
async function signedIn(t: TestApp) {
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  await insertUser(t.db, { email: 'a@test.cm', password: 'Client!passA' });
  return {
    admin: (await t.login('admin@test.cm', 'Admin!pass1')).token,
    client: (await t.login('a@test.cm', 'Client!passA')).token,
  };
}

describe('alert e-mail set-up (issue 34.14)', () => {
  const apps: TestApp[] = [];
  afterAll(async () => Promise.all(apps.map((app) => app.close())));

  it('ticks no e-mail by default on an install without a mail server, and tells the admin', async () => {
    const t = await createTestApp();
    apps.push(t);
    const { admin, client } = await signedIn(t);
    const preferences = (await t.call('GET', '/api/alerts/preferences', { token: client })).json<{
      items: { inApp: boolean; email: boolean }[];
      emailAvailable: boolean;
    }>();
    expect(preferences.emailAvailable).toBe(false);
    expect(preferences.items.every((item) => item.inApp && !item.email)).toBe(true);
    const mail = await t.call('GET', '/api/admin/mail', { token: admin });
    expect(mail.json()).toEqual({
      configured: false,
      server: null,
      from: null,
      pending: 0,
      failed: 0,
      lastError: null,
    });
    expect((await t.call('GET', '/api/admin/mail', { token: client })).statusCode).toBe(403);
  });

  it('ticks e-mail by default where a mail server is set up, naming it without its password', async () => {
    const t = await createTestApp({
      CM_SMTP_URL: 'smtp://cm:s3cret@mail.example.test:2525',
      CM_SMTP_FROM: 'CM <alerts@example.test>',
    });
    apps.push(t);
    const { admin, client } = await signedIn(t);
    const preferences = (await t.call('GET', '/api/alerts/preferences', { token: client })).json<{
      items: { email: boolean }[];
      emailAvailable: boolean;
    }>();
    expect(preferences.emailAvailable).toBe(true);
    expect(preferences.items.every((item) => item.email)).toBe(true);
    const mail = await t.call('GET', '/api/admin/mail', { token: admin });
    expect(mail.json()).toMatchObject({
      configured: true,
      server: 'mail.example.test:2525',
      from: 'CM <alerts@example.test>',
    });
    expect(mail.body).not.toContain('s3cret');
  });
});
