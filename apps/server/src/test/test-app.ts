import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { API_KEY_HEADER, Role, type RoleId } from '@cm/contracts/enums.ts';
import type { UserRecord } from '@cm/contracts/auth.ts';
import { locationReadingsSchema, type LocationReadings } from '@cm/contracts/check.ts';
import { readingsAsRead } from '@cm/contracts/series-columns.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { Db, SqlRunner } from '../db/client.ts';
import { createApiKey } from '../modules/api-keys/api-keys.service.ts';
import { SecretBox } from '../secrets.ts';
import { hashPassword } from '../modules/auth/index.ts';
import { createTestDb } from './test-db.ts';

/** The token secret of every test app. */
export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123';
/** The secrets key of every test app (secrets.ts). */
export const TEST_SECRETS = new SecretBox(Buffer.alloc(32, 7), 'the test key');

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  apiKey: string;
  /** The app's data folder (uploads being imported are spooled under it). */
  dataDir: string;
  /** GET/POST with the web API key (and a token when given). */
  call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  login(email: string, password: string): Promise<UserRecord>;
  close(): Promise<void>;
}

/** The real application on a fresh test database, driven with fastify.inject. */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const db = await createTestDb();
  const { key: apiKey } = await createApiKey(db, 'Test web app', ['web']);
  // Uploads are spooled under the data folder: one of its own per app.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cm-test-app-'));
  const config = loadConfig({
    LOG_LEVEL: process.env.CM_TEST_LOG ?? 'silent',
    CM_WEB_DIST: '/nonexistent',
    CM_DATA_DIR: dataDir,
    // Tests pack chunks when they ask to (packQueuedMonths): nothing changes under them.
    CM_PACK_EVERY_SECONDS: '86400',
    // A busy machine must not make tests fail: shedding for event-loop delay is off unless a test
    // sets a bound to test it (its in-flight bound stays, and its own tests drive it).
    CM_MAX_EVENT_LOOP_DELAY_MS: '0',
    // Nor may a nearly full disk: health's low-disk bound is off unless a test sets one.
    CM_DISK_LOW_BYTES: '0',
    ...env,
  });
  const app = await buildApp({
    config,
    db,
    webApiKey: apiKey,
    jwtSecret: TEST_SECRET,
    secrets: TEST_SECRETS,
  });
  await app.ready();
  const call: TestApp['call'] = (method, url, options = {}) =>
    app.inject({
      method,
      url,
      headers: {
        [API_KEY_HEADER]: apiKey,
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { payload: options.body as object }),
    });
  return {
    app,
    db,
    apiKey,
    dataDir,
    call,
    async login(email, password) {
      const response = await call('POST', '/api/auth/login', { body: { email, password } });
      if (response.statusCode !== 200)
        throw new Error(`login failed: ${response.statusCode} ${response.body}`);
      return response.json<UserRecord>();
    },
    async close() {
      await app.close();
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Inserts a user (password hashed as in production) and answers its id. */
export async function insertUser(
  db: SqlRunner,
  user: { email: string; password: string; role?: RoleId; fullName?: string; isDisabled?: boolean },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    'INSERT INTO users (email, full_name, password_hash, role_id, is_disabled) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [
      user.email,
      user.fullName ?? user.email,
      await hashPassword(user.password),
      user.role ?? Role.Client,
      user.isDisabled ?? false,
    ],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert user returned no id');
  return id;
}

/** Adds the administrator admin@test.cm to the app's database and answers its sign-in token. */
export async function signInNewAdmin(t: TestApp): Promise<string> {
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  return (await t.login('admin@test.cm', 'Admin!pass1')).token;
}

/** A readings answer checked against the contract and read as the web app reads it (every count column). */
export function readingsAnswer(response: Pick<LightMyRequestResponse, 'json'>): LocationReadings {
  return readingsAsRead(locationReadingsSchema.parse(response.json()));
}
