import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@cm/contracts/enums.ts';
import { createTestApp, insertUser, type TestApp } from '../test/test-app.ts';
import { guardPublishedPasswords, requireNewPublishedPasswords } from './published-passwords.ts';
import { DEMO_LOGINS } from './seed.ts';

// Probe 2026-11-27, finding 7: `npm start` with HOST serving a network kept the demo accounts'
// published passwords usable. Start-up now makes each account still on its published password
// choose a new one at its next sign-in.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('published demo passwords on a network', () => {
  it('makes only the accounts still on a published password change it, once', async () => {
    const [admin, clientA, clientB] = DEMO_LOGINS;
    if (!admin || !clientA || !clientB) throw new Error('three demo logins expected');
    await insertUser(t.db, { email: admin.email, password: admin.password, role: Role.Admin });
    await insertUser(t.db, { email: clientA.email, password: 'Changed!Secret-42' });
    await insertUser(t.db, { email: clientB.email, password: clientB.password });
    await insertUser(t.db, { email: 'someone@example.org', password: admin.password });

    expect((await requireNewPublishedPasswords(t.db)).sort()).toEqual([admin.email, clientB.email].sort());
    expect(await requireNewPublishedPasswords(t.db)).toEqual([]);

    const flags = await t.db.query<{ email: string; must_change_password: boolean }>(
      'SELECT email, must_change_password FROM users ORDER BY email',
    );
    expect(Object.fromEntries(flags.map((row) => [row.email, row.must_change_password]))).toEqual({
      [admin.email]: true,
      [clientA.email]: false,
      [clientB.email]: true,
      'someone@example.org': false,
    });
    // The published password still signs in, but only to choose a new one.
    const session = await t.login(admin.email, admin.password);
    expect(session.user.mustChangePassword).toBe(true);
  });

  it('is what start-up does on a HOST serving a network, and only there', async () => {
    const clientA = DEMO_LOGINS[1];
    if (!clientA) throw new Error('client A expected');
    await t.db.query('UPDATE users SET must_change_password = false');
    await t.db.query('DELETE FROM users WHERE email = $1', [clientA.email]);
    await insertUser(t.db, { email: clientA.email, password: clientA.password });
    expect(await guardPublishedPasswords(t.db, '127.0.0.1')).toBeUndefined();
    expect(await guardPublishedPasswords(t.db, 'localhost')).toBeUndefined();
    const notice = await guardPublishedPasswords(t.db, '0.0.0.0');
    expect(notice).toContain('HOST=0.0.0.0 serves a network');
    expect(notice).toContain(clientA.email);
    expect((await t.login(clientA.email, clientA.password)).user.mustChangePassword).toBe(true);
    // Told once: the next start finds nobody left on a published password.
    expect(await guardPublishedPasswords(t.db, '192.0.2.10')).toBeUndefined();
  });
});
