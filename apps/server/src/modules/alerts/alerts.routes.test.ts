import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Role } from '@cm/contracts/enums.ts';
import type { AlertInbox, AlertRule } from '@cm/contracts/alerts.ts';
import { deliverWebhooks } from './webhooks.ts';
import { OutboundPolicy } from '../../outbound.ts';
import { createTestApp, insertUser, TEST_SECRETS, type TestApp } from '../../test/test-app.ts';
import { startSmtpSink, type ReceivedMail } from '../../test/smtp-sink.ts';
import {
  insertDevice,
  insertIntervals,
  insertLocation,
  insertMeter,
  insertReadings,
  linkUserToLocation,
} from '../../test/factories.ts';

// Alerts (issue 18) end to end on the server: rules set by an administrator, evaluated against
// real readings, told once per episode in the app and by e-mail to a real SMTP server (npm
// smtp-server), and cleared.

let t: TestApp;
let admin: string;
let client: string;
let north: number;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
const mails: ReceivedMail[] = [];
let hook: Server;
let hookUrl = '';
/** What the webhook endpoint received; it answers 503 to the first delivery, 200 after. */
const hooked: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
const HOUR = 3_600_000;
const QUARTER = 15 * 60_000;

beforeAll(async () => {
  smtp = await startSmtpSink((mail) => mails.push(mail));
  hook = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      hooked.push({ headers: request.headers, body });
      response.statusCode = hooked.length === 1 ? 503 : 200;
      response.end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/cm-alerts`;
  // The endpoint is on loopback, where webhooks go only when a network allows it.
  t = await createTestApp({
    CM_SMTP_URL: smtp.url,
    CM_ALERT_EVERY_SECONDS: '0',
    CM_OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
  });
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  const a = await insertUser(t.db, { email: 'a@test.cm', password: 'Client!passA' });
  await insertUser(t.db, { email: 'b@test.cm', password: 'Client!passB' });
  north = await insertLocation(t.db, 'North Pier');
  await linkUserToLocation(t.db, a, north);
  const now = Date.now();
  // The AccessPoint still reports; the Cube went quiet 30 hours ago with its meter.
  const accessPoint = await insertDevice(t.db, {
    type: 1,
    serial: 'AP-1',
    locationId: north,
    lastSeenAt: new Date(now - 10 * 60_000),
  });
  const cube = await insertDevice(t.db, {
    type: 2,
    serial: 'CU-1',
    locationId: north,
    parentId: accessPoint,
    lastSeenAt: new Date(now - 30 * HOUR),
  });
  const meter = await insertMeter(t.db, {
    meterNumber: 'EM-1',
    locationId: north,
    meterInd: 1,
    cubeId: cube,
    installedAt: new Date(now - 40 * 24 * HOUR),
  });
  const readings: [number, number][] = [];
  const last = Math.floor((now - 30 * HOUR) / QUARTER) * QUARTER;
  for (let at = last - 4 * 24 * HOUR, register = 1000; at <= last; at += QUARTER, register += 250)
    readings.push([at, register]);
  await insertReadings(t.db, meter, readings);
  admin = (await t.login('admin@test.cm', 'Admin!pass1')).token;
  client = (await t.login('a@test.cm', 'Client!passA')).token;
});
afterAll(async () => {
  await t?.close();
  await smtp.stop();
  await new Promise<void>((resolve) => hook.close(() => resolve()));
});

let secret = '';
let webhookId = 0;
const loopbackAllowed = new OutboundPolicy([{ address: '127.0.0.0', prefix: 8 }]);

const evaluate = async () =>
  (await t.call('POST', '/api/admin/alerts/evaluate', { token: admin })).json<{
    fired: number;
    cleared: number;
    emailed: number;
  }>();
const inbox = async (token: string) => (await t.call('GET', '/api/alerts', { token })).json<AlertInbox>();

describe('alerts', () => {
  it('refuses a rule without what it needs', async () => {
    const missing = await t.call('POST', '/api/admin/alert-rules', {
      token: admin,
      body: { locationId: north, kind: 'silent' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ message: string }>().message).toBe(
      'threshold: is required for silent: hours without a reading.',
    );
    const other = await t.call('POST', '/api/admin/alert-rules', {
      token: admin,
      body: { locationId: north, kind: 'silent', threshold: 6, meterNumber: 'EM-404' },
    });
    expect(other.json<{ message: string }>().message).toBe(
      'meterNumber: North Pier has no meter EM-404 installed now.',
    );
    const byClient = await t.call('POST', '/api/admin/alert-rules', {
      token: client,
      body: { locationId: north, kind: 'silent', threshold: 6 },
    });
    expect(byClient.statusCode).toBe(403);
  });

  it('fires once for a silent meter, saying its Cube is silent and its AccessPoint is not, by e-mail too', async () => {
    const added = await t.call('POST', '/api/admin/webhooks', { token: admin, body: { url: hookUrl } });
    expect(added.statusCode).toBe(201);
    secret = added.json<{ secret: string }>().secret;
    webhookId = added.json<{ webhook: { id: number } }>().webhook.id;
    // Kept sealed (secrets.ts), not in clear: the deliveries below are still signed with `secret`.
    const [stored] = await t.db.query<{ secret: string }>('SELECT secret FROM webhooks WHERE id = $1', [
      webhookId,
    ]);
    expect(stored?.secret).toMatch(/^cmenc:v1:/);
    expect(stored?.secret).not.toContain(secret.slice(6));
    const created = await t.call('POST', '/api/admin/alert-rules', {
      token: admin,
      body: { locationId: north, kind: 'silent', threshold: 6 },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json<AlertRule>()).toMatchObject({
      locationName: 'North Pier',
      meterNumber: null,
      kind: 'silent',
      threshold: 6,
    });
    // The client reads CM in French: its e-mails are written in French.
    const wrongLanguage = await t.call('PUT', '/api/auth/language', {
      token: client,
      body: { language: 'es' },
    });
    expect(wrongLanguage.statusCode).toBe(400);
    expect(wrongLanguage.json<{ message: string }>().message).toBe(
      'language: must be one of en, fr, de, pt.',
    );
    const french = await t.call('PUT', '/api/auth/language', { token: client, body: { language: 'fr' } });
    expect(french.statusCode).toBe(204);
    expect((await t.call('GET', '/api/alerts/preferences', { token: client })).json()).toMatchObject({
      emailLanguage: 'fr',
    });
    expect(await evaluate()).toMatchObject({ fired: 1, cleared: 0, emailed: 2 });
    const box = await inbox(client);
    expect(box.unread).toBe(1);
    expect(box.items[0]).toMatchObject({
      event: 'fired',
      readAt: null,
      alert: {
        kind: 'silent',
        meterNumber: 'EM-1',
        locationName: 'North Pier',
        clearedAt: null,
        detail: { cubeSilent: true, accessPointSilent: false },
      },
    });
    // The administrator and the location's client, not the other client; sent apart from the evaluation.
    await vi.waitFor(() =>
      expect(mails.map((mail) => mail.to).sort()).toEqual(['a@test.cm', 'admin@test.cm']),
    );
    const toAdmin = mails.find((mail) => mail.to === 'admin@test.cm');
    expect(toAdmin?.subject).toBe('[Check Meter] Meter EM-1 at North Pier: no data');
    expect(toAdmin?.text).toContain('has sent nothing for more than 6 hours');
    expect(toAdmin?.text).toContain('its Cube is silent too, its AccessPoint reports');
    const toClient = mails.find((mail) => mail.to === 'a@test.cm');
    expect(toClient?.subject).toBe('[Check Meter] Le compteur EM-1 à North Pier: pas de données');
    expect(toClient?.text).toContain("n'a rien envoyé depuis plus de 6 heures");
    expect(toClient?.text).toContain("son Cube est muet aussi, son point d'accès transmet");
    // Once per episode: evaluated again, nothing new.
    expect(await evaluate()).toMatchObject({ fired: 0, cleared: 0, emailed: 0 });
    expect((await inbox(client)).items).toHaveLength(1);
    const other = await t.login('b@test.cm', 'Client!passB');
    expect((await inbox(other.token)).items).toEqual([]);
  });

  it('tells the webhook, signed, and tries again after a refusal', async () => {
    // The first try was refused (503): pending, tried again after a minute.
    const before = await t.call('GET', `/api/admin/webhooks/${webhookId}/deliveries`, { token: admin });
    expect(before.json<{ items: unknown[] }>().items).toEqual([
      expect.objectContaining({
        event: 'alert.fired',
        status: 'pending',
        attempts: 1,
        lastResult: 'HTTP 503',
      }),
    ]);
    expect(await deliverWebhooks(t.db, TEST_SECRETS, Date.now() + 61_000, loopbackAllowed)).toBe(1);
    const [first, second] = hooked;
    expect(second?.body).toBe(first?.body);
    const signature = String(second?.headers['x-cm-signature']);
    const [, stamp = '', mac = ''] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature) ?? [];
    expect(mac).toBe(
      createHmac('sha256', secret)
        .update(`${stamp}.${second?.body ?? ''}`)
        .digest('hex'),
    );
    expect(JSON.parse(second?.body ?? '{}')).toMatchObject({
      event: 'alert.fired',
      alert: {
        kind: 'silent',
        meterNumber: 'EM-1',
        locationName: 'North Pier',
        detail: { cubeSilent: true },
      },
    });
    const after = await t.call('GET', `/api/admin/webhooks/${webhookId}/deliveries`, { token: admin });
    expect(after.json<{ items: unknown[] }>().items).toEqual([
      expect.objectContaining({ status: 'delivered', attempts: 2, lastResult: 'HTTP 200' }),
    ]);
    const list = await t.call('GET', '/api/admin/webhooks', { token: admin });
    expect(list.json<{ items: unknown[] }>().items).toEqual([
      expect.objectContaining({ url: hookUrl, delivered: 1, pending: 0, failed: 0 }),
    ]);
    const bad = await t.call('POST', '/api/admin/webhooks', {
      token: admin,
      body: { url: 'ftp://example.org/x' },
    });
    expect(bad.json<{ message: string }>().message).toBe('url: must be an http:// or https:// address.');
  });

  it('says when the episode cleared, as each person chose', async () => {
    // The client no longer wants e-mails about silent meters.
    const chosen = await t.call('PUT', '/api/alerts/preferences', {
      token: client,
      body: { items: [{ kind: 'silent', inApp: true, email: false }] },
    });
    expect(chosen.json<{ items: { kind: string; email: boolean }[] }>().items[0]).toEqual({
      kind: 'silent',
      inApp: true,
      email: false,
    });
    mails.length = 0;
    const meter = await t.db.query<{ device_id: number }>(
      "SELECT device_id FROM meters WHERE meter_number = 'EM-1'",
    );
    await insertReadings(t.db, meter[0]?.device_id ?? 0, [
      [Math.floor(Date.now() / QUARTER) * QUARTER, 9000],
    ]);
    expect(await evaluate()).toMatchObject({ fired: 0, cleared: 1, emailed: 1 });
    const box = await inbox(client);
    expect(box.items.map((item) => item.event)).toEqual(['cleared', 'fired']);
    expect(box.items[0]?.alert.clearedAt).not.toBeNull();
    await vi.waitFor(() => expect(mails.map((mail) => mail.to)).toEqual(['admin@test.cm']));
    expect(mails[0]?.subject).toBe('[Check Meter] Cleared: Meter EM-1 at North Pier');
    // Read: the bell's count goes to zero.
    const read = await t.call('POST', '/api/alerts/read', { token: client, body: {} });
    expect(read.json<AlertInbox>().unread).toBe(0);
  });

  it('fires when the bill so far passes an amount', async () => {
    // 0.30 EUR a kWh from 2020; the bill started three days ago (its day of the month, at most 28).
    const tariff = await t.call('POST', `/api/admin/locations/${north}/tariffs`, {
      token: admin,
      body: {
        effectiveFrom: '2020-01-01',
        currency: 'EUR',
        energyPrice: '0.30',
        standingChargePerDay: '0',
        taxPercent: '0',
      },
    });
    expect(tariff.statusCode).toBe(201);
    const started = new Date(Date.now() - 3 * 24 * HOUR);
    const billingDay = Math.min(Number(started.toISOString().slice(8, 10)), 28);
    await t.call('PATCH', `/api/admin/locations/${north}`, { token: admin, body: { billingDay } });
    const rule = await t.call('POST', '/api/admin/alert-rules', {
      token: admin,
      body: { locationId: north, kind: 'billAbove', threshold: 1, meterNumber: 'EM-1' },
    });
    expect(rule.json<AlertRule>()).toMatchObject({ kind: 'billAbove', threshold: 1, meterNumber: 'EM-1' });
    // A day and more of 1 kWh an hour at 0.30: above 1 EUR.
    expect(await evaluate()).toMatchObject({ fired: 1 });
    const [latest] = (await inbox(client)).items;
    expect(latest).toMatchObject({
      event: 'fired',
      alert: { kind: 'billAbove', threshold: 1, detail: { currency: 'EUR' } },
    });
    expect(latest?.alert.detail.amount ?? 0).toBeGreaterThan(1);
    const lastTo = (to: string) => mails.filter((mail) => mail.to === to).at(-1)?.text ?? '';
    await vi.waitFor(() => {
      expect(lastTo('admin@test.cm')).toMatch(
        /has a bill of €[\d.,]+ since \d{4}-\d{2}-\d{2}, above the €1\.00 set/,
      );
      // Money as French writes it: decimal comma, the sign after a (narrow) no-break space.
      expect(lastTo('a@test.cm')).toMatch(
        /a une facture de [\d,\u202f\u00a0]+\s€ depuis le \d{4}-\d{2}-\d{2}, au-dessus des 1,00\s€ fixés/,
      );
    });
  });

  // In the first half hour of a month there is no room for two records before now.
  const monthStartMs = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1);
  it.skipIf(Date.now() - monthStartMs < 30 * 60_000)(
    "fires when an interval nears this month's peak (peakNear), evaluated on the readings stored",
    async () => {
      const lane = await insertLocation(t.db, 'Peak Lane', 'UTC');
      const meter = await insertMeter(t.db, {
        meterNumber: 'EM-P',
        locationId: lane,
        meterInd: 1,
        installedAt: new Date(monthStartMs - 40 * 24 * HOUR),
      });
      // Last month 2 kWh in a quarter hour (8 kW): not this month's. This month: 0.8 kWh (3.2 kW),
      // then the latest, 0.75 kWh (3 kW): 3 ÷ 3.2 = 93.75 % of the month's peak so far, above 90 %.
      await insertIntervals(t.db, meter, [
        [monthStartMs - QUARTER, monthStartMs, 2_000_000],
        [monthStartMs, monthStartMs + QUARTER, 800_000],
        [monthStartMs + QUARTER, monthStartMs + 2 * QUARTER, 750_000],
      ]);
      const refused = await t.call('POST', '/api/admin/alert-rules', {
        token: admin,
        body: { locationId: lane, kind: 'peakNear', threshold: 120 },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ message: string }>().message).toContain('at most 100 for peakNear');
      const rule = await t.call('POST', '/api/admin/alert-rules', {
        token: admin,
        body: { locationId: lane, kind: 'peakNear', threshold: 90 },
      });
      expect(rule.statusCode).toBe(201);
      expect(await evaluate()).toMatchObject({ fired: 1 });
      const [latest] = (await inbox(admin)).items;
      expect(latest).toMatchObject({
        event: 'fired',
        alert: {
          kind: 'peakNear',
          meterNumber: 'EM-P',
          detail: { power: 3, peak: 3.2, peakAt: new Date(monthStartMs).toISOString() },
        },
      });
    },
  );
});
