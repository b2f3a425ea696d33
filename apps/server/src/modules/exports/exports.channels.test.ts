import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '@cm/contracts/admin.ts';
import { Role } from '@cm/contracts/enums.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';
import {
  insertIntervals,
  insertLocation,
  insertMeter,
  insertReadings,
  linkUserToLocation,
} from '../../test/factories.ts';
import { validateEspi } from './espi-validate.ts';

// Issue 32 ("Interval data cannot get out again") and issue 34 item 3 (Download My Data drops a
// solar customer's export): the exports hold every stored reading, per channel and kind.

let t: TestApp;
let admin: string;
let owner: string;

const QUARTER = 15 * 60_000;
// 2026-05-05 in Berlin (UTC+2): local midnight is 22:00 UTC the day before.
const MIDNIGHT = Date.parse('2026-05-04T22:00:00Z');
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  const ownerId = await insertUser(t.db, { email: 'owner@test.cm', password: 'Owner!pass1' });
  const berlin = await insertLocation(t.db, 'Channels site', 'Europe/Berlin');
  await linkUserToLocation(t.db, ownerId, berlin);
  await insertMeter(t.db, {
    meterNumber: 'INT-1',
    locationId: berlin,
    meterInd: 1,
    installedAt: new Date('2026-01-01T00:00:00Z'),
    intervalMinutes: 15,
  });
  const solar = await insertMeter(t.db, {
    meterNumber: 'SOLAR-1',
    locationId: berlin,
    meterInd: 2,
    installedAt: new Date('2026-01-01T00:00:00Z'),
    intervalMinutes: 60,
    hasExport: true,
  });
  // Import: 100 kWh at local midnight, +1 kWh an hour; export: 50 kWh, +0.5 kWh an hour (Wh given).
  const hourly = (base: number, step: number) =>
    Array.from({ length: 25 }, (_, h) => [MIDNIGHT + h * HOUR, base + h * step] as const);
  await insertReadings(t.db, solar, hourly(100_000, 1_000), 1);
  await insertReadings(t.db, solar, hourly(50_000, 500), 2);
  admin = (await t.login('admin@test.cm', 'Admin!pass1')).token;
  owner = (await t.login('owner@test.cm', 'Owner!pass1')).token;
  // The interval meter is filled as every utility file fills one: interval_kwh rows, each the
  // energy of the quarter hour ending at its timestamp; quarter k (from 1) holds k Wh.
  const lines = ['meter_number,timestamp,interval_kwh'];
  for (let k = 1; k <= 96; k++)
    lines.push(`INT-1,${new Date(MIDNIGHT + k * QUARTER).toISOString()},${(k / 1000).toFixed(3)}`);
  const report = (
    await t.call('POST', '/api/admin/imports', {
      token: admin,
      body: `${lines.join('\n')}\n`,
      headers: { 'content-type': 'text/csv' },
    })
  ).json<ImportReport>();
  expect(report).toMatchObject({ committed: true, inserted: 96, rejectedCount: 0 });
});
afterAll(() => t.close());

const exportUrl = (params: Record<string, string>) =>
  `/api/admin/exports/readings?${new URLSearchParams(params).toString()}`;
const downloadUrl = (params: Record<string, string>) =>
  `/api/CheckMeter/DownloadMyData?${new URLSearchParams(params).toString()}`;
const DAY = { From: '2026-05-05', To: '2026-05-05' };

/** The feed's MeterReadings: each one's ReadingType (flow, accumulation) and its IntervalReadings' values. */
function meterReadings(xml: string) {
  const types = new Map(
    [...xml.matchAll(/ReadingType\/(\d+)"\/>[\s\S]*?<espi:ReadingType>([\s\S]*?)<\/espi:ReadingType>/g)].map(
      (m) => [m[1], m[2] ?? ''],
    ),
  );
  const readings = new Map<string, { flow: number; accumulation: number; values: number[] }>();
  for (const [id, type] of types) {
    if (id === undefined) continue;
    const blocks = [
      ...xml.matchAll(
        new RegExp(`MeterReading/${id}/IntervalBlock/\\d+"/>[\\s\\S]*?</espi:IntervalBlock>`, 'g'),
      ),
    ].map((m) => m[0]);
    readings.set(id, {
      flow: Number(/<espi:flowDirection>(\d+)</.exec(type)?.[1]),
      accumulation: Number(/<espi:accumulationBehaviour>(\d+)</.exec(type)?.[1]),
      values: blocks.flatMap((block) =>
        [...block.matchAll(/<espi:value>(\d+)<\/espi:value>/g)].map((m) => Number(m[1])),
      ),
    });
  }
  return [...readings.values()];
}

describe('exports of an interval meter', () => {
  it('the admin CSV has a row per stored interval: start, end, energy (not the header alone)', async () => {
    const response = await t.call('GET', exportUrl({ meterNumber: 'INT-1', ...DAY }), { token: admin });
    expect(response.statusCode).toBe(200);
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toBe('meter_number,channel,kind,start,end,value_kwh,quality');
    expect(lines).toHaveLength(1 + 96);
    expect(lines[1]).toBe(
      'INT-1,import,interval,2026-05-05T00:00:00+02:00,2026-05-05T00:15:00+02:00,0.001,actual',
    );
    expect(lines[96]).toBe(
      'INT-1,import,interval,2026-05-05T23:45:00+02:00,2026-05-06T00:00:00+02:00,0.096,actual',
    );
  });

  it("Download My Data's energy per interval holds every stored quarter hour", async () => {
    const response = await t.call('GET', downloadUrl({ meterNumber: 'INT-1', ...DAY }), { token: admin });
    expect(response.statusCode).toBe(200);
    expect(await validateEspi(response.body)).toBe('');
    const deltas = meterReadings(response.body).filter((m) => m.accumulation === 4);
    expect(deltas).toHaveLength(1);
    // k Wh = 1000·k mWh for quarter k = 1…96.
    expect(deltas[0]?.values).toEqual(Array.from({ length: 96 }, (_, i) => (i + 1) * 1000));
  });
});

describe('exports of a meter with an export channel', () => {
  it('the admin CSV names the channel of each row and holds both channels', async () => {
    const response = await t.call('GET', exportUrl({ meterNumber: 'SOLAR-1', ...DAY }), { token: admin });
    const lines = response.body.trim().split('\r\n');
    const rows = lines.slice(1).map((line) => line.split(','));
    expect(rows.filter((row) => row[1] === 'import')).toHaveLength(25);
    expect(rows.filter((row) => row[1] === 'export')).toHaveLength(25);
    expect(lines).toContain(
      'SOLAR-1,export,register,2026-05-05T01:00:00+02:00,2026-05-05T01:00:00+02:00,50.500,actual',
    );
  });

  it('Download My Data holds the export channel (flowDirection 19): its register and hourly energy', async () => {
    const response = await t.call('GET', downloadUrl({ meterNumber: 'SOLAR-1', ...DAY }), { token: owner });
    expect(response.statusCode).toBe(200);
    expect(await validateEspi(response.body)).toBe('');
    const readings = meterReadings(response.body);
    const of = (flow: number, accumulation: number) =>
      readings.find((m) => m.flow === flow && m.accumulation === accumulation)?.values;
    // Registers in mWh: 50 kWh + 0.5 kWh an hour; energies: 0.5 kWh = 500,000 mWh an hour.
    expect(of(19, 1)).toEqual(Array.from({ length: 25 }, (_, h) => 50_000_000 + h * 500_000));
    expect(of(19, 4)).toEqual(Array.from({ length: 24 }, () => 500_000));
    expect(of(1, 4)).toEqual(Array.from({ length: 24 }, () => 1_000_000));
  });
});

describe("the import reads CM's export layout, and checks it", () => {
  const upload = async (body: string) =>
    (
      await t.call('POST', '/api/admin/imports', {
        token: admin,
        body,
        headers: { 'content-type': 'text/csv' },
      })
    ).json<ImportReport>();

  it('refuses a row of no known kind and an interval whose end is not after its start, line by line', async () => {
    const report = await upload(
      [
        'meter_number,channel,kind,start,end,value_kwh,quality',
        'INT-1,import,reading,2026-05-05T00:00:00+02:00,2026-05-05T00:15:00+02:00,0.001,actual',
        'INT-1,import,interval,2026-05-05T00:15:00+02:00,2026-05-05T00:15:00+02:00,0.002,actual',
        'INT-1,import,register,2026-05-05T00:00:00+02:00,2026-05-05T00:15:00+02:00,1.000,actual',
        'INT-1,import,interval,2026-05-05T00:30:00+02:00,2026-05-05T00:45:00+02:00,0.003,actual',
      ].join('\n'),
    );
    expect(report).toMatchObject({ committed: true, unchanged: 1, rejectedCount: 3 });
    expect(report.rejected.map((line) => [line.line, line.code])).toEqual([
      [2, 'notAReading'],
      [3, 'badIntervalSpan'],
      [4, 'badIntervalSpan'],
    ]);
  });

  it('refuses a header that mixes the documented columns with the export’s', async () => {
    const response = await t.call('POST', '/api/admin/imports', {
      token: admin,
      body: 'meter_number,timestamp,kind,end,value_kwh\nINT-1,2026-05-05T00:15:00+02:00,interval,2026-05-05T00:15:00+02:00,0.001\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json<{ report: ImportReport }>().report.refusal).toMatch(/^Wrong columns/);
  });
});

describe('a range longer than a page of 10,000 readings', () => {
  it(
    'is read page by page with nothing lost or doubled at the page edges',
    { timeout: 120_000 },
    async () => {
      const [location] = await t.db.query<{ id: number }>(
        "SELECT id FROM locations WHERE public_name = 'Channels site'",
      );
      const meter = await insertMeter(t.db, {
        meterNumber: 'PAGES-1',
        locationId: location?.id ?? 0,
        meterInd: 3,
        installedAt: new Date('2026-01-01T00:00:00Z'),
        intervalMinutes: 1,
        hasExport: true,
      });
      // 12,001 registers a minute apart from local midnight of 1 Jun (22:00 UTC on 31 May), rising
      // 2 Wh a minute; 12,000 one-minute export records of 3 Wh each (both past a page of 10,000).
      const start = Date.parse('2026-05-31T22:00:00Z');
      const MINUTE = 60_000;
      await insertReadings(
        t.db,
        meter,
        Array.from({ length: 12_001 }, (_, i) => [start + i * MINUTE, 1_000_000 + 2 * i] as const),
        1,
      );
      await insertIntervals(
        t.db,
        meter,
        Array.from(
          { length: 12_000 },
          (_, i) => [start + i * MINUTE, start + (i + 1) * MINUTE, 3_000] as const,
        ),
        2,
      );
      // 12,000 minutes = 8 days and 8 hours: the local days 1 to 9 June hold everything.
      const range = { meterNumber: 'PAGES-1', From: '2026-06-01', To: '2026-06-09' };
      const csv = await t.call('GET', exportUrl(range), { token: admin });
      const rows = csv.body.trim().split('\r\n').slice(1);
      expect(rows.filter((row) => row.includes(',import,register,'))).toHaveLength(12_001);
      expect(rows.filter((row) => row.includes(',export,interval,'))).toHaveLength(12_000);
      expect(new Set(rows).size).toBe(rows.length);

      const xml = (await t.call('GET', exportUrl({ ...range, format: 'espi' }), { token: admin })).body;
      const readings = meterReadings(xml);
      const of = (flow: number, accumulation: number) =>
        readings.find((m) => m.flow === flow && m.accumulation === accumulation)?.values ?? [];
      expect(of(1, 1)).toHaveLength(12_001);
      // Between 12,001 registers: 12,000 minutes of 2 Wh = 2,000 mWh each, none lost between pages.
      expect(of(1, 4)).toEqual(Array.from({ length: 12_000 }, () => 2_000));
      expect(of(19, 4)).toEqual(Array.from({ length: 12_000 }, () => 3_000));
    },
  );
});
