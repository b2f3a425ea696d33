import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_HEADER } from '@cm/contracts/enums.ts';
import { accountPolicy, addressKeyOf, addressPolicy, pairPolicy } from '../../modules/auth/login-throttle.ts';
import { insertLocation, insertMeter, linkUserToLocation } from '../factories.ts';
import { createTestApp, insertUser, type TestApp } from '../test-app.ts';
import { buildWorld, TEST_JWT_SECRET, type World } from './world.ts';

// Attacks a person could try against CM, written down as tests. Complements
// modules/auth/auth.routes.test.ts (wrong password vs unknown email, tampered/unsigned/foreign tokens
// on /api/auth/me, logout replay on /me and /refresh, one account block, API key basics) and
// authorization-matrix.test.ts (every route × caller × object).

let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => t.close());

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sub: string; sid: string };

function attempt(email: string, password: string, remoteAddress: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress,
    headers: { [API_KEY_HEADER]: w.keys.web },
    payload: { email, password },
  });
}

/** Lets time pass for the throttle: every block on `key` ends now. */
const liftBlock = (key: string) =>
  t.db.query("UPDATE login_throttle SET blocked_until = now() - interval '1 second' WHERE key = $1", [key]);

describe('password guessing', () => {
  /** Rounded up from the remaining time, the database clock having moved by up to a second. */
  const expectWait = (response: { headers: Record<string, unknown> }, seconds: number) => {
    const wait = Number(response.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(seconds - 1);
    expect(wait).toBeLessThanOrEqual(seconds);
  };

  it('allows 5 failures per account at one address, then blocks 15 s, 30 s, 60 s … doubling up to 15 min', async () => {
    expect(pairPolicy).toMatchObject({ freeFailures: 5, baseBlockSeconds: 15, maxBlockSeconds: 900 });
    await insertUser(t.db, { email: 'guessed@sec.cm', password: 'Right!guess-01' });
    const guesser = '198.51.100.1';
    for (let i = 1; i <= 5; i += 1) {
      expect((await attempt('guessed@sec.cm', `wrong-${i}`, guesser)).statusCode).toBe(401);
    }
    const expected = [15, 30, 60, 120, 240, 480, 900, 900];
    for (const seconds of expected) {
      // One more failure (email in another case counts for the same account) sets the block…
      expect((await attempt(' Guessed@SEC.cm', `wrong-again-${seconds}`, guesser)).statusCode).toBe(401);
      // …during which even the right password is refused there, with the wait in Retry-After and the message.
      const blocked = await attempt('guessed@sec.cm', 'Right!guess-01', guesser);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().message).toMatch(
        /Too many failed sign-in attempts\. Try again in \d+ (seconds|minutes)\./,
      );
      expectWait(blocked, seconds);
      await liftBlock(`pair:guessed@sec.cm|${guesser}`);
    }
    // Once the block ends, the right password works and clears the count at that address.
    expect((await attempt('guessed@sec.cm', 'Right!guess-01', guesser)).statusCode).toBe(200);
    expect(
      await t.db.query(`SELECT 1 FROM login_throttle WHERE key = 'pair:guessed@sec.cm|${guesser}'`),
    ).toHaveLength(0);
  });

  it('counts an account over every address, but never blocks its user at an address they signed in from', async () => {
    expect(accountPolicy).toMatchObject({ freeFailures: 20, baseBlockSeconds: 60 });
    await insertUser(t.db, { email: 'targeted@sec.cm', password: 'Right!target-01' });
    const home = '192.0.2.44';
    expect((await attempt('targeted@sec.cm', 'Right!target-01', home)).statusCode).toBe(200);
    // A botnet: each guess from a new address, so no address or pair count ever blocks.
    for (let i = 1; i <= 21; i += 1) {
      expect((await attempt('targeted@sec.cm', `botnet-${i}`, `198.18.1.${i}`)).statusCode).toBe(401);
    }
    // The account is now blocked for every new address, the right password included…
    const stranger = await attempt('targeted@sec.cm', 'Right!target-01', '198.18.2.1');
    expect(stranger.statusCode).toBe(429);
    expectWait(stranger, 60);
    // …but its user at home still signs in.
    expect((await attempt('targeted@sec.cm', 'Right!target-01', home)).statusCode).toBe(200);
  });

  it('blocks an address spraying accounts, known or not, alike, and lets in those who signed in from it before', async () => {
    expect(addressPolicy).toMatchObject({ freeFailures: 30, baseBlockSeconds: 60 });
    // Behind a proxy CM is not told about, everyone shares one address: the finding's lock-out.
    const shared = '203.0.113.66';
    await insertUser(t.db, { email: 'regular@sec.cm', password: 'Right!regular-1' });
    await insertUser(t.db, { email: 'newcomer@sec.cm', password: 'Right!newcomer1' });
    expect((await attempt('regular@sec.cm', 'Right!regular-1', shared)).statusCode).toBe(200);
    for (let i = 1; i <= 31; i += 1) {
      expect((await attempt(`spray-${i}@sec.cm`, 'Summer2026!', shared)).statusCode).toBe(401);
    }
    // The spraying address gets one answer whether the account exists or not: nothing to enumerate.
    const unknown = await attempt('spray-32@sec.cm', 'Summer2026!', shared);
    const known = await attempt(w.emails.clientB, 'Summer2026!', shared);
    for (const blocked of [unknown, known]) {
      expect(blocked.statusCode).toBe(429);
      expectWait(blocked, 60);
    }
    expect(known.json()).toEqual(unknown.json());
    // A user who signed in from this address before is not locked out by the spraying…
    expect((await attempt('regular@sec.cm', 'Right!regular-1', shared)).statusCode).toBe(200);
    // …a first sign-in from there waits for the block to end, and anyone elsewhere is unaffected.
    expect((await attempt('newcomer@sec.cm', 'Right!newcomer1', shared)).statusCode).toBe(429);
    expect((await attempt('newcomer@sec.cm', 'Right!newcomer1', '192.0.2.10')).statusCode).toBe(200);
    await liftBlock(`address:${shared}`);
    expect((await attempt('newcomer@sec.cm', 'Right!newcomer1', shared)).statusCode).toBe(200);
  });

  it('counts an IPv6 client by its /64, so that rotating addresses inside it does not help', async () => {
    await insertUser(t.db, { email: 'six@sec.cm', password: 'Right!six-pass1' });
    for (let i = 1; i <= 6; i += 1) {
      expect((await attempt('six@sec.cm', `wrong-${i}`, `2001:db8:1:2::${i.toString(16)}`)).statusCode).toBe(
        401,
      );
    }
    expect((await attempt('six@sec.cm', 'Right!six-pass1', '2001:db8:1:2:ffff::1')).statusCode).toBe(429);
    expect(addressKeyOf('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressKeyOf('2001:DB8:0001:0002:0:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(addressKeyOf('::1')).toBe('0:0:0:0::/64');
  });
});

describe('forged and replayed tokens', () => {
  const adminRoute = '/api/admin/users';
  const asAdmin = (token: string) =>
    t.app.inject({
      method: 'GET',
      url: adminRoute,
      headers: { [API_KEY_HEADER]: w.keys.web, authorization: `Bearer ${token}` },
    });

  it('refuses alg none, another algorithm and another key, even when the claims name a live admin session', async () => {
    const real = await w.mintToken(w.ids.admin);
    expect((await asAdmin(real)).statusCode).toBe(200);
    const claims = claimsOf(real);
    const secret = new TextEncoder().encode(TEST_JWT_SECRET);
    const forged = {
      'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${real.split('.')[1]}.`,
      'alg None, signature kept': `${b64({ alg: 'None', typ: 'JWT' })}.${real.split('.')[1]}.${real.split('.')[2]}`,
      // HS512 with the very same secret: only HS256 is on the allow-list.
      HS512: await new SignJWT({ sid: claims.sid })
        .setProtectedHeader({ alg: 'HS512' })
        .setSubject(claims.sub)
        .setIssuer('check-meter')
        .setExpirationTime('5m')
        .sign(secret),
      'another key': await new SignJWT({ sid: claims.sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setIssuer('check-meter')
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode('a-different-secret-a-different-secret-0')),
      'another issuer': await new SignJWT({ sid: claims.sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setIssuer('someone-else')
        .setExpirationTime('5m')
        .sign(secret),
      // A client's live session, relabelled as the admin: the session belongs to another user.
      'client session as admin': await new SignJWT({ sid: claimsOf(await w.mintToken(w.ids.clientA)).sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(w.ids.admin))
        .setIssuer('check-meter')
        .setExpirationTime('5m')
        .sign(secret),
      'no expiry': await new SignJWT({ sid: claims.sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setIssuer('check-meter')
        .sign(new TextEncoder().encode('a-different-secret-a-different-secret-0')),
    };
    for (const [name, token] of Object.entries(forged)) {
      const response = await asAdmin(token);
      expect(response.statusCode, name).toBe(401);
      expect(response.json().message, name).toMatch(/sign in again/i);
    }
  });

  it('makes a token useless on every route once its session ends: logout, disable, password reset, password change', async () => {
    const meterUrl = `/api/CheckMeter/GetMeterInfo?meterNumber=${w.own.meterNumber}`;
    const asClient = (token: string, url = meterUrl) =>
      t.app.inject({
        method: 'GET',
        url,
        headers: { [API_KEY_HEADER]: w.keys.web, authorization: `Bearer ${token}` },
      });
    const post = (token: string, url: string, payload?: object) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { [API_KEY_HEADER]: w.keys.web, authorization: `Bearer ${token}` },
        ...(payload ? { payload } : {}),
      });
    const admin = await w.mintToken(w.ids.admin);
    const user = await insertUser(t.db, { email: 'replay@sec.cm', password: 'Replay!pass-01' });
    await linkUserToLocation(t.db, user, w.own.locationId);
    const signIn = async () => (await t.login('replay@sec.cm', 'Replay!pass-01')).token;

    const loggedOut = await signIn();
    expect((await asClient(loggedOut)).statusCode).toBe(200);
    expect((await post(loggedOut, '/api/auth/logout')).statusCode).toBe(204);
    for (const url of [meterUrl, '/api/bookmarks/data', '/api/search?q=SEC']) {
      expect((await asClient(loggedOut, url)).statusCode, url).toBe(401);
    }
    expect((await post(loggedOut, '/api/bookmarks/update', { id: w.own.bookmarkId })).statusCode).toBe(401);

    const disabled = await signIn();
    expect((await post(admin, `/api/admin/users/${user}/disable`)).statusCode).toBe(200);
    expect((await asClient(disabled)).statusCode).toBe(401);
    expect((await post(admin, `/api/admin/users/${user}/enable`)).statusCode).toBe(200);
    // Enabling the account again does not bring the old session back.
    expect((await asClient(disabled)).statusCode).toBe(401);

    const reset = await signIn();
    const temporary = await post(admin, `/api/admin/users/${user}/reset-password`, {
      temporaryPassword: 'Temporary!pass-01',
    });
    expect(temporary.statusCode).toBe(200);
    expect((await asClient(reset)).statusCode).toBe(401);

    const first = (await t.login('replay@sec.cm', 'Temporary!pass-01')).token;
    const second = (await t.login('replay@sec.cm', 'Temporary!pass-01')).token;
    const change = await post(first, '/api/auth/change-password', {
      currentPassword: 'Temporary!pass-01',
      newPassword: 'Changed!pass-0001',
    });
    expect(change.statusCode).toBe(204);
    expect((await asClient(first)).statusCode).toBe(200); // the device that changed it stays signed in
    expect((await asClient(second)).statusCode).toBe(401); // every other one is signed out
  });
});

describe("a client probing for another client's meter", () => {
  const asA = async (url: string) =>
    t.app.inject({ method: 'GET', url, headers: await w.headersFor('clientA') });
  const toggleAsA = async (id: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/bookmarks/update',
      headers: await w.headersFor('clientA'),
      payload: { id },
    });
  const meterUrl = (meterNumber: string) =>
    `/api/CheckMeter/GetMeterInfo?meterNumber=${encodeURIComponent(meterNumber)}`;
  const locationUrl = (name: string, extra = '') =>
    `/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=${encodeURIComponent(name)}&From=2026-01-10&To=2026-01-11${extra}`;
  /** A new location linked to client A, with one meter. */
  const linkedLocationWithMeter = async (name: string, meterNumber: string) => {
    const location = await insertLocation(t.db, name, 'Europe/Berlin');
    await insertMeter(t.db, {
      meterNumber,
      locationId: location,
      meterInd: 1,
      installedAt: new Date('2025-12-01'),
    });
    await linkUserToLocation(t.db, w.ids.clientA, location);
    return location;
  };
  /** Nothing of client B's may appear in anything client A is answered. */
  const leaks = (body: string) => /SEC-B|Block B|CUBE-B|AP-B/i.test(body);

  it('finds nothing by meter number variants, device ids, serials or wildcards', async () => {
    const missing = await asA(meterUrl('SEC-Z-9999'));
    expect(missing.statusCode).toBe(404);
    const b = w.other;
    const guesses = [
      b.meterNumber,
      b.meterNumber.toLowerCase(),
      ` ${b.meterNumber} `,
      `${b.meterNumber}\u200b`,
      b.meterNumber.replace('-', '\u2011'),
      String(b.meterDeviceId),
      String(b.cubeId),
      'CUBE-B',
      'AP-B',
      'SEC-B%',
      'SEC-B-000_',
      '%',
      '*',
      `${b.meterNumber}' OR '1'='1`,
      `' OR 1=1 --`,
      `${w.own.meterNumber}' UNION SELECT meter_number FROM meters --`,
    ];
    for (const guess of guesses) {
      const response = await asA(meterUrl(guess));
      expect([400, 404], guess).toContain(response.statusCode);
      if (response.statusCode === 404) expect(response.body, guess).toBe(missing.body);
      expect(leaks(response.body), guess).toBe(false);
    }
  });

  it('finds nothing by location name variants (case, whitespace, lookalikes, ids) or meter indicators', async () => {
    const missing = await asA(locationUrl('Block Z / Apt 999'));
    expect(missing.statusCode).toBe(404);
    const name = w.other.locationName;
    const guesses = [
      name,
      name.toLowerCase(),
      name.toUpperCase(),
      `  ${name}\t`.replace('\t', ' '),
      name.replace(' / ', '/'),
      name.replace(/ /g, '  '),
      name.replace('B', '\uff22'), // fullwidth B
      name.normalize('NFD'),
      String(w.other.locationId),
      'Block B%',
      'Block _ / Apt 202',
      `${name}' OR '1'='1`,
    ];
    for (const guess of guesses) {
      for (const extra of ['', '&meterInd=1', '&granularity=day']) {
        const response = await asA(locationUrl(guess, extra));
        expect([400, 404], guess).toContain(response.statusCode);
        if (response.statusCode === 404) expect(response.body, guess).toBe(missing.body);
        expect(leaks(response.body), guess).toBe(false);
      }
    }
    // Its own location answers in another case, so the 404s above are about ownership, not spelling.
    expect((await asA(locationUrl(w.own.locationName.toLowerCase()))).statusCode).toBe(200);
  });

  it('cannot star, list or search its way to them', async () => {
    const missing = await toggleAsA('meter:SEC-Z-9999');
    expect(missing.statusCode).toBe(404);
    for (const id of [
      w.other.bookmarkId,
      w.other.bookmarkId.toLowerCase(),
      `location:${w.other.locationName}`,
      `location:${w.other.locationId}`,
      `meter:${w.other.meterDeviceId}`,
      'page:admin',
      'meter:%',
    ]) {
      const response = await toggleAsA(id);
      expect(response.statusCode, id).toBe(404);
      expect(response.body, id).toBe(missing.body);
    }
    const data = await asA('/api/bookmarks/data');
    expect(data.statusCode).toBe(200);
    expect(leaks(data.body)).toBe(false);
    expect(data.body).toContain(w.own.meterNumber);
    for (const q of [
      'SEC',
      'SEC-B',
      'b',
      'Block',
      'Block B',
      '%',
      '_',
      '\\',
      "' OR 1=1 --",
      'CUBE',
      '0001',
    ]) {
      const response = await asA(`/api/search?q=${encodeURIComponent(q)}`);
      expect(response.statusCode, q).toBe(200);
      expect(leaks(response.body), q).toBe(false);
    }
  });

  it('loses a location and its bookmarks at once when the link is removed', async () => {
    const location = await linkedLocationWithMeter('Block C / Shared', 'SEC-C-0001');
    expect((await asA(meterUrl('SEC-C-0001'))).statusCode).toBe(200);
    expect((await toggleAsA('meter:SEC-C-0001')).json()).toMatchObject({ isBookmarked: true });
    await t.db.query('DELETE FROM user_locations WHERE user_id = $1 AND location_id = $2', [
      w.ids.clientA,
      location,
    ]);
    expect((await asA(meterUrl('SEC-C-0001'))).statusCode).toBe(404);
    const data = await asA('/api/bookmarks/data');
    expect(data.body).not.toContain('SEC-C-0001');
    expect((await asA('/api/search?q=SEC-C')).json().results).toEqual([]);
  });

  it('loses an archived location, its meters and their bookmarks until it is restored', async () => {
    const location = await linkedLocationWithMeter('Block D / Archived', 'SEC-D-0001');
    expect((await toggleAsA('meter:SEC-D-0001')).json()).toMatchObject({ isBookmarked: true });
    const asAdmin = async (url: string) =>
      t.app.inject({ method: 'POST', url, headers: await w.headersFor('admin') });
    expect((await asAdmin(`/api/admin/locations/${location}/archive`)).statusCode).toBe(200);

    const missing = await asA(meterUrl('SEC-Z-9999'));
    const archived = await asA(meterUrl('SEC-D-0001'));
    expect(archived.statusCode).toBe(404);
    expect(archived.body).toBe(missing.body);
    expect((await asA(locationUrl('Block D / Archived'))).statusCode).toBe(404);
    expect((await toggleAsA('meter:SEC-D-0001')).statusCode).toBe(404);
    expect((await toggleAsA('location:Block D / Archived')).statusCode).toBe(404);
    expect((await asA('/api/bookmarks/data')).body).not.toContain('SEC-D-0001');
    expect((await asA('/api/search?q=SEC-D')).json().results).toEqual([]);
    // An administrator still finds the meter, e.g. to export its readings.
    const admin = await t.app.inject({
      method: 'GET',
      url: meterUrl('SEC-D-0001'),
      headers: await w.headersFor('admin'),
    });
    expect(admin.statusCode).toBe(200);

    expect((await asAdmin(`/api/admin/locations/${location}/restore`)).statusCode).toBe(200);
    expect((await asA(meterUrl('SEC-D-0001'))).statusCode).toBe(200);
    expect((await asA('/api/bookmarks/data')).body).toContain('SEC-D-0001');
  });
});

describe('hostile bodies', () => {
  const asA = async (payload: string, contentType = 'application/json') =>
    t.app.inject({
      method: 'POST',
      url: '/api/bookmarks/update',
      headers: { ...(await w.headersFor('clientA')), 'content-type': contentType },
      payload,
    });

  it('answers 413 to a body over the limit, and 403 to a client sending one to an administration route', async () => {
    const big = JSON.stringify({ id: 'x'.repeat(1024 * 1024 + 10) });
    const tooLarge = await asA(big);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({ statusCode: 413, message: 'The request body is too large.' });
    const asClient = await t.app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: { ...(await w.headersFor('clientA')), 'content-type': 'application/json' },
      payload: big,
    });
    expect(asClient.statusCode).toBe(403);
  });

  it('answers 4xx, never 5xx, to malformed, deeply nested, prototype-polluting or mistyped JSON', async () => {
    const bodies: Array<[string, string?]> = [
      ['{"id":'],
      ['{"id": "meter:SEC-A-0001"'],
      ['null'],
      ['[]'],
      ['"meter:SEC-A-0001"'],
      [`{"id": ${'['.repeat(5000)}${']'.repeat(5000)}}`],
      ['{"__proto__": {"isAdmin": true}, "id": "meter:SEC-A-0001"}'],
      ['{"constructor": {"prototype": {"isAdmin": true}}, "id": "meter:SEC-A-0001"}'],
      ['{"id": "meter:SEC-A-0001", "id": "meter:SEC-B-0001"}'],
      ['{"id": "meter:SEC-A-0001"}', 'text/plain'],
      ['{"id": "meter:SEC-A-0001"}', 'application/x-www-form-urlencoded'],
      ['<id>meter:SEC-A-0001</id>', 'application/xml'],
      ['{"id": "\\u0000"}'],
      ['{"id": "\\ud800"}'],
    ];
    for (const [payload, type] of bodies) {
      const response = await asA(payload, type);
      expect(response.statusCode, payload.slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, payload.slice(0, 60)).toBeLessThan(500);
    }
    // Nothing above reached Object.prototype.
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});

describe('hostile URLs and text', () => {
  it('answers a malformed URL or an over-long path part in the usual error shape, with the security headers', async () => {
    const admin = await w.headersFor('admin');
    const badEncoding = await t.app.inject({
      method: 'GET',
      url: '/api/admin/users/1%E0%80',
      headers: admin,
    });
    expect(badEncoding.statusCode).toBe(400);
    expect(badEncoding.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'The URL is not valid: check its percent-encoded characters.',
    });
    expect(badEncoding.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(badEncoding.headers['x-content-type-options']).toBe('nosniff');
    const tooLong = await t.app.inject({
      method: 'GET',
      url: `/api/admin/meters/${'M'.repeat(201)}`,
      headers: admin,
    });
    expect(tooLong.statusCode).toBe(414);
    expect(tooLong.json()).toMatchObject({ statusCode: 414, message: 'A part of the URL path is too long.' });
    expect(tooLong.body).not.toContain('MMMM');
  });

  it('refuses NUL characters anywhere in the query or body with 400 naming the parameter (PostgreSQL cannot store them)', async () => {
    const admin = await w.headersFor('admin');
    const search = await t.app.inject({
      method: 'GET',
      url: '/api/admin/locations?search=a%00b',
      headers: admin,
    });
    expect(search.statusCode).toBe(400);
    expect(search.json()).toMatchObject({
      param: 'search',
      message: 'search must be valid text (no NUL characters or unpaired surrogates).',
    });
    const address = await t.app.inject({
      method: 'POST',
      url: '/api/admin/locations',
      headers: admin,
      payload: { publicName: 'Block N / NUL', address: 'Street\u0000 1', timeZone: 'UTC' },
    });
    expect(address.statusCode).toBe(400);
    expect(address.json()).toMatchObject({ param: 'address' });
    // Found by the fuzz tests (seed 25753255): an unpaired surrogate in a JSON string answered 500.
    for (const text of ['a\udfffb', 'a\ud800', '\udc00']) {
      const lone = await t.app.inject({
        method: 'POST',
        url: '/api/admin/locations',
        headers: { ...admin, 'content-type': 'application/json' },
        payload: JSON.stringify({ publicName: 'Block S / surrogate', address: text, timeZone: 'UTC' }),
      });
      expect(lone.statusCode, JSON.stringify(text)).toBe(400);
      expect(lone.json()).toMatchObject({ param: 'address' });
    }
    const paired = await t.app.inject({
      method: 'POST',
      url: '/api/admin/locations',
      headers: admin,
      payload: { publicName: 'Block S / 😀', address: 'Street 😀 1', timeZone: 'UTC' },
    });
    expect(paired.statusCode).toBe(201);
    const nested = await t.app.inject({
      method: 'POST',
      url: '/api/ingest/readings',
      headers: { [API_KEY_HEADER]: w.keys.ingest },
      payload: {
        readings: [{ meterNumber: 'SEC-A-0001\u0000', readAt: '2026-01-13T08:00:00Z', register: 1 }],
      },
    });
    expect(nested.statusCode).toBe(400);
    expect(nested.json()).toMatchObject({ param: 'readings.0.meterNumber' });
  });
});

describe('over a real socket', () => {
  let address: { host: string; port: number };
  let listening: TestApp;

  beforeAll(async () => {
    listening = await createTestApp();
    await listening.app.listen({ host: '127.0.0.1', port: 0 });
    const bound = listening.app.server.address();
    if (!bound || typeof bound === 'string') throw new Error('no address');
    address = { host: '127.0.0.1', port: bound.port };
  });
  afterAll(() => listening.close());

  /** Sends raw bytes, answers what came back before the server closed or `waitMs` passed. */
  function raw(bytes: string, waitMs = 3000): Promise<string> {
    return new Promise((resolve) => {
      const socket = net.connect(address.port, address.host);
      let received = '';
      const timer = setTimeout(() => {
        socket.destroy();
        resolve(received);
      }, waitMs);
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
        if (/\r\n\r\n/.test(received)) {
          clearTimeout(timer);
          socket.destroy();
          resolve(received);
        }
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(received);
      });
      socket.write(bytes);
    });
  }

  it('refuses an announced oversize body before reading it, and a chunked one once it passes the limit', async () => {
    const started = Date.now();
    const announced = await raw(
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\n${API_KEY_HEADER}: ${listening.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 524288000\r\n\r\n{"email":`,
    );
    expect(announced).toMatch(/^HTTP\/1\.1 413/);
    expect(Date.now() - started).toBeLessThan(2500);
    const chunk = `${(4096).toString(16)}\r\n${'a'.repeat(4096)}\r\n`;
    const chunked = await raw(
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\n${API_KEY_HEADER}: ${listening.apiKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunk.repeat(300)}`,
    );
    expect(chunked).toMatch(/^HTTP\/1\.1 413/);
  });

  it('bounds slow clients (60 s for headers and per idle connection, 1 h per request) and keeps serving others while they hang', async () => {
    const server = listening.app.server;
    expect(server.requestTimeout).toBe(3_600_000);
    expect(server.timeout).toBe(60_000);
    expect(server.headersTimeout).toBeLessThanOrEqual(60_000);
    // 40 slowloris connections: headers trickled, never finished.
    const sockets = Array.from({ length: 40 }, () => {
      const socket = net.connect(address.port, address.host);
      socket.on('error', () => {});
      socket.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `);
      return socket;
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (const socket of sockets) socket.write('a');
      const started = Date.now();
      const response = await fetch(`http://${address.host}:${address.port}/api/health`);
      expect(response.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});

describe('security headers', () => {
  let behindProxy: TestApp;
  let distDir: string;

  beforeAll(async () => {
    distDir = await mkdtemp(path.join(os.tmpdir(), 'cm-sec-dist-'));
    await writeFile(
      path.join(distDir, 'index.html'),
      '<!doctype html><html><head><meta name="cm-api-key" content="__CM_API_KEY__"><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>',
    );
    // light-my-request connects from 127.0.0.1; the proxy of the throttling test is 10.0.0.1.
    behindProxy = await createTestApp({ CM_TRUST_PROXY: 'loopback,10.0.0.1', CM_WEB_DIST: distDir });
  });
  afterAll(async () => {
    await behindProxy.close();
    await rm(distDir, { recursive: true, force: true });
  });

  const directives = (csp: string) =>
    new Map(
      csp
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .filter((part) => part[0])
        .map(([name, ...values]) => [name ?? '', values]),
    );

  it('sends a strict CSP, nosniff and no framing on pages, API answers and errors alike', async () => {
    const responses = {
      page: await behindProxy.app.inject({ method: 'GET', url: '/check?meter=SEC-A-0001' }),
      api: await behindProxy.call('GET', '/api/health'),
      unauthorized: await behindProxy.call('GET', '/api/auth/me'),
      noKey: await behindProxy.app.inject({ method: 'GET', url: '/api/bookmarks/data' }),
      notFound: await behindProxy.call('GET', '/api/nowhere'),
      badRequest: await behindProxy.call('POST', '/api/auth/login', { body: { email: 'x' } }),
    };
    expect(responses.page.statusCode).toBe(200);
    expect(responses.page.body).toContain(behindProxy.apiKey);
    for (const [name, response] of Object.entries(responses)) {
      const csp = directives(String(response.headers['content-security-policy'] ?? ''));
      expect(csp.get('default-src'), name).toEqual(["'self'"]);
      expect(csp.get('script-src'), name).toEqual(["'self'"]);
      expect(csp.get('script-src-attr'), name).toEqual(["'none'"]);
      expect(csp.get('object-src'), name).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), name).toEqual(["'none'"]);
      expect(csp.get('base-uri'), name).toEqual(["'self'"]);
      expect(response.headers['x-content-type-options'], name).toBe('nosniff');
      expect(response.headers['x-frame-options'], name).toBe('SAMEORIGIN');
      expect(response.headers['referrer-policy'], name).toBe('no-referrer');
      expect(response.headers['x-powered-by'], name).toBeUndefined();
      expect(response.headers['access-control-allow-origin'], name).toBeUndefined();
    }
    // Pages and every API answer, errors included: nothing with a token or client data is cached.
    const login = await behindProxy.call('POST', '/api/auth/login', {
      body: { email: 'nobody@sec.cm', password: 'wrong' },
    });
    for (const [name, response] of Object.entries({ ...responses, login })) {
      expect(response.headers['cache-control'], name).toBe('no-store');
    }
    const signedIn = await t.call('POST', '/api/auth/login', {
      body: { email: w.emails.clientA, password: w.passwords.clientA },
    });
    expect(signedIn.json().token).toBeTruthy();
    expect(signedIn.headers['cache-control']).toBe('no-store');
  });

  it('keeps the API description page from running inline scripts or being framed', async () => {
    const page = await behindProxy.app.inject({ method: 'GET', url: '/api/docs/static/index.html' });
    const followed =
      page.statusCode === 302
        ? await behindProxy.app.inject({ method: 'GET', url: String(page.headers.location ?? '') })
        : page;
    const csp = directives(String(followed.headers['content-security-policy'] ?? ''));
    expect(csp.get('script-src')?.join(' ')).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(csp.get('frame-ancestors')).toBeDefined();
    expect(csp.get('frame-ancestors')?.join(' ')).not.toContain('*');
  });

  it('sends HSTS only over TLS as told by a trusted proxy', async () => {
    const hsts = async (app: TestApp, proto?: string) =>
      (
        await app.app.inject({
          method: 'GET',
          url: '/api/health',
          headers: proto ? { 'x-forwarded-proto': proto } : {},
        })
      ).headers['strict-transport-security'];
    expect(await hsts(behindProxy, 'https')).toMatch(/^max-age=31536000; includeSubDomains$/);
    expect(await hsts(behindProxy, 'http')).toBeUndefined();
    expect(await hsts(behindProxy)).toBeUndefined();
    // Without CM_TRUST_PROXY anyone could send the header: it is ignored.
    expect(await hsts(t, 'https')).toBeUndefined();
    expect(await hsts(t)).toBeUndefined();
  });

  it('takes the client address from X-Forwarded-For only as appended by a trusted proxy', async () => {
    const hopCount = await createTestApp({ CM_TRUST_PROXY: '1' });
    const login = (app: TestApp, remoteAddress: string, forwardedFor: string, email = 'nobody@sec.cm') =>
      app.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress,
        headers: { [API_KEY_HEADER]: app.apiKey, 'x-forwarded-for': forwardedFor },
        payload: { email, password: 'wrong' },
      });
    const addressKeys = async (app: TestApp) =>
      (
        await app.db.query<{ key: string }>(
          "SELECT key FROM login_throttle WHERE key LIKE 'address:198.18.0.%' OR key LIKE 'address:1.2.3.%' ORDER BY key",
        )
      ).map((row) => row.key);
    try {
      // Through the proxy, whatever the client forged before the address the proxy appended.
      await login(behindProxy, '10.0.0.1', '1.2.3.4, 198.18.0.7');
      // Straight to CM from elsewhere: the header is the client's own and ignored.
      await login(behindProxy, '198.18.0.9', '1.2.3.5');
      await login(hopCount, '10.0.0.1', '1.2.3.4, 198.18.0.7');
      // Without CM_TRUST_PROXY anyone could send the header: it is ignored.
      await login(t, '198.18.0.8', '1.2.3.6');
      expect(await addressKeys(behindProxy)).toEqual(['address:198.18.0.7', 'address:198.18.0.9']);
      expect(await addressKeys(hopCount)).toEqual(['address:198.18.0.7']);
      expect(await addressKeys(t)).toEqual(['address:198.18.0.8']);

      // The finding: 35 guesses, each with a new forged address, meet the throttle all the same.
      const statuses: number[] = [];
      for (let i = 1; i <= 35; i += 1) {
        const forged = `100.64.${i}.1`;
        statuses.push(
          (await login(behindProxy, '10.0.0.1', `${forged}, 198.18.0.20`, 'forged@sec.cm')).statusCode,
        );
      }
      expect(statuses.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 401]);
      expect(statuses.slice(6).every((status) => status === 429)).toBe(true);
    } finally {
      await hopCount.close();
    }
  });
});
