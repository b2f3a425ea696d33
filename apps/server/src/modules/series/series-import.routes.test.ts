import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@cm/contracts/enums.ts';
import type { CarbonSeries, PriceSeries } from '@cm/contracts/market-series.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';
import { insertLocation } from '../../test/factories.ts';

// A new series with its file in one request (the administration page's import, issue 36): both
// are stored or neither, and every change of a series is in the audit log.

let t: TestApp;
let admin: string;
let client: string;

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  await insertUser(t.db, { email: 'a@test.cm', password: 'Client!passA' });
  admin = (await t.login('admin@test.cm', 'Admin!pass1')).token;
  client = (await t.login('a@test.cm', 'Client!passA')).token;
});
afterAll(() => t.close());

const priceQuery = (name: string) =>
  new URLSearchParams({
    name,
    intervalMinutes: '60',
    unit: 'MWh',
    currency: 'EUR',
    timeZone: 'Europe/Berlin',
    zone: 'DE-LU',
  }).toString();

const importNew = (kind: 'price' | 'carbon', query: string, text: string, token = admin) =>
  t.call('POST', `/api/admin/${kind}-series/import?${query}`, {
    token,
    body: text,
    headers: { 'content-type': 'text/csv' },
  });

async function auditActions(targetType: string): Promise<{ action: string; detail: unknown }[]> {
  return t.db.query<{ action: string; detail: unknown }>(
    'SELECT action, detail FROM audit_log WHERE target_type = $1 ORDER BY id',
    [targetType],
  );
}

describe('a new series with its file', () => {
  it('creates a price series with its values, and says so in the audit log', async () => {
    // Local 2026-01-05 in Berlin is UTC+1: 00:00 and 01:00 are 23:00Z and 00:00Z; 02:00 missing.
    const response = await importNew(
      'price',
      priceQuery('DE-LU day-ahead'),
      'start,price\n2026-01-05 00:00,85.37\n2026-01-05 01:00,-3\n2026-01-05 03:00,90\n',
    );
    expect(response.statusCode).toBe(201);
    const series = response.json<PriceSeries>();
    expect(series).toMatchObject({ name: 'DE-LU day-ahead', unit: 'MWh', currency: 'EUR', zone: 'DE-LU' });
    expect(series.coverage).toEqual({
      first: '2026-01-04T23:00:00.000Z',
      last: '2026-01-05T03:00:00.000Z',
      count: 3,
      missing: 1,
    });
    expect(await auditActions('price-series')).toEqual([
      {
        action: 'series.create',
        detail: expect.objectContaining({ name: 'DE-LU day-ahead', zone: 'DE-LU' }),
      },
      {
        action: 'series.import',
        detail: { stored: 3, from: '2026-01-04T23:00:00.000Z', to: '2026-01-05T03:00:00.000Z' },
      },
    ]);
  });

  it('refuses a bad file with the lines named and creates no series', async () => {
    const before = (await t.call('GET', '/api/admin/price-series', { token: admin })).json<PriceSeries[]>();
    const response = await importNew(
      'price',
      priceQuery('Refused'),
      '2026-01-05 00:00,85.37\n2026-01-05 00:30,80\n2026-01-05 01:00,lots\n',
    );
    expect(response.statusCode).toBe(422);
    expect(response.json<{ message: string }>().message).toMatch(/^Nothing was stored: Line 2: .*; Line 3: /);
    const after = (await t.call('GET', '/api/admin/price-series', { token: admin })).json<PriceSeries[]>();
    expect(after).toEqual(before);
  });

  it('refuses an interval that is not 5, 15, 30 or 60 minutes with 400', async () => {
    const query = priceQuery('Odd').replace('intervalMinutes=60', 'intervalMinutes=20');
    const response = await importNew('price', query, '2026-01-05 00:00,1\n');
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toContain('must be 5, 15, 30 or 60.');
  });

  it('answers 409 for a name taken, storing nothing', async () => {
    const query = priceQuery('DE-LU day-ahead');
    const response = await importNew('price', query, '2026-02-01 00:00,1\n');
    expect(response.statusCode).toBe(409);
    const list = (await t.call('GET', '/api/admin/price-series', { token: admin })).json<PriceSeries[]>();
    expect(list.filter((series) => series.name === 'DE-LU day-ahead').map((s) => s.coverage.count)).toEqual([
      3,
    ]);
  });

  it('creates a carbon series with its intensities; a client may not', async () => {
    const query = new URLSearchParams({
      name: 'DE grid',
      intervalMinutes: '15',
      timeZone: 'Europe/Berlin',
      region: 'DE',
    }).toString();
    const text = '2026-01-05T00:00:00+01:00,380.5\n2026-01-05T00:15:00+01:00,371\n';
    expect((await importNew('carbon', query, text, client)).statusCode).toBe(403);
    const response = await importNew('carbon', query, text);
    expect(response.statusCode).toBe(201);
    expect(response.json<CarbonSeries>()).toMatchObject({
      region: 'DE',
      coverage: { first: '2026-01-04T23:00:00.000Z', last: '2026-01-04T23:30:00.000Z', count: 2, missing: 0 },
    });
  });

  it('records a location given a carbon series in the audit log', async () => {
    const location = await insertLocation(t.db, 'Mill Yard', 'Europe/Berlin');
    const [carbon] = (await t.call('GET', '/api/admin/carbon-series', { token: admin })).json<
      CarbonSeries[]
    >();
    const response = await t.call('PUT', `/api/admin/locations/${location}/carbon-series`, {
      token: admin,
      body: { seriesId: carbon?.id ?? null },
    });
    expect(response.statusCode).toBe(200);
    const rows = await t.db.query<{ action: string; target_id: string; detail: unknown }>(
      `SELECT action, target_id, detail FROM audit_log WHERE action = 'location.carbon-series'`,
    );
    expect(rows).toEqual([
      { action: 'location.carbon-series', target_id: String(location), detail: { seriesId: carbon?.id } },
    ]);
  });
});
