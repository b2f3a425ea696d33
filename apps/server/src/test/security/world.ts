import { randomUUID } from 'node:crypto';
import { API_KEY_HEADER, Role } from '@cm/contracts/enums.ts';
import { createApiKey } from '../../modules/api-keys/api-keys.service.ts';
import { insertSession } from '../../modules/auth/auth.queries.ts';
import { TokenSigner } from '../../modules/auth/index.ts';
import {
  insertDevice,
  insertLocation,
  insertMeter,
  insertReadings,
  linkUserToLocation,
  regularReadings,
} from '../factories.ts';
import { insertUser, type TestApp } from '../test-app.ts';

/** The secret createTestApp signs tokens with (so tests can mint and forge tokens). */
export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123';

/**
 * Who calls. Client A and client B each see one location; "disabled" holds a token issued before
 * the account was disabled; the last three carry an admin's valid token but a bad API key, so a
 * refusal can only come from the key.
 */
export const callers = [
  'admin',
  'clientA',
  'clientB',
  'disabled',
  'noToken',
  'expiredToken',
  'noApiKey',
  'revokedKey',
  'ingestKey',
] as const;
export type Caller = (typeof callers)[number];

/** The ids of one set of objects of every kind: client A's ("own"), client B's ("other"), or ids nothing has ("missing"). */
export interface Objects {
  userId: number;
  locationId: number;
  locationName: string;
  accessPointId: number;
  cubeId: number;
  /** Device id of the meter (meters are devices of type 3). */
  meterDeviceId: number;
  meterNumber: string;
  /** A suggestion id as bookmarks use it. */
  bookmarkId: string;
  apiKeyId: number;
  /** A registered third-party app (Connect My Data): no client's, one per site so that changes do not collide. */
  connectAppId: number;
  /** The site's client's grant to the site's app, of the site's meter. */
  connectGrantId: number;
}

export interface World {
  ids: { admin: number; clientA: number; clientB: number; disabled: number };
  passwords: { admin: string; clientA: string; clientB: string; disabled: string };
  emails: { admin: string; clientA: string; clientB: string; disabled: string };
  own: Objects;
  other: Objects;
  missing: Objects;
  keys: { web: string; revoked: string; ingest: string; read: string };
  /** The disabled user's token, issued by a real login while the account was enabled. */
  disabledToken: string;
  /** A fresh session and token for a user (no password hashing, so every matrix cell can have its own session). */
  mintToken(userId: number, ttlSeconds?: number): Promise<string>;
  /** Headers of a request made by `caller`. */
  headersFor(caller: Caller): Promise<Record<string, string>>;
}

// Readings start here, 15-minute registers over three days.
export const READINGS_FROM = Date.UTC(2026, 0, 10);
const READINGS_TO = Date.UTC(2026, 0, 13);

async function siteFor(t: TestApp, tag: 'A' | 'B', userId: number, apiKeyId: number): Promise<Objects> {
  const locationName = `Block ${tag} / Apt ${tag === 'A' ? 101 : 202}`;
  const locationId = await insertLocation(t.db, locationName, 'Europe/Berlin');
  await linkUserToLocation(t.db, userId, locationId);
  const accessPointId = await insertDevice(t.db, { type: 1, serial: `AP-${tag}`, locationId });
  const cubeId = await insertDevice(t.db, {
    type: 2,
    serial: `CUBE-${tag}`,
    locationId,
    parentId: accessPointId,
  });
  const meterNumber = `SEC-${tag}-0001`;
  const meterDeviceId = await insertMeter(t.db, {
    meterNumber,
    locationId,
    meterInd: 1,
    cubeId,
    installedAt: new Date(Date.UTC(2025, 11, 1)),
  });
  await insertReadings(
    t.db,
    meterDeviceId,
    regularReadings(READINGS_FROM, READINGS_TO, 900_000, 1_000_000, (i) => 100 + (i % 7)),
  );
  const [connectApp] = await t.db.query<{ id: number }>(
    `INSERT INTO connect_apps (name, contact, client_id, secret_hash, redirect_uris, data_kinds)
     VALUES ($1, 'ops@app.example', $2, 'not-a-hash', '{https://app.example/cb}', '{intervals}') RETURNING id`,
    [`App ${tag}`, `cmapp_matrix_${tag}`],
  );
  const [grant] = await t.db.query<{ id: number }>(
    `INSERT INTO connect_grants (app_id, user_id, meter_ids, data_kinds, data_from, until, oidc_grant_id)
     VALUES ($1, $2, $3, '{intervals}', '2026-01-01', now() + interval '1 year', $4) RETURNING id`,
    [connectApp?.id, userId, [meterDeviceId], `matrix-grant-${tag}`],
  );
  const bookmarkId = `meter:${meterNumber}`;
  await t.db.query('INSERT INTO bookmarks (user_id, item_id) VALUES ($1, $2)', [userId, bookmarkId]);
  return {
    userId,
    locationId,
    locationName,
    accessPointId,
    cubeId,
    meterDeviceId,
    meterNumber,
    bookmarkId,
    apiKeyId,
    connectAppId: connectApp?.id ?? 0,
    connectGrantId: grant?.id ?? 0,
  };
}

/** Two clients' worlds side by side on a test app, plus an administrator and a disabled user. */
export async function buildWorld(t: TestApp): Promise<World> {
  const passwords = {
    admin: 'Admin!secure-01',
    clientA: 'ClientA!secure-01',
    clientB: 'ClientB!secure-01',
    disabled: 'Gone!secure-01',
  };
  const emails = {
    admin: 'admin@sec.cm',
    clientA: 'client.a@sec.cm',
    clientB: 'client.b@sec.cm',
    disabled: 'gone@sec.cm',
  };
  const ids = {
    admin: await insertUser(t.db, { email: emails.admin, password: passwords.admin, role: Role.Admin }),
    clientA: await insertUser(t.db, { email: emails.clientA, password: passwords.clientA }),
    clientB: await insertUser(t.db, { email: emails.clientB, password: passwords.clientB }),
    disabled: await insertUser(t.db, { email: emails.disabled, password: passwords.disabled }),
  };
  const keyA = await createApiKey(t.db, 'Integration A', ['read']);
  const keyB = await createApiKey(t.db, 'Integration B', ['read']);
  const own = await siteFor(t, 'A', ids.clientA, keyA.row.id);
  const other = await siteFor(t, 'B', ids.clientB, keyB.row.id);
  // Both sites' grid region has a carbon series (the cleanest hours answer for whoever may see them).
  await t.db.query(
    `WITH s AS (INSERT INTO carbon_series (name, interval_minutes, time_zone, region)
                VALUES ('Security grid', 30, 'Europe/Berlin', 'DE') RETURNING id)
     INSERT INTO location_carbon (location_id, series_id) SELECT unnest($1::int[]), id FROM s`,
    [[own.locationId, other.locationId]],
  );
  // The disabled user could see A's location; its token was issued before it was disabled.
  await linkUserToLocation(t.db, ids.disabled, own.locationId);
  const disabledToken = (await t.login(emails.disabled, passwords.disabled)).token;
  await t.db.query('UPDATE users SET is_disabled = true WHERE id = $1', [ids.disabled]);

  const revoked = await createApiKey(t.db, 'Revoked', ['web']);
  await t.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [revoked.row.id]);
  const ingest = await createApiKey(t.db, 'Cube uplink', ['ingest']);

  const missing: Objects = {
    userId: 2_000_000_001,
    locationId: 2_000_000_002,
    locationName: 'Block Z / Apt 999',
    accessPointId: 2_000_000_003,
    cubeId: 2_000_000_004,
    meterDeviceId: 2_000_000_005,
    meterNumber: 'SEC-Z-9999',
    bookmarkId: 'meter:SEC-Z-9999',
    apiKeyId: 2_000_000_006,
    connectAppId: 2_000_000_007,
    connectGrantId: 2_000_000_008,
  };

  const signer = new TokenSigner(TEST_JWT_SECRET);
  const mintToken = async (userId: number, ttlSeconds = 900) => {
    const session = await insertSession(t.db, randomUUID(), userId, 3600);
    return (await signer.sign({ userId, sessionId: session.id }, ttlSeconds)).token;
  };
  const web = t.apiKey;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  const headersFor = async (caller: Caller): Promise<Record<string, string>> => {
    switch (caller) {
      case 'admin':
        return { [API_KEY_HEADER]: web, ...bearer(await mintToken(ids.admin)) };
      case 'clientA':
        return { [API_KEY_HEADER]: web, ...bearer(await mintToken(ids.clientA)) };
      case 'clientB':
        return { [API_KEY_HEADER]: web, ...bearer(await mintToken(ids.clientB)) };
      case 'disabled':
        return { [API_KEY_HEADER]: web, ...bearer(disabledToken) };
      case 'noToken':
        return { [API_KEY_HEADER]: web };
      case 'expiredToken':
        return { [API_KEY_HEADER]: web, ...bearer(await mintToken(ids.clientA, -60)) };
      case 'noApiKey':
        return bearer(await mintToken(ids.admin));
      case 'revokedKey':
        return { [API_KEY_HEADER]: revoked.key, ...bearer(await mintToken(ids.admin)) };
      case 'ingestKey':
        return { [API_KEY_HEADER]: ingest.key, ...bearer(await mintToken(ids.admin)) };
    }
  };

  return {
    ids,
    passwords,
    emails,
    own,
    other,
    missing,
    keys: { web, revoked: revoked.key, ingest: ingest.key, read: keyA.key },
    disabledToken,
    mintToken,
    headersFor,
  };
}
