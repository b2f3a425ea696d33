import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@cm/contracts/enums.ts';
import { matrixRows, type MatrixRow, type Target } from '../../test/security/authorization-matrix.ts';
import { buildWorld, callers, type Caller, type World } from '../../test/security/world.ts';
import { linkUserToLocation } from '../../test/factories.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';

// After an administrator resets a password, the temporary one signs in but opens a session that
// may only read itself, renew, sign out or change the password; everything else answers 403.

const MESSAGE = 'Change your password before continuing: POST /api/auth/change-password.';
const OPEN_WHILE_PENDING = [
  'GET /api/auth/me',
  'POST /api/auth/refresh',
  'POST /api/auth/logout',
  'POST /api/auth/change-password',
];

let t: TestApp;
let w: World;
let adminToken: string;
// A client who sees client A's location, so that the world's own users keep their passwords.
const reader = { email: 'reader@sec.cm', password: 'Reader!secure-01', id: 0 };

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  adminToken = (await t.login(w.emails.admin, w.passwords.admin)).token;
  reader.id = await insertUser(t.db, { email: reader.email, password: reader.password });
  await linkUserToLocation(t.db, reader.id, w.own.locationId);
});
afterAll(() => t.close());

const meterUrl = () => `/api/CheckMeter/GetMeterInfo?meterNumber=${encodeURIComponent(w.own.meterNumber)}`;

async function resetPassword(userId: number): Promise<string> {
  const reset = await t.call('POST', `/api/admin/users/${userId}/reset-password`, {
    token: adminToken,
    body: {},
  });
  expect(reset.statusCode).toBe(200);
  return reset.json<{ temporaryPassword: string }>().temporaryPassword;
}

/** The calls a signed-in client makes on the check page and from the navbar, and one of an administrator's. */
function everydayCalls(token: string) {
  return [
    t.call('GET', meterUrl(), { token }),
    t.call('GET', '/api/bookmarks/data', { token }),
    t.call('POST', '/api/bookmarks/update', { token, body: { id: w.own.bookmarkId } }),
    t.call('GET', '/api/search?q=SEC', { token }),
    t.call('GET', '/api/admin/users', { token }),
  ];
}

describe('a password reset by an administrator', () => {
  it('lets the temporary password sign in, refuses everything but me/refresh/logout/change-password, and the change lifts it', async () => {
    const temporary = await resetPassword(reader.id);
    const record = await t.login(reader.email, temporary);
    expect(record.user.mustChangePassword).toBe(true);
    const { token } = record;

    for (const response of await Promise.all(everydayCalls(token))) {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: MESSAGE });
    }

    const me = await t.call('GET', '/api/auth/me', { token });
    expect(me.statusCode).toBe(200);
    expect(me.json().currentUser).toMatchObject({ email: reader.email, mustChangePassword: true });
    const refreshed = await t.call('POST', '/api/auth/refresh', { token });
    expect(refreshed.statusCode).toBe(200);
    const renewed = refreshed.json<{ token: string }>().token;
    // A renewed token is still held to the pending change.
    expect((await t.call('GET', meterUrl(), { token: renewed })).statusCode).toBe(403);

    // A wrong current password changes nothing.
    const wrong = await t.call('POST', '/api/auth/change-password', {
      token: renewed,
      body: { currentPassword: 'not-the-temporary-one', newPassword: 'Reader!changed-01' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ statusCode: 400, param: 'currentPassword' });
    expect(wrong.json().message).toContain('currentPassword');
    expect((await t.call('GET', '/api/auth/me', { token: renewed })).json().currentUser).toMatchObject({
      mustChangePassword: true,
    });
    expect((await t.call('GET', meterUrl(), { token: renewed })).statusCode).toBe(403);

    // Logout works while the change is pending.
    const other = (await t.login(reader.email, temporary)).token;
    expect((await t.call('POST', '/api/auth/logout', { token: other })).statusCode).toBe(204);
    expect((await t.call('GET', '/api/auth/me', { token: other })).statusCode).toBe(401);

    const changed = await t.call('POST', '/api/auth/change-password', {
      token: renewed,
      body: { currentPassword: temporary, newPassword: 'Reader!changed-01' },
    });
    expect(changed.statusCode).toBe(204);
    expect((await t.call('GET', '/api/auth/me', { token: renewed })).json().currentUser).toMatchObject({
      mustChangePassword: false,
    });
    const [meter, bookmarks, toggled, search, admin] = await Promise.all(everydayCalls(renewed));
    expect(meter?.statusCode).toBe(200);
    expect(meter?.json()).toMatchObject({ meterNumber: w.own.meterNumber });
    expect(bookmarks?.statusCode).toBe(200);
    expect(toggled?.statusCode).toBe(200);
    expect(search?.statusCode).toBe(200);
    // A client is still no administrator: the ordinary refusal, not the password one.
    expect(admin?.statusCode).toBe(403);
    expect(admin?.json().message).not.toBe(MESSAGE);
    // The temporary password is gone; the new one signs in without a pending change.
    await expect(t.login(reader.email, temporary)).rejects.toThrow();
    expect((await t.login(reader.email, 'Reader!changed-01')).user.mustChangePassword).toBe(false);
  });

  it('refuses a new password that is too short or the same as the current one, naming newPassword', async () => {
    const temporary = await resetPassword(w.ids.clientB);
    const { token } = await t.login(w.emails.clientB, temporary);
    for (const newPassword of ['short', temporary]) {
      const response = await t.call('POST', '/api/auth/change-password', {
        token,
        body: { currentPassword: temporary, newPassword },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ param: 'newPassword' });
    }
    expect((await t.call('GET', '/api/auth/me', { token })).json().currentUser.mustChangePassword).toBe(true);
  });

  it('refuses a new password that is easy to guess, saying why (ASVS 5.0 V6.2)', async () => {
    const temporary = await resetPassword(w.ids.clientB);
    const { token } = await t.login(w.emails.clientB, temporary);
    // What the review set: all four were accepted, as long as they had ten characters.
    const refused: Array<[string, RegExp]> = [
      ['aaaaaaaaaa', /repeats the same characters/],
      ['password12', /most common passwords/],
      [' '.repeat(10), /repeats the same characters/],
      [w.emails.clientB, /own e-mail or name/],
      ['checkmeter2026', /product's name|date or a year/],
    ];
    for (const [newPassword, reason] of refused) {
      const response = await t.call('POST', '/api/auth/change-password', {
        token,
        body: { currentPassword: temporary, newPassword },
      });
      expect(response.statusCode, newPassword).toBe(400);
      expect(response.json(), newPassword).toMatchObject({ param: 'newPassword' });
      expect(response.json().message, newPassword).toMatch(/^newPassword is too easy to guess: /);
      expect(response.json().message, newPassword).toMatch(reason);
    }
    expect((await t.call('GET', '/api/auth/me', { token })).json().currentUser.mustChangePassword).toBe(true);
    const accepted = await t.call('POST', '/api/auth/change-password', {
      token,
      body: { currentPassword: temporary, newPassword: 'orange tractor under rain' },
    });
    expect(accepted.statusCode).toBe(204);
  });
});

describe('every route of the app, for a user with a pending password change', () => {
  const column = (caller: Caller) => callers.indexOf(caller);
  const firstTarget = (row: MatrixRow): Target => (Object.keys(row.expect) as Target[])[0] ?? 'none';

  it.each(['admin', 'clientB'] as const)(
    '%s: 403 with the message on every signed-in route but the four that stay open',
    async (caller) => {
      await t.db.query('UPDATE users SET must_change_password = true WHERE id = $1', [w.ids[caller]]);
      const wrong: string[] = [];
      for (const [route, row] of matrixRows()) {
        const [method = 'GET'] = route.split(' ');
        const target = firstTarget(row);
        const statuses = row.expect[target];
        if (!statuses) continue;
        const { url, body, contentType } = row.request(target === 'none' ? w.own : w[target], w);
        const response = await t.app.inject({
          method: method as 'GET',
          url,
          headers: {
            ...(await w.headersFor(caller)),
            ...(contentType ? { 'content-type': contentType } : {}),
          },
          ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : (body as object) }),
        });
        // A route that needs a signed-in user refuses a caller without a token with 401; the others,
        // and the four that stay open, answer as they do for anyone (the authorization matrix). The
        // ESPI API is an app's, with a grant's token: no session opens it, pending or not.
        const isAppsApi = route.split(' ')[1]?.startsWith('/espi/') ?? false;
        const needsUser = statuses[column('noToken')] === 401 && !isAppsApi;
        if (OPEN_WHILE_PENDING.includes(route) || !needsUser) {
          if (response.statusCode !== statuses[column(caller)])
            wrong.push(
              `${route}: expected ${statuses[column(caller)]}, got ${response.statusCode} ${response.body}`,
            );
        } else if (response.statusCode !== 403 || response.json<{ message?: string }>().message !== MESSAGE) {
          wrong.push(`${route}: ${response.statusCode} ${response.body.slice(0, 160)}`);
        }
      }
      expect(wrong).toEqual([]);
    },
  );
});

describe('a user an administrator creates', () => {
  it('signs in with the password the administrator chose, which is temporary: it must be changed first', async () => {
    // Issue 17.11: the administrator knows that password; the user's own replaces it at once.
    // An administrator of its own (the tests above reset the world's administrator's password).
    await insertUser(t.db, { email: 'hr.admin@sec.cm', password: 'Hr!admin-secure-9', role: Role.Admin });
    const { token: hrToken } = await t.login('hr.admin@sec.cm', 'Hr!admin-secure-9');
    const created = await t.call('POST', '/api/admin/users', {
      token: hrToken,
      body: {
        email: 'new.hire@sec.cm',
        fullName: 'New Hire',
        role: 2,
        password: 'Chosen!by-admin-7',
        locationIds: [w.own.locationId],
      },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json<{ mustChangePassword: boolean }>().mustChangePassword).toBe(true);
    const record = await t.login('new.hire@sec.cm', 'Chosen!by-admin-7');
    expect(record.user.mustChangePassword).toBe(true);
    const refused = await t.call('GET', meterUrl(), { token: record.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toBe(MESSAGE);
    const changed = await t.call('POST', '/api/auth/change-password', {
      token: record.token,
      body: { currentPassword: 'Chosen!by-admin-7', newPassword: 'Mine!own-secret-42' },
    });
    expect(changed.statusCode).toBeLessThan(300);
    const own = await t.login('new.hire@sec.cm', 'Mine!own-secret-42');
    expect(own.user.mustChangePassword).toBe(false);
    expect((await t.call('GET', meterUrl(), { token: own.token })).statusCode).toBe(200);
  });
});
