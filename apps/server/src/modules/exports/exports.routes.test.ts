import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '@cm/contracts/admin.ts';
import { Role } from '@cm/contracts/enums.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';
import {
  insertLocation,
  insertMeter,
  insertReadings,
  linkUserToLocation,
  regularReadings,
} from '../../test/factories.ts';
import { validateEspi } from './espi-validate.ts';

let t: TestApp;
let admin: string;
let client: string;
let owner: string;

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  await insertUser(t.db, { email: 'client@test.cm', password: 'Client!pass1' });
  const ownerId = await insertUser(t.db, { email: 'owner@test.cm', password: 'Owner!pass1' });
  const berlin = await insertLocation(t.db, 'Export site', 'Europe/Berlin');
  await linkUserToLocation(t.db, ownerId, berlin);
  const meter = await insertMeter(t.db, {
    meterNumber: 'EXP-1',
    locationId: berlin,
    meterInd: 1,
    installedAt: new Date('2026-01-01T00:00:00Z'),
    multiplier: 2,
    // It reads every hour (below).
    intervalMinutes: 60,
  });
  await insertMeter(t.db, {
    meterNumber: 'EXP-2',
    locationId: berlin,
    meterInd: 2,
    installedAt: new Date('2026-01-01T00:00:00Z'),
  });
  // Across the spring-forward night in Berlin (29 March 2026, 02:00 → 03:00), hourly, +1.5 kWh each.
  await insertReadings(
    t.db,
    meter,
    regularReadings(
      Date.parse('2026-03-28T23:00:00Z'),
      Date.parse('2026-03-29T22:00:00Z'),
      3_600_000,
      1_000_000,
      () => 1_500,
    ),
  );
  admin = (await t.login('admin@test.cm', 'Admin!pass1')).token;
  client = (await t.login('client@test.cm', 'Client!pass1')).token;
  owner = (await t.login('owner@test.cm', 'Owner!pass1')).token;
});
afterAll(() => t.close());

const exportUrl = (params: Record<string, string>) =>
  `/api/admin/exports/readings?${new URLSearchParams(params).toString()}`;

describe('export readings', () => {
  it('streams CSV with local times and offsets, which imports back unchanged', async () => {
    const response = await t.call(
      'GET',
      exportUrl({ meterNumber: 'EXP-1', From: '2026-03-29', To: '2026-03-29' }),
      { token: admin },
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    // The file says whose readings and which local days (issue 17.10).
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="EXP-1-2026-03-29-to-2026-03-29.csv"',
    );
    expect(response.body.endsWith('\r\n')).toBe(true);
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toBe('meter_number,channel,kind,start,end,value_kwh,quality');
    // 29 March in Berlin has 23 hours: 24 readings from local midnight to the next midnight, inclusive.
    expect(lines).toHaveLength(1 + 24);
    const register = (at: string, kwh: string) => `EXP-1,import,register,${at},${at},${kwh},actual`;
    expect(lines.slice(1, 5)).toEqual([
      register('2026-03-29T00:00:00+01:00', '1000.000'),
      register('2026-03-29T01:00:00+01:00', '1001.500'),
      register('2026-03-29T03:00:00+02:00', '1003.000'),
      register('2026-03-29T04:00:00+02:00', '1004.500'),
    ]);
    expect(lines.at(-1)).toBe(register('2026-03-30T00:00:00+02:00', '1034.500'));
    const back = await t.call('POST', '/api/admin/imports', {
      token: admin,
      body: response.body,
      headers: { 'content-type': 'text/csv' },
    });
    expect(back.json<ImportReport>()).toMatchObject({
      committed: true,
      inserted: 0,
      unchanged: 24,
      conflictCount: 0,
      rejectedCount: 0,
    });
  });

  it('defuses meter numbers a spreadsheet would run as formulas, and imports them back to the same meter', async () => {
    const [location] = await t.db.query<{ id: number }>(
      "SELECT id FROM locations WHERE public_name = 'Export site'",
    );
    for (const [index, meterNumber] of ['=1+1', '+SUM(A1)', '-2', '@cmd'].entries()) {
      const meter = await insertMeter(t.db, {
        meterNumber,
        locationId: location?.id ?? 0,
        meterInd: 10 + index,
        installedAt: new Date('2026-01-01T00:00:00Z'),
      });
      await insertReadings(t.db, meter, [[Date.parse('2026-03-29T10:00:00Z'), 5_000]]);
      const response = await t.call('GET', exportUrl({ meterNumber, From: '2026-03-29', To: '2026-03-29' }), {
        token: admin,
      });
      const row = response.body.split('\r\n')[1] ?? '';
      expect(row, meterNumber).toBe(
        `'${meterNumber},import,register,2026-03-29T12:00:00+02:00,2026-03-29T12:00:00+02:00,5.000,actual`,
      );
      const back = await t.call('POST', '/api/admin/imports', {
        token: admin,
        body: response.body,
        headers: { 'content-type': 'text/csv' },
      });
      expect(back.json<ImportReport>(), meterNumber).toMatchObject({ unchanged: 1, rejectedCount: 0 });
    }
  });

  it('writes Green Button ESPI XML that validates against the ESPI XSD and imports back unchanged', async () => {
    const response = await t.call(
      'GET',
      exportUrl({ meterNumber: 'EXP-1', From: '2026-03-29', To: '2026-03-29', format: 'espi' }),
      { token: admin },
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/atom\+xml/);
    // The 24 registers, and the 23 hours' energies between them (derived: defaultQuality 11).
    expect(response.body.match(/<espi:IntervalReading>/g)).toHaveLength(24 + 23);
    expect(response.body).toContain('<espi:defaultQuality>11</espi:defaultQuality>');
    // Energy in mWh (powerOfTenMultiplier -3) after the CT multiplier of 2: 1,000 kWh × 2.
    expect(response.body).toContain('<espi:powerOfTenMultiplier>-3</espi:powerOfTenMultiplier>');
    expect(response.body).toContain('<espi:value>2000000000</espi:value>');
    expect(await validateEspi(response.body)).toBe('');
    const empty = await t.call(
      'GET',
      exportUrl({ meterNumber: 'EXP-2', From: '2026-03-29', To: '2026-03-29', format: 'espi' }),
      { token: admin },
    );
    expect(await validateEspi(empty.body)).toBe('');
    const back = await t.call('POST', '/api/admin/imports?meterNumber=EXP-1', {
      token: admin,
      body: response.body,
      headers: { 'content-type': 'application/atom+xml' },
    });
    // The derived energies are not stored as readings of their own: only the registers come back.
    const report = back.json<ImportReport>();
    expect(report).toMatchObject({
      committed: true,
      inserted: 0,
      unchanged: 24,
      rejectedCount: 0,
    });
    expect(report.notes.join(' ')).toMatch(/derived from the registers/);
  });

  it('the validator really rejects an invalid document', async () => {
    expect(await validateEspi('<feed xmlns="http://www.w3.org/2005/Atom"><bogus/></feed>')).toMatch(/bogus/);
  });

  it('answers 400 naming the parameter, 404 for an unknown meter, 403 for a client', async () => {
    expect(
      (
        await t.call('GET', exportUrl({ meterNumber: 'EXP-1', From: 'soon', To: '2026-03-29' }), {
          token: admin,
        })
      ).json(),
    ).toMatchObject({ statusCode: 400, param: 'From' });
    expect(
      (
        await t.call(
          'GET',
          exportUrl({ meterNumber: 'EXP-1', From: '2026-03-29', To: '2026-03-29', format: 'pdf' }),
          { token: admin },
        )
      ).json(),
    ).toMatchObject({ statusCode: 400, param: 'format' });
    expect(
      (
        await t.call('GET', exportUrl({ meterNumber: 'NOPE', From: '2026-03-29', To: '2026-03-29' }), {
          token: admin,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.call('GET', exportUrl({ meterNumber: 'EXP-1', From: '2026-03-29', To: '2026-03-29' }), {
          token: client,
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('Download My Data', () => {
  const downloadUrl = (params: Record<string, string>) =>
    `/api/CheckMeter/DownloadMyData?${new URLSearchParams(params).toString()}`;

  it("gives a client its own meter as Green Button: the register and each hour's energy, per local day", async () => {
    const response = await t.call(
      'GET',
      downloadUrl({ meterNumber: 'EXP-1', From: '2026-03-29', To: '2026-03-29' }),
      {
        token: owner,
      },
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="EXP-1-2026-03-29-to-2026-03-29.xml"',
    );
    const xml = response.body;
    expect(await validateEspi(xml)).toBe('');
    // Berlin: UTC+1 standard, 1 h of DST from the last Sunday of March 02:00 to the last Sunday of
    // October 03:00 (usage.xsd DstRuleType: month 3, last (7) Sunday (7), 2 h → 0x3E0E2000).
    expect(xml).toContain(
      '<espi:LocalTimeParameters><espi:dstEndRule>AE0E3000</espi:dstEndRule><espi:dstOffset>3600</espi:dstOffset><espi:dstStartRule>3E0E2000</espi:dstStartRule><espi:tzOffset>3600</espi:tzOffset></espi:LocalTimeParameters>',
    );
    // The second MeterReading: deltas of an hour each.
    expect(xml).toContain('<espi:accumulationBehaviour>4</espi:accumulationBehaviour>');
    expect(xml).toContain('<espi:intervalLength>3600</espi:intervalLength>');
    const blocks = [
      ...xml.matchAll(/MeterReading\/2\/IntervalBlock\/\d+"\/>[\s\S]*?<\/espi:IntervalBlock>/g),
    ].map((m) => m[0]);
    // 29 March 2026 in Berlin has 23 hours: one block of 82,800 s from local midnight (23:00 UTC).
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toContain(
      `<espi:interval><espi:duration>82800</espi:duration><espi:start>${Date.parse('2026-03-28T23:00:00Z') / 1000}</espi:start></espi:interval>`,
    );
    // The fixture's register rises 1.5 kWh an hour and the CT multiplier is 2: 3 kWh = 3,000,000 mWh.
    const values = [...(blocks[0] ?? '').matchAll(/<espi:value>(\d+)<\/espi:value>/g)].map((m) =>
      Number(m[1]),
    );
    expect(values).toEqual(Array.from({ length: 23 }, () => 3_000_000));
    expect(xml.match(/<espi:duration>3600<\/espi:duration>/g)).toHaveLength(23);
    // …beside the register as stored: 24 readings from midnight to midnight, 23 in the 29th's
    // block and the closing one at the next midnight in the 30th's.
    const registerBlocks = [
      ...xml.matchAll(/MeterReading\/1\/IntervalBlock\/\d+"\/>[\s\S]*?<\/espi:IntervalBlock>/g),
    ].map((m) => m[0]);
    expect(registerBlocks.map((block) => block.match(/<espi:IntervalReading>/g)?.length)).toEqual([23, 1]);
  });

  it('spans a gap with one reading over the longer time, and leaves a register that went down out', async () => {
    const [location] = await t.db.query<{ id: number }>(
      "SELECT id FROM locations WHERE public_name = 'Export site'",
    );
    const meter = await insertMeter(t.db, {
      meterNumber: 'EXP-GAP',
      locationId: location?.id ?? 0,
      meterInd: 30,
      installedAt: new Date('2026-01-01T00:00:00Z'),
      intervalMinutes: 60,
    });
    const at = (hour: number) => Date.parse('2026-05-04T22:00:00Z') + hour * 3_600_000;
    // 00:00 10 kWh, 01:00 11, (02:00 missing), 03:00 13, 04:00 12.5 (went down), 05:00 14.
    // (The factory takes Wh.)
    await insertReadings(t.db, meter, [
      [at(0), 10_000],
      [at(1), 11_000],
      [at(3), 13_000],
      [at(4), 12_500],
      [at(5), 14_000],
    ]);
    const xml = (
      await t.call('GET', downloadUrl({ meterNumber: 'EXP-GAP', From: '2026-05-05', To: '2026-05-05' }), {
        token: owner,
      })
    ).body;
    expect(await validateEspi(xml)).toBe('');
    const deltas = /MeterReading\/2\/IntervalBlock\/1"\/>[\s\S]*?<\/espi:IntervalBlock>/.exec(xml)?.[0] ?? '';
    const readings = [
      ...deltas.matchAll(
        /<espi:duration>(\d+)<\/espi:duration><espi:start>(\d+)<\/espi:start><\/espi:timePeriod><espi:value>(\d+)</g,
      ),
    ].map((m) => [Number(m[1]), Number(m[2]) * 1000, Number(m[3])]);
    expect(readings).toEqual([
      [3600, at(0), 1_000_000],
      [7200, at(1), 2_000_000],
      [3600, at(4), 1_500_000],
    ]);
  });

  it("answers another client's meter as one that does not exist, and checks its input", async () => {
    const asked = { meterNumber: 'EXP-1', From: '2026-03-29', To: '2026-03-29' };
    const other = await t.call('GET', downloadUrl(asked), { token: client });
    const unknown = await t.call('GET', downloadUrl({ ...asked, meterNumber: 'NOPE' }), { token: client });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(unknown.json());
    expect((await t.call('GET', downloadUrl(asked))).statusCode).toBe(401);
    expect(
      (await t.call('GET', downloadUrl({ ...asked, From: 'soon' }), { token: owner })).json(),
    ).toMatchObject({
      statusCode: 400,
      param: 'From',
    });
    const csv = await t.call('GET', downloadUrl({ ...asked, format: 'csv' }), { token: owner });
    expect(csv.body.split('\r\n')[1]).toBe(
      'EXP-1,import,register,2026-03-29T00:00:00+01:00,2026-03-29T00:00:00+01:00,1000.000,actual',
    );
  });
});
