import type { Objects, World } from './world.ts';

/**
 * Who may do what, as data: every route of the API × every kind of caller × whose object it is.
 *
 * Objects: `own` are client A's (its location, meter, bookmark…; for user and API-key routes, client
 * A's user and an integration key), `other` are client B's, `missing` are ids and names nothing has.
 * Routes that take no object have one `none` row. Statuses are listed in the column order of `callers`:
 *
 *   admin  clientA  clientB  disabled  noToken  expired  noKey  revoked  ingest
 *
 * - disabled: a token issued by a real login before the account was disabled.
 * - noToken / expired: the web app's API key, and no or an expired bearer token.
 * - noKey / revoked / ingest: an administrator's valid token with no API key, a revoked key, or a
 *   key that may only ingest readings, so a refusal there can only come from the key check.
 *
 * A client gets the same 404 for another client's object as for a missing one (the test also checks
 * the bodies are identical), and 403 on every administration route whatever the object.
 * HEAD routes that Fastify adds for GET routes are checked against their GET row.
 *
 * Adding a route to the app without a row here fails authorization-matrix.test.ts.
 */
export type Statuses = readonly [number, number, number, number, number, number, number, number, number];
export type Target = 'own' | 'other' | 'missing' | 'none';

export interface CellRequest {
  url: string;
  /** A JSON body, or a raw text body sent with `contentType`. */
  body?: unknown;
  contentType?: string;
}

export interface MatrixRow {
  /** `METHOD /path` exactly as the app registers it (`:param` placeholders). */
  route: string;
  /** The request for one object set (for `none` rows, client A's objects are passed and may be ignored). */
  request: (objects: Objects, world: World) => CellRequest;
  expect: Partial<Record<Target, Statuses>>;
}

export interface MatrixGroup {
  title: string;
  rows: MatrixRow[];
}

let counter = 0;
/** A value no other cell uses (creates must not collide with each other). */
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;
const q = encodeURIComponent;

// Statuses of a route that needs a signed-in user and takes no object.
//                                  admin clientA clientB disabled noToken expired noKey revoked ingest
const SIGNED_IN = (ok: number): Statuses => [ok, ok, ok, 401, 401, 401, 401, 401, 403];
// Administration: 403 for every client, whatever the object.
const MISSING_JOB = '00000000-0000-4000-8000-000000000000';
const MISSING_SERIES = 2_147_483_000;
const ADMIN = (ok: number): Statuses => [ok, 403, 403, 401, 401, 401, 401, 401, 403];
const OPEN: Statuses = [200, 200, 200, 200, 200, 200, 200, 200, 200];
const ESPI_REFUSED: Statuses = [401, 401, 401, 401, 401, 401, 401, 401, 401];
const MISSING_INTERACTION = 'no-such-interaction-0000';
// The OAuth server's answer to a request without its client (400 invalid_request), for every caller.
const OAUTH_REFUSED: Statuses = [400, 400, 400, 400, 400, 400, 400, 400, 400];

const open = (path: string): MatrixRow => ({
  route: `GET ${path}`,
  request: () => ({ url: path }),
  expect: { none: OPEN },
});

export const matrix: MatrixGroup[] = [
  {
    title: 'Open: health and the API description (no key, no token)',
    rows: [
      open('/api/health'),
      open('/api/docs'),
      open('/api/docs/'),
      open('/api/docs/json'),
      open('/api/docs/yaml'),
      {
        route: 'GET /api/docs/static/index.html',
        request: () => ({ url: '/api/docs/static/index.html' }),
        expect: { none: [302, 302, 302, 302, 302, 302, 302, 302, 302] },
      },
      open('/api/docs/static/swagger-initializer.js'),
      {
        route: 'GET /api/docs/*',
        request: () => ({ url: '/api/docs/static/swagger-ui.css' }),
        expect: { none: OPEN },
      },
    ],
  },
  {
    title: 'Sign-in and the session',
    rows: [
      {
        route: 'POST /api/auth/login',
        // Any caller with a web key may sign in; a bearer token sent along changes nothing.
        request: (_o, w) => ({
          url: '/api/auth/login',
          body: { email: w.emails.clientA, password: w.passwords.clientA },
        }),
        //             admin clientA clientB disabled noToken expired noKey revoked ingest
        expect: { none: [200, 200, 200, 200, 200, 200, 401, 401, 403] },
      },
      {
        route: 'GET /api/auth/me',
        request: () => ({ url: '/api/auth/me' }),
        expect: { none: SIGNED_IN(200) },
      },
      {
        route: 'POST /api/auth/refresh',
        request: () => ({ url: '/api/auth/refresh' }),
        expect: { none: SIGNED_IN(200) },
      },
      {
        route: 'POST /api/auth/logout',
        request: () => ({ url: '/api/auth/logout' }),
        expect: { none: SIGNED_IN(204) },
      },
      {
        route: 'PUT /api/auth/language',
        request: () => ({ url: '/api/auth/language', body: { language: 'en' } }),
        expect: { none: SIGNED_IN(204) },
      },
      {
        route: 'POST /api/auth/change-password',
        // A wrong current password: 400 proves the caller got past authentication without changing anything.
        request: () => ({
          url: '/api/auth/change-password',
          body: { currentPassword: 'not-the-password', newPassword: 'Another!password-1' },
        }),
        expect: { none: SIGNED_IN(400) },
      },
    ],
  },
  {
    title: 'Check (spec calls): a client sees its own meters and locations only',
    rows: [
      {
        route: 'GET /api/CheckMeter/GetMeterInfo',
        request: (o) => ({ url: `/api/CheckMeter/GetMeterInfo?meterNumber=${q(o.meterNumber)}` }),
        expect: {
          //       admin clientA clientB disabled noToken expired noKey revoked ingest
          own: [200, 200, 404, 401, 401, 401, 401, 401, 403],
          other: [200, 404, 200, 401, 401, 401, 401, 401, 403],
          missing: [404, 404, 404, 401, 401, 401, 401, 401, 403],
        },
      },
      {
        route: 'GET /api/CheckMeter/GetMonthlyPeaks',
        request: (o) => ({ url: `/api/CheckMeter/GetMonthlyPeaks?name=${q(o.locationName)}&Month=2026-01` }),
        expect: {
          own: [200, 200, 404, 401, 401, 401, 401, 401, 403],
          other: [200, 404, 200, 401, 401, 401, 401, 401, 403],
          missing: [404, 404, 404, 401, 401, 401, 401, 401, 403],
        },
      },
      {
        route: 'GET /api/CheckMeter/GetBaseload',
        request: (o) => ({
          url: `/api/CheckMeter/GetBaseload?meterNumber=${q(o.meterNumber)}&From=2026-01-10&To=2026-01-12`,
        }),
        expect: {
          own: [200, 200, 404, 401, 401, 401, 401, 401, 403],
          other: [200, 404, 200, 401, 401, 401, 401, 401, 403],
          missing: [404, 404, 404, 401, 401, 401, 401, 401, 403],
        },
      },
      {
        route: 'GET /api/CheckMeter/GetReadingCorrections',
        request: (o) => ({
          url: `/api/CheckMeter/GetReadingCorrections?meterNumber=${q(o.meterNumber)}&From=2026-01-10&To=2026-01-12`,
        }),
        expect: {
          own: [200, 200, 404, 401, 401, 401, 401, 401, 403],
          other: [200, 404, 200, 401, 401, 401, 401, 401, 403],
          missing: [404, 404, 404, 401, 401, 401, 401, 401, 403],
        },
      },
      {
        route: 'GET /api/CheckMeter/DownloadMyData',
        request: (o) => ({
          url: `/api/CheckMeter/DownloadMyData?meterNumber=${q(o.meterNumber)}&From=2026-01-10&To=2026-01-12`,
        }),
        expect: {
          own: [200, 200, 404, 401, 401, 401, 401, 401, 403],
          other: [200, 404, 200, 401, 401, 401, 401, 401, 403],
          missing: [404, 404, 404, 401, 401, 401, 401, 401, 403],
        },
      },
      {
        route: 'GET /api/CheckMeter/WhoReadMyData',
        request: (o) => ({ url: `/api/CheckMeter/WhoReadMyData?meterNumber=${q(o.meterNumber)}` }),
        expect: {
          own: [200, 200, 404, 401, 401, 401, 401, 401, 403],
          other: [200, 404, 200, 401, 401, 401, 401, 401, 403],
          missing: [404, 404, 404, 401, 401, 401, 401, 401, 403],
        },
      },
      {
        route: 'GET /api/CheckMeter/WhoReadMyData.csv',
        request: (o) => ({ url: `/api/CheckMeter/WhoReadMyData.csv?meterNumber=${q(o.meterNumber)}` }),
        expect: {
          own: [200, 200, 404, 401, 401, 401, 401, 401, 403],
          other: [200, 404, 200, 401, 401, 401, 401, 401, 403],
          missing: [404, 404, 404, 401, 401, 401, 401, 401, 403],
        },
      },
      {
        route: 'GET /api/CheckMeter/GetTariffs',
        request: (o) => ({ url: `/api/CheckMeter/GetTariffs?name=${q(o.locationName)}` }),
        expect: {
          own: [200, 200, 404, 401, 401, 401, 401, 401, 403],
          other: [200, 404, 200, 401, 401, 401, 401, 401, 403],
          missing: [404, 404, 404, 401, 401, 401, 401, 401, 403],
        },
      },
      {
        route: 'GET /api/CheckMeter/GetCleanestHours',
        request: (o) => ({
          url: `/api/CheckMeter/GetCleanestHours?name=${q(o.locationName)}&date=2026-01-11`,
        }),
        expect: {
          own: [200, 200, 404, 401, 401, 401, 401, 401, 403],
          other: [200, 404, 200, 401, 401, 401, 401, 401, 403],
          missing: [404, 404, 404, 401, 401, 401, 401, 401, 403],
        },
      },
      {
        route: 'GET /api/CheckMeter/GetElectricMeterInformationByLocationPublicName',
        request: (o) => ({
          url: `/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=${q(o.locationName)}&From=2026-01-10&To=2026-01-12`,
        }),
        expect: {
          own: [200, 200, 404, 401, 401, 401, 401, 401, 403],
          other: [200, 404, 200, 401, 401, 401, 401, 401, 403],
          missing: [404, 404, 404, 401, 401, 401, 401, 401, 403],
        },
      },
    ],
  },
  {
    title: 'Bookmarks and search',
    rows: [
      {
        route: 'GET /api/bookmarks/data',
        request: () => ({ url: '/api/bookmarks/data' }),
        expect: { none: SIGNED_IN(200) },
      },
      {
        route: 'POST /api/bookmarks/update',
        request: (o) => ({ url: '/api/bookmarks/update', body: { id: o.bookmarkId } }),
        expect: {
          own: [200, 200, 404, 401, 401, 401, 401, 401, 403],
          other: [200, 404, 200, 401, 401, 401, 401, 401, 403],
          missing: [404, 404, 404, 401, 401, 401, 401, 401, 403],
        },
      },
      {
        route: 'PUT /api/bookmarks/nickname',
        request: (o) => ({
          url: '/api/bookmarks/nickname',
          body: { meterNumber: o.meterNumber, nickname: 'Mine' },
        }),
        expect: {
          own: [200, 200, 404, 401, 401, 401, 401, 401, 403],
          other: [200, 404, 200, 401, 401, 401, 401, 401, 403],
          missing: [404, 404, 404, 401, 401, 401, 401, 401, 403],
        },
      },
      {
        route: 'GET /api/search',
        request: () => ({ url: '/api/search?q=SEC' }),
        expect: { none: SIGNED_IN(200) },
      },
    ],
  },
  {
    title: 'Administration: users',
    rows: [
      {
        route: 'GET /api/admin/users',
        request: () => ({ url: '/api/admin/users' }),
        expect: { none: ADMIN(200) },
      },
      {
        route: 'GET /api/admin/users/:id',
        request: (o) => ({ url: `/api/admin/users/${o.userId}` }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'POST /api/admin/users',
        request: (o) => ({
          url: '/api/admin/users',
          body: {
            email: `${unique('new')}@sec.cm`,
            fullName: 'New client',
            role: 2,
            password: 'New!client-pass1',
            locationIds: [o.locationId],
          },
        }),
        // A missing location is a bad body (400), not a missing object.
        expect: { own: ADMIN(201), other: ADMIN(201), missing: ADMIN(400) },
      },
      {
        route: 'PATCH /api/admin/users/:id',
        request: (o) => ({ url: `/api/admin/users/${o.userId}`, body: { fullName: 'Renamed client' } }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'POST /api/admin/users/:id/disable',
        request: (o) => ({ url: `/api/admin/users/${o.userId}/disable` }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'POST /api/admin/users/:id/enable',
        request: (o) => ({ url: `/api/admin/users/${o.userId}/enable` }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'POST /api/admin/users/:id/reset-password',
        request: (o) => ({ url: `/api/admin/users/${o.userId}/reset-password` }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
    ],
  },
  {
    title: 'Administration: locations',
    rows: [
      {
        route: 'GET /api/admin/locations',
        request: () => ({ url: '/api/admin/locations' }),
        expect: { none: ADMIN(200) },
      },
      {
        route: 'GET /api/admin/locations/:id',
        request: (o) => ({ url: `/api/admin/locations/${o.locationId}` }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'POST /api/admin/locations',
        request: () => ({
          url: '/api/admin/locations',
          body: { publicName: unique('Block N'), address: 'New street 1', timeZone: 'Europe/Paris' },
        }),
        expect: { none: ADMIN(201) },
      },
      {
        route: 'PATCH /api/admin/locations/:id',
        request: (o) => ({
          url: `/api/admin/locations/${o.locationId}`,
          body: { address: 'Moved street 2' },
        }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'POST /api/admin/locations/:id/archive',
        request: (o) => ({ url: `/api/admin/locations/${o.locationId}/archive` }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'POST /api/admin/locations/:id/restore',
        request: (o) => ({ url: `/api/admin/locations/${o.locationId}/restore` }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'GET /api/admin/locations/:id/meters',
        request: (o) => ({ url: `/api/admin/locations/${o.locationId}/meters` }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'GET /api/admin/locations/:id/tariffs',
        request: (o) => ({ url: `/api/admin/locations/${o.locationId}/tariffs` }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'POST /api/admin/locations/:id/tariffs',
        request: (o) => ({
          url: `/api/admin/locations/${o.locationId}/tariffs`,
          body: {
            // A future date no other cell uses: each created version starts on its own day.
            effectiveFrom: new Date(Date.UTC(2031, 0, 1 + (counter += 1))).toISOString().slice(0, 10),
            currency: 'EUR',
            energyPrice: '0.25',
            standingChargePerDay: '0.40',
            taxPercent: '19',
          },
        }),
        expect: { own: ADMIN(201), other: ADMIN(201), missing: ADMIN(404) },
      },
      {
        route: 'DELETE /api/admin/locations/:id/tariffs/:tariffId',
        request: (o) => ({ url: `/api/admin/locations/${o.locationId}/tariffs/2147483000` }),
        expect: { own: ADMIN(404), other: ADMIN(404), missing: ADMIN(404) },
      },
      {
        route: 'GET /api/admin/locations/:id/devices/tree',
        request: (o) => ({ url: `/api/admin/locations/${o.locationId}/devices/tree` }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
    ],
  },
  {
    title: 'Alerts: rules for administrators; each person their own inbox and preferences',
    rows: [
      {
        route: 'GET /api/admin/alert-rules',
        request: () => ({ url: '/api/admin/alert-rules' }),
        expect: { none: ADMIN(200) },
      },
      {
        route: 'POST /api/admin/alert-rules',
        request: (o) => ({
          url: '/api/admin/alert-rules',
          body: { locationId: o.locationId, kind: 'silent', threshold: 24 },
        }),
        expect: { own: ADMIN(201), other: ADMIN(201), missing: ADMIN(404) },
      },
      {
        route: 'DELETE /api/admin/alert-rules/:id',
        request: () => ({ url: '/api/admin/alert-rules/2147483000' }),
        expect: { none: ADMIN(404) },
      },
      {
        route: 'POST /api/admin/alerts/evaluate',
        request: () => ({ url: '/api/admin/alerts/evaluate' }),
        expect: { none: ADMIN(200) },
      },
      {
        route: 'GET /api/admin/mail',
        request: () => ({ url: '/api/admin/mail' }),
        expect: { none: ADMIN(200) },
      },
      {
        route: 'GET /api/admin/webhooks',
        request: () => ({ url: '/api/admin/webhooks' }),
        expect: { none: ADMIN(200) },
      },
      {
        route: 'POST /api/admin/webhooks',
        request: () => ({ url: '/api/admin/webhooks', body: { url: 'http://127.0.0.1:9/hook' } }),
        expect: { none: ADMIN(201) },
      },
      {
        route: 'DELETE /api/admin/webhooks/:id',
        request: () => ({ url: '/api/admin/webhooks/2147483000' }),
        expect: { none: ADMIN(404) },
      },
      {
        route: 'GET /api/admin/webhooks/:id/deliveries',
        request: () => ({ url: '/api/admin/webhooks/2147483000/deliveries' }),
        expect: { none: ADMIN(404) },
      },
      {
        route: 'GET /api/alerts',
        request: () => ({ url: '/api/alerts' }),
        expect: { none: SIGNED_IN(200) },
      },
      {
        route: 'POST /api/alerts/read',
        request: () => ({ url: '/api/alerts/read', body: {} }),
        expect: { none: SIGNED_IN(200) },
      },
      {
        route: 'GET /api/alerts/rules',
        request: () => ({ url: '/api/alerts/rules' }),
        expect: { none: SIGNED_IN(200) },
      },
      {
        // A customer's own rule only on a meter they can see; another's meter is as missing.
        route: 'POST /api/alerts/rules',
        request: (o) => ({
          url: '/api/alerts/rules',
          body: { meterNumber: o.meterNumber, kind: 'dailyAbove', threshold: 30 },
        }),
        expect: {
          //       admin clientA clientB disabled noToken expired noKey revoked ingest
          own: [201, 201, 404, 401, 401, 401, 401, 401, 403],
          other: [201, 404, 201, 401, 401, 401, 401, 401, 403],
          missing: [404, 404, 404, 401, 401, 401, 401, 401, 403],
        },
      },
      {
        // Owners alone (alerts.own-rules.test.ts: client B cannot change or remove client A's rule).
        route: 'PUT /api/alerts/rules/:id',
        request: () => ({ url: '/api/alerts/rules/2147483000', body: { threshold: 10 } }),
        expect: { none: SIGNED_IN(404) },
      },
      {
        route: 'DELETE /api/alerts/rules/:id',
        request: () => ({ url: '/api/alerts/rules/2147483000' }),
        expect: { none: SIGNED_IN(404) },
      },
      {
        route: 'GET /api/alerts/preferences',
        request: () => ({ url: '/api/alerts/preferences' }),
        expect: { none: SIGNED_IN(200) },
      },
      {
        route: 'PUT /api/alerts/preferences',
        request: () => ({
          url: '/api/alerts/preferences',
          body: { items: [{ kind: 'silent', inApp: true, email: false }] },
        }),
        expect: { none: SIGNED_IN(200) },
      },
    ],
  },
  {
    title: 'Administration: devices and meters',
    rows: [
      {
        route: 'GET /api/admin/devices',
        request: () => ({ url: '/api/admin/devices' }),
        expect: { none: ADMIN(200) },
      },
      {
        route: 'GET /api/admin/devices/:id',
        request: (o) => ({ url: `/api/admin/devices/${o.cubeId}` }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'POST /api/admin/devices',
        request: (o) => ({
          url: '/api/admin/devices',
          body: { type: 2, serial: unique('CUBE'), locationId: o.locationId, parentId: o.accessPointId },
        }),
        expect: { own: ADMIN(201), other: ADMIN(201), missing: ADMIN(400) },
      },
      {
        route: 'PATCH /api/admin/devices/:id',
        request: (o) => ({ url: `/api/admin/devices/${o.cubeId}`, body: { priority: 2 } }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'POST /api/admin/meters',
        request: (o) => ({
          url: '/api/admin/meters',
          body: {
            meterNumber: unique('NEW'),
            locationId: o.locationId,
            cubeId: null,
            meterInd: 2 + (counter % 9000),
            installedAt: '2026-01-01T00:00:00Z',
          },
        }),
        expect: { own: ADMIN(201), other: ADMIN(201), missing: ADMIN(400) },
      },
      {
        route: 'GET /api/admin/meters/:meterNumber',
        request: (o) => ({ url: `/api/admin/meters/${q(o.meterNumber)}` }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'PATCH /api/admin/meters/:meterNumber',
        request: (o) => ({ url: `/api/admin/meters/${q(o.meterNumber)}`, body: { priority: 3 } }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'POST /api/admin/meters/:meterNumber/move',
        request: (o) => ({ url: `/api/admin/meters/${q(o.meterNumber)}/move`, body: { cubeId: o.cubeId } }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'POST /api/admin/meters/:meterNumber/exchange',
        request: (o) => ({
          url: `/api/admin/meters/${q(o.meterNumber)}/exchange`,
          body: {
            at: '2026-01-14T00:00:00Z',
            finalRegister: 2000,
            newMeterNumber: unique('EXCH'),
            newStartRegister: 0,
          },
        }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
    ],
  },
  {
    title: 'Administration: readings in and out',
    rows: [
      {
        route: 'POST /api/admin/imports',
        request: (o) => ({
          url: '/api/admin/imports',
          contentType: 'text/csv',
          body: `meter_number,timestamp,register_kwh\n${o.meterNumber},2026-01-13T06:00:00Z,1500\n`,
        }),
        // A line naming no known meter is rejected in the report; the import itself succeeds.
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(200) },
      },
      {
        route: 'POST /api/admin/imports/jobs',
        request: (o) => ({
          url: '/api/admin/imports/jobs?fileName=matrix.csv',
          contentType: 'text/csv',
          body: `meter_number,timestamp,register_kwh\n${o.meterNumber},2026-01-13T06:00:00Z,1500\n`,
        }),
        expect: { own: ADMIN(201) },
      },
      {
        route: 'GET /api/admin/imports/jobs',
        request: () => ({ url: '/api/admin/imports/jobs' }),
        expect: { none: ADMIN(200) },
      },
      ...(['GET', 'POST preview', 'POST start', 'POST cancel', 'GET rejected.csv'] as const).map(
        (call): MatrixRow => {
          const [method, tail] = call.split(' ');
          const url = `/api/admin/imports/jobs/${MISSING_JOB}${tail ? `/${tail}` : ''}`;
          return {
            route: `${method} /api/admin/imports/jobs/:id${tail ? `/${tail}` : ''}`,
            request: () => ({ url, ...(method === 'POST' ? { body: {} } : {}) }),
            expect: { missing: ADMIN(404) },
          };
        },
      ),
      {
        route: 'GET /api/admin/imports/reconciliation',
        request: (o) => ({
          url: `/api/admin/imports/reconciliation?meterNumber=${q(o.meterNumber)}&From=2026-01-10&To=2026-01-12`,
        }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'POST /api/admin/imports/jobs/:id/meters',
        request: () => ({
          url: `/api/admin/imports/jobs/${MISSING_JOB}/meters`,
          body: { meters: [{ meterNumber: 'MATRIX-NEW', locationId: 1 }] },
        }),
        expect: { missing: ADMIN(404) },
      },
      {
        route: 'GET /api/admin/imports/mappings',
        request: () => ({ url: '/api/admin/imports/mappings' }),
        expect: { none: ADMIN(200) },
      },
      {
        route: 'PUT /api/admin/imports/mappings/:name',
        request: () => ({
          url: '/api/admin/imports/mappings/Matrix',
          body: {
            mapping: {
              delimiter: ',',
              decimal: '.',
              header: true,
              time: { column: 'when', layout: 'iso', stamp: 'end' },
              value: { column: 'kwh', unit: 'kWh', kind: 'interval' },
              meter: { fixed: 'SEC-A-0001' },
            },
          },
        }),
        expect: { none: ADMIN(200) },
      },
      {
        route: 'DELETE /api/admin/imports/mappings/:name',
        request: () => ({ url: '/api/admin/imports/mappings/No%20such%20mapping' }),
        expect: { missing: ADMIN(404) },
      },
      {
        route: 'GET /api/admin/exports/readings',
        request: (o) => ({
          url: `/api/admin/exports/readings?meterNumber=${q(o.meterNumber)}&From=2026-01-10&To=2026-01-12`,
        }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
    ],
  },
  {
    title: 'Price and carbon series (issue 36): administrators; feeds push days with an ingest key',
    rows: [
      ...(['price', 'carbon'] as const).flatMap((kind): MatrixRow[] => {
        const base = `/api/admin/${kind}-series`;
        const dayBody = { values: new Array<string>(48).fill('1') };
        return [
          { route: `GET ${base}`, request: () => ({ url: base }), expect: { none: ADMIN(200) } },
          {
            route: `POST ${base}`,
            request: () => ({
              url: base,
              body: {
                name: unique(`${kind} series`),
                intervalMinutes: 30,
                timeZone: 'Europe/Amsterdam',
                ...(kind === 'price' ? { unit: 'MWh', currency: 'EUR', zone: 'NL' } : { region: 'NL' }),
              },
            }),
            expect: { none: ADMIN(201) },
          },
          {
            route: `POST ${base}/import`,
            request: () => ({
              url: `${base}/import?${new URLSearchParams({
                name: unique(`${kind} file`),
                intervalMinutes: '30',
                timeZone: 'Europe/Amsterdam',
                ...(kind === 'price' ? { unit: 'MWh', currency: 'EUR', zone: 'NL' } : { region: 'NL' }),
              }).toString()}`,
              body: '2026-01-05 00:00,1\n',
              contentType: 'text/csv',
            }),
            expect: { none: ADMIN(201) },
          },
          {
            route: `GET ${base}/:id`,
            request: () => ({ url: `${base}/${MISSING_SERIES}` }),
            expect: { missing: ADMIN(404) },
          },
          {
            route: `POST ${base}/:id/csv`,
            request: () => ({
              url: `${base}/${MISSING_SERIES}/csv`,
              body: '2026-01-05 00:00,1\n',
              contentType: 'text/csv',
            }),
            expect: { missing: ADMIN(404) },
          },
          {
            route: `GET ${base}/:id/days/:date`,
            request: () => ({ url: `${base}/${MISSING_SERIES}/days/2026-01-05` }),
            expect: { missing: ADMIN(404) },
          },
          {
            route: `PUT ${base}/:id/days/:date`,
            request: () => ({ url: `${base}/${MISSING_SERIES}/days/2026-01-05`, body: dayBody }),
            expect: { missing: ADMIN(404) },
          },
          {
            route: `PUT /api/ingest/${kind}-series/:id/days/:date`,
            request: () => ({
              url: `/api/ingest/${kind}-series/${MISSING_SERIES}/days/2026-01-05`,
              body: dayBody,
            }),
            // Every web-key caller is refused by the key; an ingest key reaches the series (none here).
            //       admin clientA clientB disabled noToken expired noKey revoked ingest
            expect: { missing: [403, 403, 403, 403, 403, 403, 401, 401, 404] },
          },
        ];
      }),
      {
        route: 'GET /api/admin/locations/:id/carbon-series',
        request: (o) => ({ url: `/api/admin/locations/${o.locationId}/carbon-series` }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'PUT /api/admin/locations/:id/carbon-series',
        request: (o) => ({
          url: `/api/admin/locations/${o.locationId}/carbon-series`,
          body: { seriesId: null },
        }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
    ],
  },
  {
    title: 'Device ingestion: an API key of scope ingest, no user',
    rows: [
      {
        route: 'POST /api/ingest/readings',
        request: (o) => ({
          url: '/api/ingest/readings',
          body: {
            readings: [{ meterNumber: o.meterNumber, readAt: '2026-01-13T07:00:00Z', register: 1600 }],
          },
        }),
        // Every web-key caller is refused by the key (403) before any token is looked at; an unknown
        // meter is a rejected reading in a 200 answer, as devices send batches.
        expect: {
          //       admin clientA clientB disabled noToken expired noKey revoked ingest
          own: [403, 403, 403, 403, 403, 403, 401, 401, 200],
          other: [403, 403, 403, 403, 403, 403, 401, 401, 200],
          missing: [403, 403, 403, 403, 403, 403, 401, 401, 200],
        },
      },
    ],
  },
  {
    title: 'Administration: API keys and audit log',
    rows: [
      {
        route: 'GET /api/admin/api-keys',
        request: () => ({ url: '/api/admin/api-keys' }),
        expect: { none: ADMIN(200) },
      },
      {
        route: 'POST /api/admin/api-keys',
        request: () => ({ url: '/api/admin/api-keys', body: { name: unique('Key'), scopes: ['read'] } }),
        expect: { none: ADMIN(201) },
      },
      {
        route: 'POST /api/admin/api-keys/:id/revoke',
        request: (o) => ({ url: `/api/admin/api-keys/${o.apiKeyId}/revoke` }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'GET /api/admin/connect/apps',
        request: () => ({ url: '/api/admin/connect/apps' }),
        expect: { none: ADMIN(200) },
      },
      {
        route: 'POST /api/admin/connect/apps',
        request: () => ({
          url: '/api/admin/connect/apps',
          body: {
            name: unique('App'),
            contact: 'ops@app.example',
            redirectUris: ['https://app.example/cb'],
            dataKinds: ['intervals'],
          },
        }),
        expect: { none: ADMIN(201) },
      },
      {
        route: 'POST /api/admin/connect/apps/:id/suspend',
        request: (o) => ({ url: `/api/admin/connect/apps/${o.connectAppId}/suspend` }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'POST /api/admin/connect/apps/:id/resume',
        request: (o) => ({ url: `/api/admin/connect/apps/${o.connectAppId}/resume` }),
        expect: { own: ADMIN(200), other: ADMIN(200), missing: ADMIN(404) },
      },
      {
        route: 'DELETE /api/admin/connect/apps/:id',
        request: (o) => ({ url: `/api/admin/connect/apps/${o.connectAppId}` }),
        expect: { own: ADMIN(204), other: ADMIN(204), missing: ADMIN(404) },
      },
      {
        route: 'GET /api/admin/connect/grants',
        request: () => ({ url: '/api/admin/connect/grants' }),
        expect: { none: ADMIN(200) },
      },
      {
        route: 'DELETE /api/admin/connect/grants/:id',
        request: (o) => ({ url: `/api/admin/connect/grants/${o.connectGrantId}` }),
        expect: { own: ADMIN(204), other: ADMIN(204), missing: ADMIN(404) },
      },
      {
        route: 'GET /api/admin/audit',
        request: () => ({ url: '/api/admin/audit' }),
        expect: { none: ADMIN(200) },
      },
    ],
  },
  {
    title: 'Connect My Data: consent, grants, the OAuth server and the ESPI API',
    rows: [
      {
        // No interaction has this uid: a signed-in caller gets 404, whoever it is.
        route: 'GET /api/connect/consent/:uid',
        request: () => ({ url: `/api/connect/consent/${MISSING_INTERACTION}` }),
        expect: { none: SIGNED_IN(404) },
      },
      {
        route: 'POST /api/connect/consent/:uid/allow',
        request: (o) => ({
          url: `/api/connect/consent/${MISSING_INTERACTION}/allow`,
          body: { meterNumbers: [o.meterNumber], from: '2026-01-01', months: 12 },
        }),
        expect: { none: SIGNED_IN(404) },
      },
      {
        route: 'POST /api/connect/consent/:uid/refuse',
        request: () => ({ url: `/api/connect/consent/${MISSING_INTERACTION}/refuse` }),
        expect: { none: SIGNED_IN(404) },
      },
      {
        route: 'GET /api/connect/grants',
        request: () => ({ url: '/api/connect/grants' }),
        expect: { none: SIGNED_IN(200) },
      },
      {
        // A customer's own grants only; administrators revoke through /api/admin/connect/grants.
        route: 'DELETE /api/connect/grants/:id',
        request: (o) => ({ url: `/api/connect/grants/${o.connectGrantId}` }),
        expect: {
          own: [404, 204, 404, 401, 401, 401, 401, 401, 403],
          other: [404, 404, 204, 401, 401, 401, 401, 401, 403],
          missing: [404, 404, 404, 401, 401, 401, 401, 401, 403],
        },
      },
      // The OAuth server's metadata and keys: public.
      open('/oauth/.well-known/openid-configuration'),
      open('/oauth/jwks'),
      {
        // No client_id: refused whoever asks (an authorization request is the app's, not CM's caller's).
        route: 'GET /oauth/auth',
        request: () => ({ url: '/oauth/auth' }),
        expect: { none: OAUTH_REFUSED },
      },
      {
        // An interaction no browser started: nothing to resume, whoever asks.
        route: 'GET /oauth/auth/:uid',
        request: () => ({ url: `/oauth/auth/${MISSING_INTERACTION}` }),
        expect: { none: OAUTH_REFUSED },
      },
      {
        // The token endpoints authenticate the app itself: no CM key or session counts.
        route: 'POST /oauth/token',
        request: () => ({ url: '/oauth/token', body: { grant_type: 'client_credentials' } }),
        expect: { none: OAUTH_REFUSED },
      },
      {
        route: 'POST /oauth/token/revocation',
        request: () => ({ url: '/oauth/token/revocation', body: { token: 'x' } }),
        expect: { none: OAUTH_REFUSED },
      },
      ...[
        `/espi/1_1/resource/Batch/Subscription/:subscriptionId`,
        `/espi/1_1/resource/Subscription/:subscriptionId/UsagePoint`,
        `/espi/1_1/resource/Subscription/:subscriptionId/UsagePoint/:usagePointId/MeterReading`,
        `/espi/1_1/resource/Subscription/:subscriptionId/UsagePoint/:usagePointId/UsageSummary`,
        `/espi/1_1/resource/Subscription/:subscriptionId/UsagePoint/:usagePointId/MeterReading/:meterReadingId/IntervalBlock`,
      ].map((path): MatrixRow => ({
        // Only a grant's access token reads the ESPI API: a CM session's token is refused.
        route: `GET ${path}`,
        request: (o) => ({
          url: path
            .replace(':subscriptionId', String(o.connectGrantId))
            .replace(':usagePointId', String(o.meterDeviceId))
            .replace(':meterReadingId', '2'),
        }),
        expect: { own: ESPI_REFUSED, other: ESPI_REFUSED, missing: ESPI_REFUSED },
      })),
    ],
  },
];

/** Every row, keyed by route. */
export const matrixRows = (): Map<string, MatrixRow> =>
  new Map(matrix.flatMap((group) => group.rows).map((row) => [row.route, row]));
