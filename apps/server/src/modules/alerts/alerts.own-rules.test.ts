import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@cm/contracts/enums.ts';
import type { AlertInbox, AlertRule } from '@cm/contracts/alerts.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';
import { insertLocation, insertMeter, insertReadings, linkUserToLocation } from '../../test/factories.ts';

// Alerts a customer owns (issue 34): a client sets a budget or a high-use day on a meter they can
// see; only they see the rule and only they are told. Another client can neither read, change nor
// remove it, nor set a rule on a meter that is not theirs; the administrator's list is theirs alone.

let t: TestApp;
let admin: string;
let clientA: string;
let clientB: string;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const QUARTER = 15 * 60_000;

beforeAll(async () => {
  t = await createTestApp({ CM_ALERT_EVERY_SECONDS: '0' });
  await insertUser(t.db, { email: 'admin@own.cm', password: 'Admin!pass1', role: Role.Admin });
  const a = await insertUser(t.db, { email: 'a@own.cm', password: 'Client!passA' });
  const b = await insertUser(t.db, { email: 'b@own.cm', password: 'Client!passB' });
  // UTC locations: yesterday is 96 quarter hours of 0.25 kWh (the register goes up 250 Wh a
  // quarter), 24 kWh.
  const north = await insertLocation(t.db, 'North Pier', 'UTC');
  const south = await insertLocation(t.db, 'South Pier', 'UTC');
  await linkUserToLocation(t.db, a, north);
  await linkUserToLocation(t.db, b, south);
  const todayStart = Math.floor(Date.now() / DAY) * DAY;
  for (const [meterNumber, locationId] of [
    ['EM-N', north],
    ['EM-S', south],
  ] as const) {
    const meter = await insertMeter(t.db, {
      meterNumber,
      locationId,
      meterInd: 1,
      installedAt: new Date(todayStart - 10 * DAY),
    });
    const readings: [number, number][] = [];
    for (let at = todayStart - 2 * DAY, register = 1000; at <= todayStart; at += QUARTER, register += 250)
      readings.push([at, register]);
    await insertReadings(t.db, meter, readings);
  }
  admin = (await t.login('admin@own.cm', 'Admin!pass1')).token;
  clientA = (await t.login('a@own.cm', 'Client!passA')).token;
  clientB = (await t.login('b@own.cm', 'Client!passB')).token;
});
afterAll(async () => {
  await t?.close();
});

const rules = async (token: string) =>
  (await t.call('GET', '/api/alerts/rules', { token })).json<{ items: AlertRule[] }>().items;
const inbox = async (token: string) => (await t.call('GET', '/api/alerts', { token })).json<AlertInbox>();
const evaluate = async () =>
  (await t.call('POST', '/api/admin/alerts/evaluate', { token: admin })).json<{
    fired: number;
    cleared: number;
  }>();

describe("a customer's own alerts", () => {
  let ruleId = 0;

  it('refuses a rule without what it needs, with a clear message', async () => {
    const silent = await t.call('POST', '/api/alerts/rules', {
      token: clientA,
      body: { meterNumber: 'EM-N', kind: 'silent', threshold: 6 },
    });
    expect(silent.statusCode).toBe(400);
    expect(silent.json<{ message: string }>().message).toBe('kind: must be one of billAbove, dailyAbove.');
    const negative = await t.call('POST', '/api/alerts/rules', {
      token: clientA,
      body: { meterNumber: 'EM-N', kind: 'billAbove', threshold: -80 },
    });
    expect(negative.statusCode).toBe(400);
    expect(negative.json<{ message: string }>().message).toBe('threshold: must be above 0.');
  });

  it('lets a client set a high-use day on their meter, and no one else sees it', async () => {
    const created = await t.call('POST', '/api/alerts/rules', {
      token: clientA,
      body: { meterNumber: 'EM-N', kind: 'dailyAbove', threshold: 20 },
    });
    expect(created.statusCode).toBe(201);
    const rule = created.json<AlertRule>();
    ruleId = rule.id;
    expect(rule).toMatchObject({
      locationName: 'North Pier',
      meterNumber: 'EM-N',
      kind: 'dailyAbove',
      threshold: 20,
    });
    expect((await rules(clientA)).map((r) => r.id)).toEqual([ruleId]);
    expect(await rules(clientB)).toEqual([]);
    // The administrator's rules are theirs: a customer's own rule is not among them.
    const adminList = await t.call('GET', '/api/admin/alert-rules', { token: admin });
    expect(adminList.json<{ items: AlertRule[] }>().items).toEqual([]);
  });

  it("does not let client B read, change or remove client A's rule, nor set one on A's meter", async () => {
    const onTheirs = await t.call('POST', '/api/alerts/rules', {
      token: clientB,
      body: { meterNumber: 'EM-N', kind: 'billAbove', threshold: 80 },
    });
    expect(onTheirs.statusCode).toBe(404);
    expect(onTheirs.json<{ message: string }>().message).toBe('Meter not found.');
    const change = await t.call('PUT', `/api/alerts/rules/${ruleId}`, {
      token: clientB,
      body: { threshold: 1_000 },
    });
    expect(change.statusCode).toBe(404);
    expect(change.json<{ message: string }>().message).toBe('Alert rule not found.');
    const remove = await t.call('DELETE', `/api/alerts/rules/${ruleId}`, { token: clientB });
    expect(remove.statusCode).toBe(404);
    // Nor can the administrator's route remove it.
    expect((await t.call('DELETE', `/api/admin/alert-rules/${ruleId}`, { token: admin })).statusCode).toBe(
      404,
    );
    expect(await rules(clientA)).toMatchObject([{ id: ruleId, threshold: 20 }]);
  });

  it('tells its owner alone when yesterday passed the limit, and clears when the owner raises it', async () => {
    // Yesterday: 24 kWh > 20 kWh.
    expect(await evaluate()).toMatchObject({ fired: 1, cleared: 0 });
    const box = await inbox(clientA);
    expect(box.items).toHaveLength(1);
    expect(box.items[0]?.alert).toMatchObject({
      kind: 'dailyAbove',
      threshold: 20,
      meterNumber: 'EM-N',
      detail: { consumption: 24 },
    });
    // The administrator sees every location, but this rule is client A's: no one else is told.
    expect((await inbox(admin)).items).toEqual([]);
    expect((await inbox(clientB)).items).toEqual([]);

    const raised = await t.call('PUT', `/api/alerts/rules/${ruleId}`, {
      token: clientA,
      body: { threshold: 30 },
    });
    expect(raised.statusCode).toBe(200);
    expect(raised.json<AlertRule>()).toMatchObject({ id: ruleId, threshold: 30 });
    // 24 kWh ≤ 30 kWh: the episode ends.
    expect(await evaluate()).toMatchObject({ fired: 0, cleared: 1 });

    expect((await t.call('DELETE', `/api/alerts/rules/${ruleId}`, { token: clientA })).statusCode).toBe(204);
    expect(await rules(clientA)).toEqual([]);
  });
});
