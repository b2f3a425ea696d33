import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLog } from '@cm/contracts/access-log.ts';
import { API_KEY_HEADER, Role } from '@cm/contracts/enums.ts';
import type { SqlRunner } from '../../db/client.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';
import {
  insertLocation,
  insertMeter,
  insertReadings,
  linkUserToLocation,
  regularReadings,
} from '../../test/factories.ts';
import { AccessLogService } from './access-log.service.ts';
import { AccessRecorder } from './recorder.ts';

// "Who read my data" (issue 37): each kind of read leaves an entry on the meter's log, which its
// customer and administrators see, and nobody else.

let t: TestApp;
let admin: string;
let clientA: string;
let clientB: string;
let meterA1 = 0;

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, {
    email: 'admin@log.cm',
    password: 'Admin!log-pass1',
    role: Role.Admin,
    fullName: 'Ada Admin',
  });
  const a = await insertUser(t.db, { email: 'a@log.cm', password: 'Client!log-A1', fullName: 'Anna Client' });
  const b = await insertUser(t.db, { email: 'b@log.cm', password: 'Client!log-B1', fullName: 'Bert Client' });
  const home = await insertLocation(t.db, 'Log Home', 'Europe/Berlin');
  const away = await insertLocation(t.db, 'Log Away', 'Europe/Berlin');
  await linkUserToLocation(t.db, a, home);
  await linkUserToLocation(t.db, b, away);
  const installedAt = new Date('2026-01-01T00:00:00Z');
  meterA1 = await insertMeter(t.db, { meterNumber: 'LOG-A1', locationId: home, meterInd: 1, installedAt });
  await insertMeter(t.db, { meterNumber: 'LOG-A2', locationId: home, meterInd: 2, installedAt });
  await insertMeter(t.db, { meterNumber: 'LOG-B1', locationId: away, meterInd: 1, installedAt });
  await insertReadings(
    t.db,
    meterA1,
    regularReadings(
      Date.parse('2026-03-01T00:00:00Z'),
      Date.parse('2026-03-03T00:00:00Z'),
      3_600_000,
      1_000_000,
      () => 500,
    ),
  );
  admin = (await t.login('admin@log.cm', 'Admin!log-pass1')).token;
  clientA = (await t.login('a@log.cm', 'Client!log-A1')).token;
  clientB = (await t.login('b@log.cm', 'Client!log-B1')).token;
});
afterAll(() => t.close());

const logOf = async (meterNumber: string, token: string) => {
  const response = await t.call(
    'GET',
    `/api/CheckMeter/WhoReadMyData?meterNumber=${meterNumber}&pageSize=100`,
    {
      token,
    },
  );
  expect(response.statusCode).toBe(200);
  return response.json<AccessLog>();
};

/** The newest entry of LOG-A1's log, as its customer sees it. */
const newest = async () => (await logOf('LOG-A1', clientA)).items[0];

describe('who read my data', () => {
  it('lists nothing for the customer reading their own meter in the web app', async () => {
    const info = await t.call('GET', '/api/CheckMeter/GetMeterInfo?meterNumber=LOG-A1', { token: clientA });
    expect(info.statusCode).toBe(200);
    const readings = await t.call(
      'GET',
      '/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=Log%20Home&From=2026-03-01&To=2026-03-02',
      { token: clientA },
    );
    expect(readings.statusCode).toBe(200);
    expect(await logOf('LOG-A1', clientA)).toMatchObject({ meterNumber: 'LOG-A1', items: [], total: 0 });
  });

  it('logs an administrator opening the meter: its details, then its readings over the range', async () => {
    expect(
      (await t.call('GET', '/api/CheckMeter/GetMeterInfo?meterNumber=LOG-A1', { token: admin })).statusCode,
    ).toBe(200);
    expect(await newest()).toMatchObject({
      channel: 'admin',
      by: 'Ada Admin',
      data: ['details'],
      from: null,
      to: null,
      what: 'GetMeterInfo',
    });
    const readings = await t.call(
      'GET',
      '/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=Log%20Home&From=2026-03-01&To=2026-03-02',
      { token: admin },
    );
    expect(readings.statusCode).toBe(200);
    // 1 March 00:00 in Berlin (UTC+1) to the end of 2 March: 28 Feb 23:00Z to 2 March 23:00Z.
    const read = {
      channel: 'admin',
      by: 'Ada Admin',
      data: ['details', 'registers', 'intervals', 'cost'],
      from: '2026-02-28T23:00:00.000Z',
      to: '2026-03-02T23:00:00.000Z',
      what: 'GetElectricMeterInformationByLocationPublicName',
    };
    expect(await newest()).toMatchObject(read);
    // Both meters of the location were read; each has its entry.
    expect((await logOf('LOG-A2', clientA)).items).toEqual([expect.objectContaining(read)]);
    const adminPage = await t.call('GET', '/api/admin/meters/LOG-A1', { token: admin });
    expect(adminPage.statusCode).toBe(200);
    expect(await newest()).toMatchObject({ channel: 'admin', data: ['details'], what: 'admin: meter' });
  });

  it('logs a read through an API key other than the web app’s, with the key’s and the user’s names', async () => {
    const created = await t.call('POST', '/api/admin/api-keys', {
      token: admin,
      body: { name: 'Energy report', scopes: ['read'] },
    });
    const { key } = created.json<{ key: string }>();
    const response = await t.call(
      'GET',
      '/api/CheckMeter/GetMonthlyPeaks?name=Log%20Home&Month=2026-03&meterInd=1',
      {
        token: clientA,
        headers: { [API_KEY_HEADER]: key },
      },
    );
    expect(response.statusCode).toBe(200);
    // The 12 local months ending with March 2026: 1 April 2025 00:00 (UTC+2) to 1 April 2026 00:00 (UTC+2).
    expect(await newest()).toMatchObject({
      channel: 'api-key',
      by: 'Energy report (Anna Client)',
      data: ['intervals'],
      from: '2025-03-31T22:00:00.000Z',
      to: '2026-03-31T22:00:00.000Z',
      what: 'GetMonthlyPeaks',
    });
  });

  it('logs each file taken: an administrator’s export and the customer’s own Download My Data', async () => {
    const exported = await t.call(
      'GET',
      '/api/admin/exports/readings?meterNumber=LOG-A1&From=2026-03-01&To=2026-03-01&format=espi',
      { token: admin },
    );
    expect(exported.statusCode).toBe(200);
    expect(await newest()).toMatchObject({
      channel: 'export',
      by: 'Ada Admin',
      data: ['registers', 'intervals'],
      from: '2026-02-28T23:00:00.000Z',
      to: '2026-03-01T23:00:00.000Z',
      what: 'export (espi)',
    });
    const downloaded = await t.call(
      'GET',
      '/api/CheckMeter/DownloadMyData?meterNumber=LOG-A1&From=2026-03-02&To=2026-03-02&format=csv',
      { token: clientA },
    );
    expect(downloaded.statusCode).toBe(200);
    expect(await newest()).toMatchObject({
      channel: 'export',
      by: 'Anna Client',
      from: '2026-03-01T23:00:00.000Z',
      to: '2026-03-02T23:00:00.000Z',
      what: 'DownloadMyData (csv)',
    });
  });

  it('shows a meter’s log to its customer and administrators only', async () => {
    const own = await logOf('LOG-A1', clientA);
    expect(own.total).toBe(6);
    expect(await logOf('LOG-A1', admin)).toEqual(own);
    const other = await t.call('GET', '/api/CheckMeter/WhoReadMyData?meterNumber=LOG-A1', { token: clientB });
    const missing = await t.call('GET', '/api/CheckMeter/WhoReadMyData?meterNumber=NOPE', { token: clientB });
    expect(other.statusCode).toBe(404);
    expect(other.body).toBe(missing.body);
    expect(
      (await t.call('GET', '/api/CheckMeter/WhoReadMyData.csv?meterNumber=LOG-A1', { token: clientB }))
        .statusCode,
    ).toBe(404);
    // Client B's meter was read by nobody.
    expect((await logOf('LOG-B1', clientB)).items).toEqual([]);
  });

  it('exports the log as CSV, oldest first, times in the location’s zone', async () => {
    const response = await t.call('GET', '/api/CheckMeter/WhoReadMyData.csv?meterNumber=LOG-A1', {
      token: clientA,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="who-read-LOG-A1.csv"');
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toBe('at,channel,by,data,from,to,what');
    expect(lines).toHaveLength(1 + 6);
    expect(lines[1]).toMatch(/^[^,]+\+0[12]:00,admin,Ada Admin,details,,,GetMeterInfo$/);
    expect(lines[2]).toMatch(
      /,admin,Ada Admin,details registers intervals cost,2026-03-01T00:00:00\+01:00,2026-03-03T00:00:00\+01:00,GetElectricMeterInformationByLocationPublicName$/,
    );
    expect(lines[4]).toMatch(
      /,api-key,Energy report \(Anna Client\),intervals,2025-04-01T00:00:00\+02:00,2026-04-01T00:00:00\+02:00,GetMonthlyPeaks$/,
    );
  });

  it('keeps entries three years, then the housekeeping deletes them', async () => {
    const service = new AccessLogService(
      t.db,
      new AccessRecorder(t.db, { error: () => {} }),
      async () => undefined,
    );
    const nowMs = Date.parse('2029-06-15T12:00:00Z');
    await t.db.query(
      `INSERT INTO meter_access_log (meter_id, at, channel, reader_name, data, what)
       VALUES ($1, '2026-06-15T11:59:00Z', 'admin', 'old', '{details}', 'x'),
              ($1, '2026-06-15T12:01:00Z', 'admin', 'kept', '{details}', 'x')`,
      [meterA1],
    );
    expect(await service.purge(nowMs)).toBe(1);
    const left = await t.db.query<{ reader_name: string }>(
      `SELECT reader_name FROM meter_access_log WHERE reader_name IN ('old', 'kept')`,
    );
    expect(left).toEqual([{ reader_name: 'kept' }]);
  });
});

describe('the recorder', () => {
  it('keeps the entries of a failed write and writes them at the next try, in order', async () => {
    let failNext = true;
    const flaky: SqlRunner = {
      query: (text, params, options) => {
        if (failNext) {
          failNext = false;
          return Promise.reject(new Error('connection lost'));
        }
        return t.db.query(text, params, options);
      },
      queryArrays: (text, params) => t.db.queryArrays(text, params),
      copyFrom: (text, source) => t.db.copyFrom(text, source),
    };
    const errors: object[] = [];
    const recorder = new AccessRecorder(flaky, { error: (detail) => errors.push(detail) });
    const reader = { channel: 'admin' as const, name: 'Flaky', userId: null, apiKeyId: null };
    for (const what of ['first', 'second'])
      await recorder.record({
        meterIds: [meterA1],
        reader,
        data: ['details'],
        fromMs: null,
        toMs: null,
        what,
      });
    await expect(recorder.flush()).rejects.toThrow('connection lost');
    expect(errors).toEqual([expect.objectContaining({ waiting: 2 })]);
    await recorder.flush();
    const rows = await t.db.query<{ what: string }>(
      `SELECT what FROM meter_access_log WHERE reader_name = 'Flaky' ORDER BY id`,
    );
    expect(rows.map((row) => row.what)).toEqual(['first', 'second']);
  });

  it('makes a read wait for the write once too many entries wait', async () => {
    const recorder = new AccessRecorder(t.db, { error: () => {} }, { highWater: 3, batch: 100 });
    const reader = { channel: 'admin' as const, name: 'Piled', userId: null, apiKeyId: null };
    const read = {
      meterIds: [meterA1],
      reader,
      data: ['details' as const],
      fromMs: null,
      toMs: null,
      what: 'x',
    };
    await recorder.record(read);
    await recorder.record(read);
    const count = async () =>
      (
        await t.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM meter_access_log WHERE reader_name = 'Piled'`,
        )
      )[0]?.n;
    expect(await count()).toBe(0);
    // The third reaches the bound: once it resolves, all three are written.
    await recorder.record(read);
    expect(await count()).toBe(3);
  });
});
