import os from 'node:os';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_HEADER, Role } from '@cm/contracts/enums.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createTestApp, insertUser, TEST_SECRETS, type TestApp } from '../../test/test-app.ts';
import { createApiKey } from '../api-keys/api-keys.service.ts';
import { TokenSigner } from './tokens.ts';

const SECRET = 'test-secret-test-secret-test-secret-0123';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  await insertUser(t.db, { email: 'client@test.cm', password: 'Client!pass1' });
  await insertUser(t.db, { email: 'gone@test.cm', password: 'Gone!pass1', isDisabled: true });
  await insertUser(t.db, { email: 'guess@test.cm', password: 'Right!pass1' });
  await insertUser(t.db, { email: 'stolen@test.cm', password: 'Stolen!pass1' });
});
afterAll(() => t.close());

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('login', () => {
  it('answers the stored user record with the role abilities', async () => {
    const admin = await t.login('Admin@Test.cm ', 'Admin!pass1');
    expect(admin).toMatchObject({
      isLoggedIn: true,
      role: Role.Admin,
      ability: [{ action: 'manage', subject: 'all' }],
    });
    expect(admin.user).toMatchObject({ email: 'admin@test.cm', role: Role.Admin });
    expect(admin.tokenExpiresAt).toBeGreaterThan(Date.now());
    expect(admin.user).not.toHaveProperty('passwordHash');
    const client = await t.login('client@test.cm', 'Client!pass1');
    expect(client.ability).toContainEqual({ action: 'read', subject: 'Check' });
    expect(client.ability).not.toContainEqual({ action: 'manage', subject: 'all' });
  });

  it('gives the same 401 for a wrong password and an unknown email', async () => {
    const wrong = await t.call('POST', '/api/auth/login', {
      body: { email: 'client@test.cm', password: 'nope' },
    });
    const unknown = await t.call('POST', '/api/auth/login', {
      body: { email: 'nobody@test.cm', password: 'nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Email or password is incorrect.');
    expect(unknown.json().message).toBe(wrong.json().message);
  });

  it('refuses a disabled account as disabled, not as a wrong password (issue 34)', async () => {
    const response = await t.call('POST', '/api/auth/login', {
      body: { email: 'gone@test.cm', password: 'Gone!pass1' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('This account is disabled. Ask an administrator to enable it.');
    // With a wrong password it is only a wrong password: nothing said about the account.
    const wrong = await t.call('POST', '/api/auth/login', {
      body: { email: 'gone@test.cm', password: 'Gone!pass2' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Email or password is incorrect.');
  });

  it.each([
    [{ password: 'x' }, 'email'],
    [{ email: 'not-an-email', password: 'x' }, 'email'],
    [{ email: 'a@b.cm' }, 'password'],
    [{ email: 'a@b.cm', password: 42 }, 'password'],
  ])('answers 400 naming the parameter for %j', async (body, param) => {
    const response = await t.call('POST', '/api/auth/login', { body });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', param });
    expect(response.json().message).toContain(param);
  });

  it('refuses unknown fields, malformed JSON and oversize bodies with 4xx', async () => {
    const extra = await t.call('POST', '/api/auth/login', {
      body: { email: 'a@b.cm', password: 'x', isAdmin: true },
    });
    expect(extra.statusCode).toBe(400);
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { [API_KEY_HEADER]: t.apiKey, 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('The request body is not valid JSON.');
    const huge = await t.call('POST', '/api/auth/login', {
      body: { email: 'a@b.cm', password: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(huge.statusCode).toBe(413);
  });
});

describe('tokens and sessions', () => {
  it('loads the current user as result.currentUser', async () => {
    const { token } = await t.login('client@test.cm', 'Client!pass1');
    const response = await t.call('GET', '/api/auth/me', { token });
    expect(response.statusCode).toBe(200);
    expect(response.json().currentUser).toMatchObject({ email: 'client@test.cm', role: Role.Client });
    expect(response.json().currentUser.ability.length).toBeGreaterThan(1);
  });

  it('refuses a missing, tampered, unsigned or foreign-key token', async () => {
    const { token } = await t.login('client@test.cm', 'Client!pass1');
    const [header, payload] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const asAdmin = `${header}.${base64url({ ...claims, sub: '1' })}.${token.split('.')[2]}`;
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${payload}.`;
    const foreign = await new SignJWT({ sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .setIssuer('check-meter')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    for (const bad of [undefined, 'garbage', asAdmin, unsigned, foreign]) {
      const response = await t.call('GET', '/api/auth/me', bad ? { token: bad } : {});
      expect(response.statusCode, String(bad)).toBe(401);
      expect(response.json().message).toMatch(/sign in/i);
    }
  });

  it('refuses an expired token', async () => {
    const { token } = await t.login('client@test.cm', 'Client!pass1');
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
    const expired = await new TokenSigner(SECRET).sign(
      { userId: Number(claims.sub), sessionId: claims.sid },
      -60,
    );
    const response = await t.call('GET', '/api/auth/me', { token: expired.token });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toMatch(/expired/);
  });

  it('makes the token unusable after logout (no replay)', async () => {
    const { token } = await t.login('client@test.cm', 'Client!pass1');
    expect((await t.call('POST', '/api/auth/logout', { token })).statusCode).toBe(204);
    expect((await t.call('GET', '/api/auth/me', { token })).statusCode).toBe(401);
    expect((await t.call('POST', '/api/auth/refresh', { token })).statusCode).toBe(401);
  });

  it('renews the token of a live session and ends an idle one', async () => {
    const { token } = await t.login('client@test.cm', 'Client!pass1');
    const renewed = await t.call('POST', '/api/auth/refresh', { token });
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.json().token;
    expect((await t.call('GET', '/api/auth/me', { token: fresh })).statusCode).toBe(200);
    const claims = JSON.parse(Buffer.from(fresh.split('.')[1], 'base64url').toString());
    await t.db.query("UPDATE sessions SET last_active_at = now() - interval '31 minutes' WHERE id = $1", [
      claims.sid,
    ]);
    expect((await t.call('GET', '/api/auth/me', { token: fresh })).statusCode).toBe(401);
  });
});

describe('login throttling', () => {
  it('blocks guessing after 5 failures with 429 and Retry-After, without locking the user out for good', async () => {
    const attempts: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await t.call('POST', '/api/auth/login', {
        body: { email: 'guess@test.cm', password: `wrong-${i}` },
      });
      attempts.push(response.statusCode);
    }
    expect(attempts).toEqual([401, 401, 401, 401, 401, 401]);
    const blocked = await t.call('POST', '/api/auth/login', {
      body: { email: 'guess@test.cm', password: 'Right!pass1' },
    });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(900);
    expect(blocked.json().message).toMatch(/Try again in/);
    // The block lifts by itself; then the right password works and clears the count at that address.
    await t.db.query("UPDATE login_throttle SET blocked_until = now() - interval '1 second'");
    expect(
      (await t.call('POST', '/api/auth/login', { body: { email: 'guess@test.cm', password: 'Right!pass1' } }))
        .statusCode,
    ).toBe(200);
    const rows = await t.db.query<{ key: string }>(
      "SELECT key FROM login_throttle WHERE key = 'pair:guess@test.cm|127.0.0.1'",
    );
    expect(rows).toHaveLength(0);
  });

  it('counts wrong current passwords on change-password with the sign-in failures: a stolen session cannot guess either', async () => {
    const { token } = await t.login('stolen@test.cm', 'Stolen!pass1');
    const change = (currentPassword: string) =>
      t.call('POST', '/api/auth/change-password', {
        token,
        body: { currentPassword, newPassword: 'Stolen!changed-1' },
      });
    const attempts: number[] = [];
    for (let i = 0; i < 6; i += 1) attempts.push((await change(`wrong-${i}`)).statusCode);
    expect(attempts).toEqual([400, 400, 400, 400, 400, 400]);
    const blocked = await change('Stolen!pass1');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(blocked.json().message).toMatch(/Try again in/);
    // The same account is blocked at sign-in too, and the password did not change.
    const login = await t.call('POST', '/api/auth/login', {
      body: { email: 'stolen@test.cm', password: 'Stolen!pass1' },
    });
    expect(login.statusCode).toBe(429);
    await t.db.query("UPDATE login_throttle SET blocked_until = now() - interval '1 second'");
    expect((await change('Stolen!pass1')).statusCode).toBe(204);
    const rows = await t.db.query<{ key: string }>(
      "SELECT key FROM login_throttle WHERE key = 'pair:stolen@test.cm|127.0.0.1'",
    );
    expect(rows).toHaveLength(0);
  });
});

describe('housekeeping', () => {
  it('purges ended sessions, finished throttle windows and old sign-in addresses when a server starts, keeping live rows', async () => {
    const { token } = await t.login('client@test.cm', 'Client!pass1');
    const live = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sid as string;
    const [user] = await t.db.query<{ id: number }>("SELECT id FROM users WHERE email = 'client@test.cm'");
    const userId = user?.id;
    await t.db.query(
      `INSERT INTO sessions (id, user_id, expires_at, revoked_at, last_active_at) VALUES
         ('ended', $1, now() + interval '1 hour', now() - interval '1 minute', now()),
         ('expired', $1, now() - interval '1 minute', NULL, now() - interval '1 minute'),
         ('idle', $1, now() + interval '1 hour', NULL, now() - interval '2 hours')`,
      [userId],
    );
    await t.db.query(
      `INSERT INTO login_throttle (key, failures, window_started_at, blocked_until) VALUES
         ('pair:old@test.cm|192.0.2.1', 3, now() - interval '1 hour', NULL),
         ('account:old@test.cm', 30, now() - interval '1 hour', now() - interval '1 minute'),
         ('account:still-blocked@test.cm', 30, now() - interval '1 hour', now() + interval '5 minutes'),
         ('pair:recent@test.cm|192.0.2.1', 2, now(), NULL)`,
    );
    await t.db.query(
      `INSERT INTO login_addresses (user_id, address, last_success_at) VALUES
         ($1, '192.0.2.200', now() - interval '91 days'), ($1, '192.0.2.201', now() - interval '89 days')`,
      [userId],
    );
    // Another server process on the same database: it purges when ready, and again every hour.
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      CM_WEB_DIST: '/nonexistent',
      CM_DATA_DIR: os.tmpdir(),
      CM_MAX_EVENT_LOOP_DELAY_MS: '0',
    });
    const other = await buildApp({
      config,
      db: t.db,
      webApiKey: t.apiKey,
      jwtSecret: SECRET,
      secrets: TEST_SECRETS,
    });
    await other.ready();
    await other.close();

    const sessions = await t.db.query<{ id: string }>(
      "SELECT id FROM sessions WHERE id IN ('ended', 'expired', 'idle', $1)",
      [live],
    );
    expect(sessions.map((row) => row.id)).toEqual([live]);
    const keys = await t.db.query<{ key: string }>(
      "SELECT key FROM login_throttle WHERE key LIKE '%old@test.cm%' OR key LIKE '%recent@test.cm%' OR key LIKE '%still-blocked%' ORDER BY key",
    );
    expect(keys.map((row) => row.key)).toEqual([
      'account:still-blocked@test.cm',
      'pair:recent@test.cm|192.0.2.1',
    ]);
    const addresses = await t.db.query<{ address: string }>(
      'SELECT address FROM login_addresses WHERE user_id = $1 ORDER BY address',
      [userId],
    );
    expect(addresses.map((row) => row.address)).toEqual(['127.0.0.1', '192.0.2.201']);
    expect((await t.call('GET', '/api/auth/me', { token })).statusCode).toBe(200);
  });
});

describe('API key', () => {
  it('is required on every /api call but health', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({
      status: 'ok',
      database: { ready: true },
    });
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'a@b.cm', password: 'x' },
    });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().message).toContain(API_KEY_HEADER);
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { [API_KEY_HEADER]: 'cm_unknown' },
    });
    expect(unknown.statusCode).toBe(401);
    for (const url of ['/api/nowhere', '/%61pi/nowhere', '//API/nowhere']) {
      const nowhere = await t.app.inject({ method: 'GET', url });
      expect(nowhere.statusCode, url).toBe(401);
    }
    expect((await t.call('GET', '/api/nowhere')).statusCode).toBe(404);
  });

  it('stops working at once when revoked, and an ingest-only key may only ingest', async () => {
    const { key, row } = await createApiKey(t.db, 'Temporary', ['read']);
    const headers = { [API_KEY_HEADER]: key };
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode).toBe(401); // key fine, no token
    await t.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [row.id]);
    const { key: other } = await createApiKey(t.db, 'Other', ['read']);
    const revoked = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { [API_KEY_HEADER]: other },
    });
    expect(revoked.statusCode).toBe(401);
    const stored = await t.db.query<{ key_hash: string }>('SELECT key_hash FROM api_keys WHERE id = $1', [
      row.id,
    ]);
    expect(stored[0]?.key_hash).not.toContain(key);
    const { key: ingest } = await createApiKey(t.db, 'Cube', ['ingest']);
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { [API_KEY_HEADER]: ingest },
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('security headers', () => {
  it('sends a CSP without unsafe-inline scripts, frame-ancestors and no-sniff', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });
});
