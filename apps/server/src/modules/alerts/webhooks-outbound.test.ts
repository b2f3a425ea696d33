import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLog } from '@cm/contracts/access-log.ts';
import { Role } from '@cm/contracts/enums.ts';
import type { WebhookDelivery } from '@cm/contracts/alerts.ts';
import { OutboundPolicy } from '../../outbound.ts';
import { createTestApp, insertUser, TEST_SECRETS, type TestApp } from '../../test/test-app.ts';
import { insertLocation, insertMeter } from '../../test/factories.ts';
import { AccessRecorder } from '../access-log/index.ts';
import { deliverWebhooks, WEBHOOK_SECRET } from './webhooks.ts';
import { insertWebhook, queueDeliveries } from './webhooks.queries.ts';

// Security probe 2026-11-27, finding 2: webhooks reached every internal address (loopback in any
// spelling, the metadata address, CM itself, PostgreSQL's port), and the deliveries log told which
// ports speak HTTP ("HTTP 401", "TypeError: fetch failed").

let t: TestApp;
let admin: string;
let receiver: Server;
let port = 0;
/** Requests the loopback receiver got. */
let received = 0;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    received++;
    request.resume();
    request.on('end', () => {
      if (request.url === '/moved') {
        response.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' });
        response.end();
        return;
      }
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  port = (receiver.address() as AddressInfo).port;
  t = await createTestApp();
  await insertUser(t.db, { email: 'admin@hooks.cm', password: 'Admin!hooks-1', role: Role.Admin });
  admin = (await t.login('admin@hooks.cm', 'Admin!hooks-1')).token;
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** Every spelling the probe sent of loopback, and the other refused networks. */
const internal = () => [
  `http://127.0.0.1:${port}/a`,
  `http://127.1:${port}/b`,
  `http://0.0.0.0:${port}/c`,
  `http://[::1]:${port}/d`,
  `http://[::ffff:127.0.0.1]:${port}/e`,
  `http://localhost:${port}/f`,
  `http://2130706433:${port}/g`,
  `http://0177.0.0.1:${port}/h`,
  `http://0x7f000001:${port}/i`,
  `http://0x7f.0.0.1:${port}/j`,
  'http://169.254.169.254/latest/meta-data/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://10.0.0.1/',
  'http://192.168.1.1/',
  'http://[fe80::1]/',
];

const deliveriesOf = async (id: number) =>
  (await t.call('GET', `/api/admin/webhooks/${id}/deliveries`, { token: admin })).json<{
    items: WebhookDelivery[];
  }>().items;

/** Webhooks stored as they were (created before a name changed where it points), each with a delivery due. */
async function storedWebhooks(urls: string[]): Promise<number[]> {
  await t.db.query('DELETE FROM webhooks');
  const ids: number[] = [];
  for (const url of urls)
    ids.push(await insertWebhook(t.db, url, TEST_SECRETS.seal('whsec_test', WEBHOOK_SECRET)));
  await queueDeliveries(t.db, [{ event: 'alert.fired', payload: { alert: { kind: 'silent' } } }]);
  return ids;
}

describe('webhooks to internal addresses', () => {
  it('are refused when added, whatever the spelling, with how to allow a network', async () => {
    for (const url of internal()) {
      const response = await t.call('POST', '/api/admin/webhooks', { token: admin, body: { url } });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 400 });
      expect(response.json<{ message: string; param: string }>()).toMatchObject({
        param: 'url',
        message: expect.stringMatching(/loopback, private, link-local .*CM_OUTBOUND_ALLOW_CIDRS/),
      });
    }
    expect(received).toBe(0);
  });

  it('are never sent, even when stored: the address is checked as each delivery connects', async () => {
    const ids = await storedWebhooks(internal());
    expect(await deliverWebhooks(t.db, TEST_SECRETS, Date.now(), new OutboundPolicy())).toBe(0);
    expect(received).toBe(0);
    for (const id of ids) {
      expect(await deliveriesOf(id)).toEqual([
        expect.objectContaining({
          status: 'pending',
          attempts: 1,
          lastResult: 'refused: address not allowed',
        }),
      ]);
    }
  });

  it('are sent to a network an administrator allowed by CIDR, redirects not followed', async () => {
    const allowed = new OutboundPolicy([{ address: '127.0.0.0', prefix: 8 }]);
    const [direct, byName, moved, closed] = await storedWebhooks([
      `http://127.0.0.1:${port}/hook`,
      `http://localhost:${port}/hook`,
      `http://127.0.0.1:${port}/moved`,
      // Port 1: nothing listens there.
      'http://127.0.0.1:1/',
    ]);
    expect(await deliverWebhooks(t.db, TEST_SECRETS, Date.now(), allowed)).toBe(2);
    // localhost may also resolve to ::1, not allowed here: then it is refused as a whole.
    expect(received).toBeGreaterThanOrEqual(2);
    expect((await deliveriesOf(direct ?? 0))[0]).toMatchObject({
      status: 'delivered',
      lastResult: 'HTTP 200',
    });
    expect((await deliveriesOf(byName ?? 0))[0]?.lastResult).toMatch(
      /^(HTTP 200|refused: address not allowed)$/,
    );
    // The redirect to the metadata address is the endpoint's answer, a failure to try again.
    expect((await deliveriesOf(moved ?? 0))[0]).toMatchObject({ status: 'pending', lastResult: 'HTTP 302' });
    // A readable reason, not "TypeError: fetch failed".
    expect((await deliveriesOf(closed ?? 0))[0]).toMatchObject({ lastResult: 'could not connect' });
  });

  it('may be added for an allowed network (CM_OUTBOUND_ALLOW_CIDRS)', async () => {
    const open = await createTestApp({ CM_OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8, ::1' });
    try {
      await insertUser(open.db, { email: 'admin@open.cm', password: 'Admin!hooks-2', role: Role.Admin });
      const token = (await open.login('admin@open.cm', 'Admin!hooks-2')).token;
      const added = await open.call('POST', '/api/admin/webhooks', {
        token,
        body: { url: `http://127.0.0.1:${port}/hook` },
      });
      expect(added.statusCode).toBe(201);
      const metadata = await open.call('POST', '/api/admin/webhooks', {
        token,
        body: { url: 'http://169.254.169.254/latest/meta-data/' },
      });
      expect(metadata.statusCode).toBe(400);
    } finally {
      await open.close();
    }
  });
});

describe('a webhook delivered', () => {
  it('is logged in its meter’s "Who read my data", by the webhook’s host', async () => {
    const location = await insertLocation(t.db, 'Hook Home', 'Europe/Berlin');
    const meter = await insertMeter(t.db, {
      meterNumber: 'HOOK-1',
      locationId: location,
      meterInd: 1,
      installedAt: new Date('2026-01-01T00:00:00Z'),
    });
    const [rule] = await t.db.query<{ id: number }>(
      `INSERT INTO alert_rules (location_id, meter_id, kind, threshold) VALUES ($1, $2, 'silent', 6) RETURNING id`,
      [location, meter],
    );
    const [episode] = await t.db.query<{ id: number }>(
      `INSERT INTO alert_episodes (rule_id, meter_id, started_at, detail, meter_number, location_name, time_zone)
       VALUES ($1, $2, now(), '{}', 'HOOK-1', 'Hook Home', 'Europe/Berlin') RETURNING id`,
      [rule?.id, meter],
    );
    await t.db.query('DELETE FROM webhooks');
    await insertWebhook(
      t.db,
      `http://127.0.0.1:${port}/hook`,
      TEST_SECRETS.seal('whsec_log', WEBHOOK_SECRET),
    );
    await queueDeliveries(t.db, [{ event: 'alert.fired', payload: { alert: { id: episode?.id } } }]);
    const recorder = new AccessRecorder(t.db, { error: () => {} });
    const allowed = new OutboundPolicy([{ address: '127.0.0.0', prefix: 8 }]);
    expect(await deliverWebhooks(t.db, TEST_SECRETS, Date.now(), allowed, recorder)).toBe(1);
    await recorder.flush();
    const log = await t.call('GET', '/api/CheckMeter/WhoReadMyData?meterNumber=HOOK-1', { token: admin });
    expect(log.json<AccessLog>().items).toEqual([
      expect.objectContaining({
        channel: 'webhook',
        by: `webhook 127.0.0.1:${port}`,
        data: ['alerts'],
        from: null,
        to: null,
        what: 'alert.fired',
      }),
    ]);
  });
});
