import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLog } from '@cm/contracts/access-log.ts';
import type { AuditList } from '@cm/contracts/admin.ts';
import type { ConnectGrantList, ConsentDone, ConsentRequest } from '@cm/contracts/connect.ts';
import { Role } from '@cm/contracts/enums.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';
import {
  insertIntervals,
  insertLocation,
  insertMeter,
  insertReadings,
  linkUserToLocation,
  regularReadings,
} from '../../test/factories.ts';
import {
  authorize,
  finishAuthorization,
  registerApp,
  REDIRECT_URI,
  startAuthorization,
  tokenRequest,
  type TestOauthApp,
  type Tokens,
} from '../../test/oauth-client.ts';
import { validateEspi } from '../exports/espi-validate.ts';

// Connect My Data (issue 37): a customer's consent gives an app a grant; its tokens read the
// granted meters' data, kinds and dates through the ESPI API, and nothing else.

let t: TestApp;
let admin: string;
let anna: string;
let bert: string;
const meters = { annaOne: 0, annaTwo: 0, bertOne: 0 };
let app: TestOauthApp;

const HOUR = 3_600_000;
const MARCH = Date.parse('2026-03-01T00:00:00Z');
const APRIL = Date.parse('2026-04-01T00:00:00Z');

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { email: 'admin@grant.cm', password: 'Admin!grant-1', role: Role.Admin });
  const a = await insertUser(t.db, { email: 'anna@grant.cm', password: 'Client!grant-A', fullName: 'Anna' });
  const b = await insertUser(t.db, { email: 'bert@grant.cm', password: 'Client!grant-B', fullName: 'Bert' });
  const home = await insertLocation(t.db, 'Grant Home', 'UTC');
  const away = await insertLocation(t.db, 'Grant Away', 'UTC');
  await linkUserToLocation(t.db, a, home);
  await linkUserToLocation(t.db, b, away);
  const installedAt = new Date('2026-01-01T00:00:00Z');
  meters.annaOne = await insertMeter(t.db, {
    meterNumber: 'GR-A1',
    locationId: home,
    meterInd: 1,
    installedAt,
  });
  meters.annaTwo = await insertMeter(t.db, {
    meterNumber: 'GR-A2',
    locationId: home,
    meterInd: 2,
    installedAt,
  });
  meters.bertOne = await insertMeter(t.db, {
    meterNumber: 'GR-B1',
    locationId: away,
    meterInd: 1,
    installedAt,
  });
  for (const meter of Object.values(meters)) {
    // March 2026, every hour: 0.5 kWh an interval, the register rising with it.
    const hours = Array.from({ length: (APRIL - MARCH) / HOUR }, (_, i) => MARCH + i * HOUR);
    await insertIntervals(
      t.db,
      meter,
      hours.map((start) => [start, start + HOUR, 500_000] as const),
    );
    await insertReadings(
      t.db,
      meter,
      regularReadings(MARCH, APRIL, HOUR, 1_000_000, () => 500),
    );
  }
  admin = (await t.login('admin@grant.cm', 'Admin!grant-1')).token;
  anna = (await t.login('anna@grant.cm', 'Client!grant-A')).token;
  bert = (await t.login('bert@grant.cm', 'Client!grant-B')).token;
  app = await registerApp(t, admin, 'SunSizer');
});
afterAll(() => t.close());

const espi = (path: string, token: string) =>
  t.app.inject({
    method: 'GET',
    url: `/espi/1_1/resource${path}`,
    headers: { authorization: `Bearer ${token}` },
  });

/** The grant (subscription) id of an app's newest grant of `customer`. */
const newestGrant = async (customer: string) =>
  (await t.call('GET', '/api/connect/grants', { token: customer })).json<ConnectGrantList>().items[0];

/** Every IntervalReading's start, in seconds. */
const readingStarts = (xml: string) =>
  [
    ...xml.matchAll(
      /<espi:IntervalReading>(?:<espi:ReadingQuality>.*?<\/espi:ReadingQuality>)?<espi:timePeriod><espi:duration>\d+<\/espi:duration><espi:start>(\d+)<\/espi:start>/g,
    ),
  ].map((match) => Number(match[1]));

describe('consent', () => {
  it('shows the customer who asks, for which data, and their own meters only', async () => {
    const { uid, start } = await startAuthorization(t, app, { scope: 'intervals cost' });
    expect(start.statusCode).toBe(303);
    expect(uid).toBeDefined();
    const request = await t.call('GET', `/api/connect/consent/${uid}`, { token: anna });
    expect(request.statusCode).toBe(200);
    // cost is asked but the app is not registered for it: not shown, never granted.
    expect(request.json<ConsentRequest>()).toEqual({
      app: { name: 'SunSizer', contact: 'dev@app.example' },
      dataKinds: ['intervals'],
      meters: [
        { meterNumber: 'GR-A1', locationName: 'Grant Home' },
        { meterNumber: 'GR-A2', locationName: 'Grant Home' },
      ],
      maxMonths: 36,
    });
  });

  it("refuses meters not the customer's, more than three years, and a date after the end; changes nothing", async () => {
    const { uid } = await startAuthorization(t, app);
    const allow = (body: object) =>
      t.call('POST', `/api/connect/consent/${uid}/allow`, { token: anna, body });
    const base = { meterNumbers: ['GR-A1'], from: '2026-03-01', months: 12 };
    const bad: Array<[object, string]> = [
      [{ meterNumbers: ['GR-B1'] }, 'meterNumbers'],
      [{ meterNumbers: [] }, 'meterNumbers'],
      [{ months: 37 }, 'months'],
      [{ months: 0 }, 'months'],
      [{ from: '2026-02-30' }, 'from'],
      [{ from: '2099-01-01' }, 'from'],
    ];
    for (const [change, param] of bad) {
      const response = await allow({ ...base, ...change });
      expect({ change, status: response.statusCode }).toEqual({ change, status: 400 });
      expect(response.json<{ message: string }>().message).toContain(param);
    }
    expect(await t.db.query('SELECT id FROM connect_grants')).toEqual([]);
  });

  it('answers the app access_denied with its state when the customer refuses', async () => {
    const { uid, jar } = await startAuthorization(t, app);
    const refused = await t.call('POST', `/api/connect/consent/${uid}/refuse`, { token: anna });
    const callback = await finishAuthorization(t, jar, refused.json<ConsentDone>());
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe('state-123');
    expect(callback.searchParams.get('code')).toBeNull();
  });

  it('requires PKCE (S256) and the exact redirect URI', async () => {
    const noPkce = await startAuthorization(t, app, {
      code_challenge: undefined,
      code_challenge_method: undefined,
    });
    expect(noPkce.uid).toBeUndefined();
    const back = new URL(String(noPkce.start.headers.location));
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    const plain = await startAuthorization(t, app, { code_challenge_method: 'plain' });
    expect(plain.uid).toBeUndefined();
    for (const redirect of [`${REDIRECT_URI}/`, `${REDIRECT_URI}?x=1`, 'http://127.0.0.1:8765/CB']) {
      const wrong = await startAuthorization(t, app, { redirect_uri: redirect });
      // Never sent to an address not registered: an error page of CM's own.
      expect({ redirect, status: wrong.start.statusCode }).toEqual({ redirect, status: 400 });
      expect(wrong.start.headers.location).toBeUndefined();
    }
  });
});

describe('the ESPI API of a grant', () => {
  let tokens: Tokens;
  let grantId = 0;

  beforeAll(async () => {
    tokens = await authorize(
      t,
      app,
      anna,
      { meterNumbers: ['GR-A1'], from: '2026-03-10', months: 12 },
      'intervals',
    );
    grantId = (await newestGrant(anna))?.id ?? 0;
  });

  it('gives a short-lived token with a refresh token, for the kinds granted', () => {
    expect(tokens).toMatchObject({
      token_type: 'Bearer',
      expires_in: 600,
      scope: 'intervals',
      // ESPI: the subscription the token reads.
      resourceURI: `http://localhost:3000/espi/1_1/resource/Batch/Subscription/${grantId}`,
    });
    expect(tokens.refresh_token).toEqual(expect.any(String));
  });

  it("serves the granted meter, from the grant's first day, as XSD-valid ESPI; logged as the app's read", async () => {
    const batch = await espi(
      `/Batch/Subscription/${grantId}?published-min=2026-03-01T00:00:00Z&published-max=2026-03-20T00:00:00Z`,
      tokens.access_token,
    );
    expect(batch.statusCode).toBe(200);
    expect(batch.headers['content-type']).toContain('application/atom+xml');
    expect(await validateEspi(batch.body)).toBe('');
    expect(batch.body).toContain(`/Subscription/${grantId}/UsagePoint/${meters.annaOne}`);
    expect(batch.body).not.toContain(`/UsagePoint/${meters.annaTwo}`);
    // Intervals only: no registers (MeterReading 1), energies (MeterReading 2) from 10 March on.
    expect(batch.body).not.toContain('/MeterReading/1"');
    const starts = readingStarts(batch.body);
    expect(starts[0]).toBe(Date.parse('2026-03-10T00:00:00Z') / 1000);
    // 10 days of 24 hours, from 10 March to 20 March.
    expect(starts).toHaveLength(240);
    const log = await t.call('GET', '/api/CheckMeter/WhoReadMyData?meterNumber=GR-A1', { token: anna });
    expect(log.json<AccessLog>().items[0]).toMatchObject({
      channel: 'app',
      by: 'SunSizer',
      data: ['intervals'],
      from: expect.stringContaining('2026-03-10'),
    });
  });

  it('serves the usage points, meter readings and interval blocks of the grant', async () => {
    const points = await espi(`/Subscription/${grantId}/UsagePoint`, tokens.access_token);
    expect(points.statusCode).toBe(200);
    expect(await validateEspi(points.body)).toBe('');
    expect(points.body).toContain('<espi:UsagePoint>');
    expect(points.body).not.toContain('IntervalBlock>');
    const point = `/Subscription/${grantId}/UsagePoint/${meters.annaOne}`;
    const readings = await espi(`${point}/MeterReading`, tokens.access_token);
    expect(readings.statusCode).toBe(200);
    expect(readings.body).toContain(`${point}/MeterReading/2"`);
    expect(readings.body).not.toContain('<espi:IntervalBlock>');
    const blocks = await espi(
      `${point}/MeterReading/2/IntervalBlock?published-min=2026-03-15T00:00:00Z&published-max=2026-03-16T00:00:00Z`,
      tokens.access_token,
    );
    expect(blocks.statusCode).toBe(200);
    expect(await validateEspi(blocks.body)).toBe('');
    expect(readingStarts(blocks.body)).toHaveLength(24);
  });

  it("never reads another customer's meter, a meter not granted, another grant, or a kind not granted", async () => {
    const base = `/Subscription/${grantId}/UsagePoint`;
    for (const path of [
      `${base}/${meters.bertOne}/MeterReading`,
      `${base}/${meters.annaTwo}/MeterReading`,
      `${base}/${meters.annaTwo}/MeterReading/2/IntervalBlock`,
      `${base}/${meters.annaOne}/MeterReading/1/IntervalBlock`,
      `/Subscription/${grantId + 1000}/UsagePoint`,
      `/Batch/Subscription/${grantId + 1000}`,
    ]) {
      const response = await espi(path, tokens.access_token);
      expect({ path, status: response.statusCode }).toEqual({ path, status: 404 });
    }
    // A grant of Bert's: his token reads his meter, never Anna's.
    const bertTokens = await authorize(t, app, bert, {
      meterNumbers: ['GR-B1'],
      from: '2026-03-01',
      months: 1,
    });
    const bertGrant = (await newestGrant(bert))?.id ?? 0;
    expect(
      (
        await espi(
          `/Subscription/${bertGrant}/UsagePoint/${meters.bertOne}/MeterReading`,
          bertTokens.access_token,
        )
      ).statusCode,
    ).toBe(200);
    expect((await espi(`/Subscription/${grantId}/UsagePoint`, bertTokens.access_token)).statusCode).toBe(404);
    expect(
      (
        await espi(
          `/Subscription/${bertGrant}/UsagePoint/${meters.annaOne}/MeterReading`,
          bertTokens.access_token,
        )
      ).statusCode,
    ).toBe(404);
  });

  it("never serves data before the grant's first day", async () => {
    const early = await espi(
      `/Subscription/${grantId}/UsagePoint/${meters.annaOne}/MeterReading/2/IntervalBlock?published-min=2026-03-01T00:00:00Z&published-max=2026-03-10T00:00:00Z`,
      tokens.access_token,
    );
    expect(early.statusCode).toBe(200);
    expect(readingStarts(early.body)).toEqual([]);
  });

  it('refuses a bad range and answers 401 without a valid token', async () => {
    const bad = await espi(`/Batch/Subscription/${grantId}?published-min=yesterday`, tokens.access_token);
    expect(bad.statusCode).toBe(400);
    const reversed = await espi(
      `/Batch/Subscription/${grantId}?published-min=2026-03-20T00:00:00Z&published-max=2026-03-10T00:00:00Z`,
      tokens.access_token,
    );
    expect(reversed.statusCode).toBe(400);
    for (const token of ['', 'not-a-token', tokens.refresh_token]) {
      const response = await espi(`/Subscription/${grantId}/UsagePoint`, token);
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toContain('invalid_token');
    }
  });
});

describe('the cost of a grant (UsageSummary)', () => {
  let costTokens: Tokens;
  let costGrant = 0;
  let plainTokens: Tokens;
  let plainGrant = 0;

  beforeAll(async () => {
    // 0.20 EUR a kWh, nothing else, at Anna's home: each hour of March (0.5 kWh) costs 0.10 EUR.
    const [home] = await t.db.query<{ id: number }>(
      "SELECT id FROM locations WHERE public_name = 'Grant Home'",
    );
    const tariff = await t.call('POST', `/api/admin/locations/${home?.id}/tariffs`, {
      token: admin,
      body: {
        effectiveFrom: '2020-01-01',
        currency: 'EUR',
        energyPrice: '0.20',
        standingChargePerDay: '0',
        taxPercent: '0',
      },
    });
    expect(tariff.statusCode).toBe(201);
    const costApp = await registerApp(t, admin, 'BillCheck', ['intervals', 'cost']);
    const allow = { meterNumbers: ['GR-A1'], from: '2026-03-10', months: 12 };
    costTokens = await authorize(t, costApp, anna, allow, 'intervals cost');
    costGrant = (await newestGrant(anna))?.id ?? 0;
    // The same app, not given cost.
    plainTokens = await authorize(t, costApp, anna, allow, 'intervals');
    plainGrant = (await newestGrant(anna))?.id ?? 0;
  });

  const summaryPath = (grant: number) => `/Subscription/${grant}/UsagePoint/${meters.annaOne}/UsageSummary`;

  it("serves the bill of the grant's dates as an XSD-valid UsageSummary; logged as a read of cost", async () => {
    const response = await espi(summaryPath(costGrant), costTokens.access_token);
    expect(response.statusCode).toBe(200);
    expect(await validateEspi(response.body)).toBe('');
    // From 10 March (the grant's first day) to now: 22 days × 24 h × 0.10 EUR = 52.80 EUR, in
    // hundred-thousandths; 264 kWh imported, in mWh; EUR is 978.
    const period =
      /<espi:billingPeriod><espi:duration>(\d+)<\/espi:duration><espi:start>(\d+)<\/espi:start>/.exec(
        response.body,
      );
    const start = Date.parse('2026-03-10T00:00:00Z') / 1000;
    expect(Number(period?.[2])).toBe(start);
    expect(Math.abs(Number(period?.[1]) - (Date.now() / 1000 - start))).toBeLessThan(5);
    expect(response.body).toContain(
      '<espi:billToDate>5280000</espi:billToDate><espi:currency>978</espi:currency>',
    );
    expect(response.body).toContain('<espi:uom>72</espi:uom><espi:value>264000000</espi:value>');
    expect(response.body).not.toContain('<espi:IntervalBlock>');
    const log = await t.call('GET', '/api/CheckMeter/WhoReadMyData?meterNumber=GR-A1', { token: anna });
    expect(log.json<AccessLog>().items[0]).toMatchObject({
      channel: 'app',
      by: 'BillCheck',
      data: ['cost'],
      what: 'ESPI UsageSummary',
    });
  });

  it('bills a range asked within the dates, a past one as billLastPeriod', async () => {
    const response = await espi(
      `${summaryPath(costGrant)}?published-min=2026-03-15T00:00:00Z&published-max=2026-03-16T00:00:00Z`,
      costTokens.access_token,
    );
    expect(response.statusCode).toBe(200);
    // One day: 24 × 0.10 EUR = 2.40 EUR.
    expect(response.body).toContain(
      `<espi:billingPeriod><espi:duration>86400</espi:duration><espi:start>${Date.parse('2026-03-15T00:00:00Z') / 1000}</espi:start></espi:billingPeriod><espi:billLastPeriod>240000</espi:billLastPeriod>`,
    );
  });

  it("is in the subscription's batch, linked from the usage point", async () => {
    const batch = await espi(
      `/Batch/Subscription/${costGrant}?published-min=2026-03-10T00:00:00Z&published-max=2026-03-12T00:00:00Z`,
      costTokens.access_token,
    );
    expect(batch.statusCode).toBe(200);
    expect(await validateEspi(batch.body)).toBe('');
    expect(batch.body).toContain(
      `type="espi-feed/UsageSummary" href="/espi/1_1/resource${summaryPath(costGrant)}"`,
    );
    // Two days: 48 × 0.10 EUR.
    expect(batch.body).toContain('<espi:billLastPeriod>480000</espi:billLastPeriod>');
    expect(readingStarts(batch.body)).toHaveLength(48);
  });

  it('serves none to a grant without cost: 404, and nothing of it in the batch', async () => {
    const response = await espi(summaryPath(plainGrant), plainTokens.access_token);
    expect(response.statusCode).toBe(404);
    const batch = await espi(`/Batch/Subscription/${plainGrant}`, plainTokens.access_token);
    expect(batch.statusCode).toBe(200);
    expect(batch.body).not.toContain('UsageSummary');
    expect(batch.body).not.toContain('billToDate');
    expect(readingStarts(batch.body).length).toBeGreaterThan(0);
  });
});

describe('refresh, reuse and revocation', () => {
  it('rotates refresh tokens; using one twice ends the grant', async () => {
    const tokens = await authorize(t, app, anna, { meterNumbers: ['GR-A2'], from: '2026-03-01', months: 3 });
    const grant = await newestGrant(anna);
    const refreshed = await tokenRequest(t, app, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(refreshed.statusCode).toBe(200);
    const fresh = refreshed.json<Tokens>();
    expect(fresh.refresh_token).not.toBe(tokens.refresh_token);
    expect((await espi(`/Subscription/${grant?.id}/UsagePoint`, fresh.access_token)).statusCode).toBe(200);
    const reused = await tokenRequest(t, app, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json<{ error: string }>().error).toBe('invalid_grant');
    await expect.poll(async () => (await newestGrant(anna))?.revokedBy).toBe('reuse');
    expect((await espi(`/Subscription/${grant?.id}/UsagePoint`, fresh.access_token)).statusCode).toBe(401);
    const again = await tokenRequest(t, app, {
      grant_type: 'refresh_token',
      refresh_token: fresh.refresh_token,
    });
    expect(again.statusCode).toBe(400);
  });

  it("refuses a refresh once the grant has ended: the provider's grant ends with it", async () => {
    const tokens = await authorize(t, app, anna, { meterNumbers: ['GR-A2'], from: '2026-03-01', months: 1 });
    const grant = await newestGrant(anna);
    const [stored] = await t.db.query<{ expires_at: Date }>(
      `SELECT a.expires_at FROM oauth_artefacts a JOIN connect_grants g ON g.oidc_grant_id = a.id
        WHERE a.model = 'Grant' AND g.id = $1`,
      [grant?.id],
    );
    // It expires with the customer's grant (a month), not with the provider's longest (three years).
    expect(Math.abs((stored?.expires_at.getTime() ?? 0) - Date.parse(grant?.until ?? ''))).toBeLessThan(
      5_000,
    );
    // The month passes: what the provider keeps of the grant is past its end.
    await t.db.query(
      `UPDATE oauth_artefacts SET expires_at = now() - interval '1 second'
        WHERE model = 'Grant' AND id = (SELECT oidc_grant_id FROM connect_grants WHERE id = $1)`,
      [grant?.id],
    );
    const refreshed = await tokenRequest(t, app, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(refreshed.statusCode).toBe(400);
    expect(refreshed.json<{ error: string }>().error).toBe('invalid_grant');
  });

  it('lets the customer revoke at once: the next call answers 401; admins and the audit log see it', async () => {
    const tokens = await authorize(t, app, anna, {
      meterNumbers: ['GR-A1', 'GR-A2'],
      from: '2026-03-01',
      months: 36,
    });
    const grant = await newestGrant(anna);
    expect(grant).toMatchObject({
      app: { name: 'SunSizer' },
      meterNumbers: ['GR-A1', 'GR-A2'],
      revokedAt: null,
    });
    const path = `/Subscription/${grant?.id}/UsagePoint`;
    expect((await espi(path, tokens.access_token)).statusCode).toBe(200);
    // Not Bert's to revoke: 404 as for none.
    expect((await t.call('DELETE', `/api/connect/grants/${grant?.id}`, { token: bert })).statusCode).toBe(
      404,
    );
    expect((await t.call('DELETE', `/api/connect/grants/${grant?.id}`, { token: anna })).statusCode).toBe(
      204,
    );
    expect((await espi(path, tokens.access_token)).statusCode).toBe(401);
    const refresh = await tokenRequest(t, app, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(refresh.statusCode).toBe(400);
    const all = (await t.call('GET', '/api/admin/connect/grants', { token: admin })).json<ConnectGrantList>();
    expect(all.items.find((item) => item.id === grant?.id)).toMatchObject({
      user: { email: 'anna@grant.cm' },
      revokedBy: 'customer',
      revokedAt: expect.any(String),
    });
    const audit = await t.call('GET', '/api/admin/audit?action=connect-grant.revoke', { token: admin });
    expect(audit.json<AuditList>().items.map((entry) => entry.targetId)).toContain(String(grant?.id));
    const given = await t.call('GET', '/api/admin/audit?action=connect-grant.create', { token: admin });
    expect(given.json<AuditList>().items.map((entry) => entry.targetId)).toContain(String(grant?.id));
  });

  it('ends every grant of a suspended app', async () => {
    const other = await registerApp(t, admin, 'HeatPump Pro');
    const tokens = await authorize(t, other, bert, {
      meterNumbers: ['GR-B1'],
      from: '2026-03-01',
      months: 2,
    });
    const grant = await newestGrant(bert);
    expect((await espi(`/Subscription/${grant?.id}/UsagePoint`, tokens.access_token)).statusCode).toBe(200);
    await t.call('POST', `/api/admin/connect/apps/${other.id}/suspend`, { token: admin });
    expect((await espi(`/Subscription/${grant?.id}/UsagePoint`, tokens.access_token)).statusCode).toBe(401);
    expect(await newestGrant(bert)).toMatchObject({ revokedBy: 'app-suspended' });
  });
});
