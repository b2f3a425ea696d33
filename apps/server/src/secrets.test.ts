import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_HEADER, Role } from '@cm/contracts/enums.ts';
import { buildApp } from './app.ts';
import { prepare } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import type { Db } from './db/client.ts';
import { createApiKey } from './modules/api-keys/api-keys.service.ts';
import { insertUser, TEST_SECRETS } from './test/test-app.ts';
import { createTestDb } from './test/test-db.ts';
import { SecretBox, SecretsKeyError } from './secrets.ts';

// Secrets kept in the database are sealed with a key kept outside it (finding 12 of the
// 2026-11-27 probe): CM_SECRETS_KEY, or $CM_DATA_DIR/secrets.key.

// As an earlier version left them: the generated token secret and a webhook's secret in clear.
const CLEAR_JWT = 'clear-token-secret-of-an-earlier-version-0123';
const CLEAR_HOOK = `whsec_${'ab'.repeat(32)}`;
const ADMIN = { email: 'admin@secrets.test', password: 'Sealed secrets, kept apart 1' };

let db: Db;
let dataDir: string;
const config = (env: Record<string, string> = {}) =>
  loadConfig({
    // Only prepare()'s choice of steps reads this: the database is the test's.
    DATABASE_URL: 'postgres://unused@localhost/unused',
    CM_DATA_DIR: dataDir,
    CM_WEB_DIST: '/nonexistent',
    LOG_LEVEL: 'silent',
    // Not shed on a busy machine (test/test-app.ts).
    CM_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  });
const stored = async () => ({
  jwt: (await db.query<{ value: string }>("SELECT value FROM settings WHERE key = 'jwt_secret'"))[0]?.value,
  hook: (await db.query<{ secret: string }>('SELECT secret FROM webhooks'))[0]?.secret,
});

beforeAll(async () => {
  db = await createTestDb();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'cm-secrets-'));
});
afterAll(async () => {
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('secrets at rest', () => {
  it('seals what an earlier version kept in clear; its tokens still verify', async () => {
    await db.query("INSERT INTO settings (key, value) VALUES ('jwt_secret', $1)", [
      JSON.stringify(CLEAR_JWT),
    ]);
    await db.query('INSERT INTO webhooks (url, secret) VALUES ($1, $2)', [
      'https://hooks.example.com/cm',
      CLEAR_HOOK,
    ]);
    await insertUser(db, { ...ADMIN, role: Role.Admin });
    // A token the earlier version issued, signed with the clear secret.
    const { key } = await createApiKey(db, 'Web app', ['web']);
    const earlier = await buildApp({
      config: config(),
      db,
      webApiKey: key,
      jwtSecret: CLEAR_JWT,
      secrets: TEST_SECRETS,
    });
    const login = await earlier.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { [API_KEY_HEADER]: key },
      payload: ADMIN,
    });
    await earlier.close();
    const { token } = login.json<{ token: string }>();

    // This version starts: no CM_SECRETS_KEY, so a key file is made in the data folder.
    const started = await prepare(db, config());
    expect(started.jwtSecret).toBe(CLEAR_JWT);
    const sealed = await stored();
    expect(sealed.jwt).toMatch(/^cmenc:v1:/);
    expect(sealed.hook).toMatch(/^cmenc:v1:/);
    expect(JSON.stringify(sealed)).not.toContain(CLEAR_JWT);
    expect(JSON.stringify(sealed)).not.toContain(CLEAR_HOOK.slice(6));
    expect(started.secrets.open(sealed.hook ?? '', 'webhooks.secret')).toBe(CLEAR_HOOK);
    expect((await stat(path.join(dataDir, 'secrets.key'))).mode & 0o777).toBe(0o600);

    const now = await buildApp({ ...started, config: config(), db });
    try {
      const me = await now.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { [API_KEY_HEADER]: started.webApiKey, authorization: `Bearer ${token}` },
      });
      expect(me.statusCode).toBe(200);
    } finally {
      await now.close();
    }

    // Started again: the same key from the file, the sealed values left as they are.
    const again = await prepare(db, config());
    expect(again.jwtSecret).toBe(CLEAR_JWT);
    expect(await stored()).toEqual(sealed);
  });

  it('refuses to start with another key, saying so', async () => {
    const other = Buffer.alloc(32, 1).toString('base64');
    await expect(prepare(db, config({ CM_SECRETS_KEY: other }))).rejects.toThrow(SecretsKeyError);
    await expect(prepare(db, config({ CM_SECRETS_KEY: other }))).rejects.toThrow(
      /encrypted with another key than CM_SECRETS_KEY/,
    );
    // The data folder's key lost: a new one is made, and refused in the same words.
    await rm(path.join(dataDir, 'secrets.key'));
    await expect(prepare(db, config())).rejects.toThrow(/encrypted with another key than .*secrets\.key/);
  });

  it('seals the signing secret it makes on a new database (probe N60)', async () => {
    const fresh = await createTestDb();
    const freshDir = await mkdtemp(path.join(os.tmpdir(), 'cm-secrets-fresh-'));
    try {
      const started = await prepare(fresh, { ...config(), dataDir: freshDir });
      const [row] = await fresh.query<{ value: string }>(
        "SELECT value FROM settings WHERE key = 'jwt_secret'",
      );
      expect(row?.value).toMatch(/^cmenc:v1:/);
      expect(row?.value).not.toContain(started.jwtSecret);
    } finally {
      await fresh.close();
      await rm(freshDir, { recursive: true, force: true });
    }
  });

  it('binds each sealed value to what it is for, and never seals the same way twice', () => {
    const box = new SecretBox(Buffer.alloc(32, 2), 'a key');
    const sealed = box.seal('s3cret', 'webhooks.secret');
    expect(box.seal('s3cret', 'webhooks.secret')).not.toBe(sealed);
    expect(box.open(sealed, 'webhooks.secret')).toBe('s3cret');
    expect(() => box.open(sealed, 'jwt_secret')).toThrow(SecretsKeyError);
  });
});
