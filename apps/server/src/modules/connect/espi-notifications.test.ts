import { createHash, createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportReport, IngestResult } from '@cm/contracts/admin.ts';
import { API_KEY_HEADER, Role } from '@cm/contracts/enums.ts';
import { OutboundPolicy } from '../../outbound.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';
import { insertLocation, insertMeter, linkUserToLocation } from '../../test/factories.ts';
import { authorize, registerApp, type TestOauthApp } from '../../test/oauth-client.ts';
import { createApiKey } from '../api-keys/api-keys.service.ts';
import { validateEspi } from '../exports/espi-validate.ts';
import { deliverNotifications } from './espi-notifications.ts';

// ESPI notifications (issue 37): an import or a device batch that adds readings to a granted
// meter makes CM POST the grant's batch URI to the app's notification URI, signed as webhooks are
// and tried again when the app's server fails; nothing for other meters or ended grants.

interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let t: TestApp;
let admin: string;
let anna: string;
let ingestKey: string;
let receiver: Server;
let port = 0;
let received: Received[] = [];
/** What the receiver answers, in turn (200 once they are used up). */
let answers: number[] = [];
let app: TestOauthApp;
let subscription = 0;

const PUBLIC_URL = 'http://localhost:3000';
const loopback = new OutboundPolicy([{ address: '127.0.0.0', prefix: 8 }]);

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body });
      response.statusCode = answers.shift() ?? 200;
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  port = (receiver.address() as AddressInfo).port;
  // The app's server is on this machine: an administrator allowed loopback (CM_OUTBOUND_ALLOW_CIDRS).
  t = await createTestApp({ CM_OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8', CM_PUBLIC_URL: PUBLIC_URL });
  await insertUser(t.db, { email: 'admin@notify.cm', password: 'Admin!notify-1', role: Role.Admin });
  const a = await insertUser(t.db, {
    email: 'anna@notify.cm',
    password: 'Client!notify-A',
    fullName: 'Anna',
  });
  const home = await insertLocation(t.db, 'Notify Home', 'UTC');
  await linkUserToLocation(t.db, a, home);
  const installedAt = new Date('2026-01-01T00:00:00Z');
  await insertMeter(t.db, { meterNumber: 'NT-1', locationId: home, meterInd: 1, installedAt });
  await insertMeter(t.db, { meterNumber: 'NT-2', locationId: home, meterInd: 2, installedAt });
  ingestKey = (await createApiKey(t.db, 'Cube gateway', ['ingest'])).key;
  admin = (await t.login('admin@notify.cm', 'Admin!notify-1')).token;
  anna = (await t.login('anna@notify.cm', 'Client!notify-A')).token;
  app = await registerApp(
    t,
    admin,
    'HeatPumpSizer',
    ['intervals', 'registers'],
    `http://127.0.0.1:${port}/espi/notify`,
  );
  const tokens = await authorize(t, app, anna, { meterNumbers: ['NT-1'], from: '2026-01-01', months: 12 });
  subscription = Number(tokens.resourceURI.split('/').pop());
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});
beforeEach(() => {
  received = [];
  answers = [];
});

let day = 0;
/** A CSV of one new interval of `meterNumber` (a new day at each call). */
function oneInterval(meterNumber: string): string {
  day++;
  const end = new Date(Date.parse('2026-02-01T00:15:00Z') + day * 86_400_000).toISOString();
  return `meter_number,timestamp,interval_kwh\n${meterNumber},${end},0.250\n`;
}

const importCsv = async (csv: string) => {
  const response = await t.call('POST', '/api/admin/imports?format=csv', {
    token: admin,
    body: csv,
    headers: { 'content-type': 'text/csv' },
  });
  expect(response.statusCode).toBe(200);
  return response.json<ImportReport>();
};

const notifications = () =>
  t.db.query<{ grant_id: number; status: string; attempts: number; last_result: string | null }>(
    'SELECT grant_id, status, attempts, last_result FROM espi_notifications ORDER BY id',
  );

/** Waits until every notification queued has been tried at least once (the server sends them soon after a commit). */
async function settled(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await notifications()).every((row) => row.attempts > 0 || row.status !== 'pending')) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('notifications not sent within 5 s');
}

/** The signature a receiver recomputes: HMAC-SHA256 of "<t>.<body>", keyed with the SHA-256 (hex) of the client secret. */
function expectSigned(request: Received, clientSecret: string) {
  const header = String(request.headers['x-cm-signature']);
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  expect(match, header).not.toBeNull();
  const [, sentAt = '', mac = ''] = match ?? [];
  expect(Math.abs(Number(sentAt) - Date.now() / 1000)).toBeLessThan(60);
  const key = createHash('sha256').update(clientSecret).digest('hex');
  expect(mac).toBe(createHmac('sha256', key).update(`${sentAt}.${request.body}`).digest('hex'));
}

describe('ESPI notifications', () => {
  it('POSTs the batch URI to the app after an import adds data to a granted meter, signed, XSD-valid', async () => {
    const report = await importCsv(oneInterval('NT-1'));
    expect(report).toMatchObject({ committed: true, inserted: 1 });
    await settled();
    expect(received).toHaveLength(1);
    const [request] = received;
    if (!request) throw new Error('no notification');
    expect(request.path).toBe('/espi/notify');
    expect(request.headers['content-type']).toBe('application/xml; charset=utf-8');
    expectSigned(request, app.clientSecret);
    expect(request.body).toContain(
      `<espi:resources>${PUBLIC_URL}/espi/1_1/resource/Batch/Subscription/${subscription}</espi:resources>`,
    );
    expect(await validateEspi(request.body)).toBe('');
    expect(await notifications()).toEqual([
      { grant_id: subscription, status: 'delivered', attempts: 1, last_result: 'HTTP 200' },
    ]);
  });

  it('sends none after an import into a meter the grant does not hold, nor after one adding nothing', async () => {
    const before = (await notifications()).length;
    await importCsv(oneInterval('NT-2'));
    const csv = oneInterval('NT-1');
    await importCsv(csv);
    await settled();
    received = [];
    // The same file again: every row unchanged, nothing added.
    expect(await importCsv(csv)).toMatchObject({ inserted: 0, unchanged: 1 });
    await settled();
    expect(received).toEqual([]);
    expect(await deliverNotifications(t.db, PUBLIC_URL, loopback)).toBe(0);
    // Only the import into NT-1 with a new reading queued one.
    expect((await notifications()).length).toBe(before + 1);
  });

  it('POSTs after a device batch adds a reading to a granted meter', async () => {
    const before = (await notifications()).length;
    const response = await t.call('POST', '/api/ingest/readings', {
      body: { readings: [{ meterNumber: 'NT-1', readAt: '2026-03-01T00:00:00Z', register: 12.5 }] },
      headers: { [API_KEY_HEADER]: ingestKey },
    });
    expect(response.json<IngestResult>()).toMatchObject({ accepted: 1 });
    await settled();
    expect(received).toHaveLength(1);
    expectSigned(received[0] as Received, app.clientSecret);
    expect((await notifications()).length).toBe(before + 1);
  });

  it('tries a failing app again on the webhooks backoff, and gives up after the last try', async () => {
    answers = [500];
    await importCsv(oneInterval('NT-1'));
    await settled();
    expect(received).toHaveLength(1);
    expect((await notifications()).at(-1)).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_result: 'HTTP 500',
    });
    // Not due again before the first wait (60 s) is over.
    expect(await deliverNotifications(t.db, PUBLIC_URL, loopback, Date.now() + 30_000)).toBe(0);
    expect(received).toHaveLength(1);
    expect(await deliverNotifications(t.db, PUBLIC_URL, loopback, Date.now() + 61_000)).toBe(1);
    expect(received).toHaveLength(2);
    expect(received[1]?.body).toBe(received[0]?.body);
    expect((await notifications()).at(-1)).toMatchObject({
      status: 'delivered',
      attempts: 2,
      last_result: 'HTTP 200',
    });

    // One that never succeeds: five waits (60 s … 12 h), six tries, then given up.
    answers = Array.from({ length: 10 }, () => 503);
    await importCsv(oneInterval('NT-1'));
    await settled();
    for (let i = 1; i <= 5; i++)
      await deliverNotifications(t.db, PUBLIC_URL, loopback, Date.now() + i * 86_400_000);
    expect((await notifications()).at(-1)).toMatchObject({
      status: 'failed',
      attempts: 6,
      last_result: 'HTTP 503',
    });
  });

  it('sends nothing for a revoked grant, not even one queued before it was revoked', async () => {
    // Queued while the grant was live, its first try failed; then the customer revokes.
    answers = [500];
    await importCsv(oneInterval('NT-1'));
    await settled();
    const revoke = await t.call('DELETE', `/api/connect/grants/${subscription}`, { token: anna });
    expect(revoke.statusCode).toBe(204);
    received = [];
    expect(await deliverNotifications(t.db, PUBLIC_URL, loopback, Date.now() + 61_000)).toBe(0);
    expect((await notifications()).at(-1)).toMatchObject({
      status: 'failed',
      last_result: 'not sent: the grant has ended',
    });
    const before = (await notifications()).length;
    await importCsv(oneInterval('NT-1'));
    await settled();
    expect(received).toEqual([]);
    expect((await notifications()).length).toBe(before);
  });
});
