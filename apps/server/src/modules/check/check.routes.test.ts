import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_HEADER, Role } from '@cm/contracts/enums.ts';
import { meterInfoSchema, type MeterInfo } from '@cm/contracts/check.ts';
import { BINARY_COLUMNS_TYPE, decodeBinaryColumns } from '@cm/contracts/binary-columns.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import {
  createTestApp,
  insertUser,
  readingsAnswer,
  TEST_SECRET,
  TEST_SECRETS,
  type TestApp,
} from '../../test/test-app.ts';
import {
  insertDevice,
  insertLocation,
  insertMeter,
  insertReadings,
  linkUserToLocation,
  regularReadings,
} from '../../test/factories.ts';

const Q = 15 * 60_000;
// Berlin: 2026-03-27 00:00 local = 2026-03-26T23:00Z; clocks spring forward on 2026-03-29.
const START = Date.parse('2026-03-26T23:00:00Z');
const END = Date.parse('2026-03-30T22:00:00Z'); // 2026-03-31 00:00 local (CEST)
const EXCHANGE = Date.parse('2026-03-28T12:00:00Z');

let t: TestApp;
let admin: string;
let clientA: string;
let clientB: string;

const readingsUrl = (params: Record<string, string>) =>
  `/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?${new URLSearchParams(params).toString()}`;

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  const a = await insertUser(t.db, { email: 'a@test.cm', password: 'Client!passA' });
  const b = await insertUser(t.db, { email: 'b@test.cm', password: 'Client!passB' });
  const harbourA = await insertLocation(t.db, 'Harbour A', 'Europe/Berlin');
  const harbourB = await insertLocation(t.db, 'Harbour B', 'America/New_York');
  await linkUserToLocation(t.db, a, harbourA);
  await linkUserToLocation(t.db, b, harbourB);
  const ap = await insertDevice(t.db, {
    type: 1,
    serial: 'AP-A',
    locationId: harbourA,
    lastSeenAt: new Date(),
  });
  const cube = await insertDevice(t.db, {
    type: 2,
    serial: 'CUBE-A',
    locationId: harbourA,
    parentId: ap,
    priority: 2,
    lastSeenAt: new Date(Date.now() - 5 * 3600_000),
  });
  const installedAt = new Date(START - 86_400_000);
  const a1 = await insertMeter(t.db, {
    meterNumber: 'EM-A1',
    locationId: harbourA,
    meterInd: 1,
    cubeId: cube,
    installedAt,
  });
  await insertReadings(
    t.db,
    a1,
    regularReadings(START, END, Q, 1_000_000, () => 10),
  );
  const a2 = await insertMeter(t.db, {
    meterNumber: 'EM-A2',
    locationId: harbourA,
    meterInd: 2,
    cubeId: cube,
    installedAt,
    multiplier: 40,
  });
  const gapFrom = Date.parse('2026-03-28T06:00:00Z');
  const gapTo = Date.parse('2026-03-28T12:00:00Z');
  await insertReadings(
    t.db,
    a2,
    regularReadings(START, END, Q, 0, () => 3).filter(([time]) => time <= gapFrom || time >= gapTo),
  );
  const oldMeter = await insertMeter(t.db, {
    meterNumber: 'EM-A3-OLD',
    locationId: harbourA,
    meterInd: 3,
    cubeId: cube,
    installedAt,
    removedAt: new Date(EXCHANGE),
  });
  await insertReadings(
    t.db,
    oldMeter,
    regularReadings(START, EXCHANGE, Q, 4_000_000, () => 20),
  );
  const newMeter = await insertMeter(t.db, {
    meterNumber: 'EM-A3-NEW',
    locationId: harbourA,
    meterInd: 3,
    cubeId: cube,
    installedAt: new Date(EXCHANGE),
  });
  await insertReadings(
    t.db,
    newMeter,
    regularReadings(EXCHANGE, END, Q, 100, () => 20),
  );
  const b1 = await insertMeter(t.db, {
    meterNumber: 'EM-B1',
    locationId: harbourB,
    meterInd: 1,
    installedAt,
  });
  await insertReadings(
    t.db,
    b1,
    regularReadings(START, END, Q, 0, () => 1),
  );
  admin = (await t.login('admin@test.cm', 'Admin!pass1')).token;
  clientA = (await t.login('a@test.cm', 'Client!passA')).token;
  clientB = (await t.login('b@test.cm', 'Client!passB')).token;
});
afterAll(() => t.close());

describe('GET /api/CheckMeter/GetMeterInfo', () => {
  it('describes the meter, its location, chain, last reading and completeness', async () => {
    const response = await t.call('GET', '/api/CheckMeter/GetMeterInfo?meterNumber=EM-A1', {
      token: clientA,
    });
    expect(response.statusCode).toBe(200);
    const info = response.json<MeterInfo>();
    expect(info).toMatchObject({
      meterNumber: 'EM-A1',
      type: 3,
      meterInd: 1,
      unit: 'kWh',
      multiplier: 1,
      status: 'active',
      priorityLabel: 'New',
      location: { publicName: 'Harbour A', timeZone: 'Europe/Berlin' },
      chain: {
        cube: { serial: 'CUBE-A', priorityLabel: 'High', health: 'late' },
        accessPoint: { serial: 'AP-A', health: 'ok' },
      },
      lastReading: { at: new Date(END).toISOString(), value: 1000 + (((END - START) / Q) * 10) / 1000 },
      completeUpTo: new Date(END).toISOString(),
    });
  });

  it('answers exactly the contract: nothing missing, nothing the schema does not name', async () => {
    for (const meterNumber of ['EM-A1', 'EM-A2']) {
      const info = (
        await t.call('GET', `/api/CheckMeter/GetMeterInfo?meterNumber=${meterNumber}`, { token: admin })
      ).json<MeterInfo>();
      expect(meterInfoSchema.parse(info)).toEqual(info);
    }
  });

  it('says "complete up to" the start of the newest gap', async () => {
    const info = (
      await t.call('GET', '/api/CheckMeter/GetMeterInfo?meterNumber=EM-A2', { token: admin })
    ).json<MeterInfo>();
    expect(info.completeUpTo).toBe('2026-03-28T06:00:00.000Z');
  });

  it("answers the same 404 for another client's meter and a missing one", async () => {
    const other = await t.call('GET', '/api/CheckMeter/GetMeterInfo?meterNumber=EM-B1', { token: clientA });
    const missing = await t.call('GET', '/api/CheckMeter/GetMeterInfo?meterNumber=EM-NOPE', {
      token: clientA,
    });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
    expect(
      (await t.call('GET', '/api/CheckMeter/GetMeterInfo?meterNumber=EM-B1', { token: clientB })).statusCode,
    ).toBe(200);
    expect(
      (await t.call('GET', '/api/CheckMeter/GetMeterInfo?meterNumber=EM-B1', { token: admin })).statusCode,
    ).toBe(200);
  });

  it('finds a meter as people type its number: any case, with or without separators', async () => {
    const number = async (typed: string, token = clientA) => {
      const response = await t.call(
        'GET',
        `/api/CheckMeter/GetMeterInfo?meterNumber=${encodeURIComponent(typed)}`,
        {
          token,
        },
      );
      return response.statusCode === 200 ? response.json<MeterInfo>().meterNumber : response.statusCode;
    };
    expect(await number('em-a1')).toBe('EM-A1');
    expect(await number('EMA1')).toBe('EM-A1');
    expect(await number(' em a1 ')).toBe('EM-A1');
    // Never another client's meter, however it is spelt.
    expect(await number('em-b1')).toBe(404);
    expect(await number('em-b1', clientB)).toBe('EM-B1');
    // Two meters that differ only in separators: the exact number finds each, a loose one neither.
    const harbour = await insertLocation(t.db, 'Twin Yard', 'Europe/Berlin');
    for (const meterNumber of ['TW-1', 'TW1'])
      await insertMeter(t.db, {
        meterNumber,
        locationId: harbour,
        meterInd: meterNumber.length,
        installedAt: new Date(),
      });
    expect(await number('TW-1', admin)).toBe('TW-1');
    expect(await number('TW1', admin)).toBe('TW1');
    expect(await number('tw 1', admin)).toBe(404);
  });

  it('needs a token and an API key, and a meterNumber', async () => {
    expect((await t.call('GET', '/api/CheckMeter/GetMeterInfo?meterNumber=EM-A1')).statusCode).toBe(401);
    const noKey = await t.app.inject({
      method: 'GET',
      url: '/api/CheckMeter/GetMeterInfo?meterNumber=EM-A1',
      headers: { authorization: `Bearer ${clientA}` },
    });
    expect(noKey.statusCode).toBe(401);
    expect(noKey.json().message).toContain(API_KEY_HEADER);
    const missing = await t.call('GET', '/api/CheckMeter/GetMeterInfo', { token: clientA });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().param).toBe('meterNumber');
  });
});

describe('GET /api/CheckMeter/GetElectricMeterInformationByLocationPublicName', () => {
  it('gives day buckets in the location zone, the DST day 23 hours long, summing to the register difference', async () => {
    const response = await t.call(
      'GET',
      readingsUrl({
        name: 'Harbour A',
        From: '2026-03-27',
        To: '2026-03-30',
        meterInd: '1',
        granularity: 'day',
      }),
      { token: clientA },
    );
    expect(response.statusCode).toBe(200);
    const body = readingsAnswer(response);
    expect(body.location.timeZone).toBe('Europe/Berlin');
    expect(body.from).toBe(new Date(START).toISOString());
    expect(body.to).toBe(new Date(END).toISOString());
    const [meter] = body.meters;
    expect(meter?.series.hours).toEqual([24, 24, 23, 24]);
    expect(meter?.series.consumption).toEqual([0.96, 0.96, 0.92, 0.96]);
    expect(meter?.totals).toMatchObject({
      consumption: 3.8,
      registerDifference: 3.8,
      intervalSum: 3.8,
      gapConsumption: 0,
      agrees: true,
      missingIntervals: 0,
    });
  });

  it('answers the same value in the binary columns form when the Accept header asks for it', async () => {
    for (const granularity of ['raw', 'hour', 'day']) {
      const url = readingsUrl({
        name: 'Harbour A',
        From: '2026-03-27',
        To: '2026-03-30',
        meterInd: '1',
        granularity,
      });
      const json = await t.call('GET', url, { token: clientA });
      const binary = await t.call('GET', url, {
        token: clientA,
        headers: { accept: `${BINARY_COLUMNS_TYPE}, application/json;q=0.9` },
      });
      expect(binary.statusCode).toBe(200);
      expect(binary.headers['content-type']).toBe(BINARY_COLUMNS_TYPE);
      expect(binary.headers.vary).toMatch(/Accept/i);
      expect(json.headers.vary).toMatch(/Accept/i);
      expect(decodeBinaryColumns(binary.rawPayload)).toEqual(json.json());
      expect(binary.rawPayload.length).toBeLessThan(json.rawPayload.length);
    }
    // Errors stay JSON whatever was asked.
    const missing = await t.call(
      'GET',
      readingsUrl({ name: 'Nowhere', From: '2026-03-27', To: '2026-03-27' }),
      {
        token: clientA,
        headers: { accept: BINARY_COLUMNS_TYPE },
      },
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ message: expect.any(String) });
  });

  it('reports a gap instead of hiding it, and applies the CT multiplier', async () => {
    const body = readingsAnswer(
      await t.call(
        'GET',
        readingsUrl({ name: 'harbour a', From: '2026-03-28', To: '2026-03-28', meterInd: '2' }),
        { token: clientA },
      ),
    );
    const [meter] = body.meters;
    expect(body.granularity).toBe('raw');
    expect(meter?.gaps).toHaveLength(1);
    expect(meter?.gaps[0]).toMatchObject({
      from: '2026-03-28T06:00:00.000Z',
      to: '2026-03-28T12:00:00.000Z',
      missingIntervals: 23,
      consumption: (24 * 3 * 40) / 1000,
    });
    expect(meter?.totals.missingIntervals).toBe(23);
    expect(meter?.totals.consumption).toBe((96 * 3 * 40) / 1000);
    expect(meter?.totals.agrees).toBe(true);
    const afterGap = meter?.series.t.indexOf(Date.parse('2026-03-28T12:00:00Z')) ?? -1;
    expect(meter?.series.consumption[afterGap]).toBeNull();
    expect(meter?.series.missing[afterGap]).toBe(23);
  });

  it('keeps consumption continuous across a meter exchange', async () => {
    const body = readingsAnswer(
      await t.call(
        'GET',
        readingsUrl({
          name: 'Harbour A',
          From: '2026-03-28',
          To: '2026-03-28',
          meterInd: '3',
          granularity: 'hour',
        }),
        { token: clientA },
      ),
    );
    const [meter] = body.meters;
    expect(meter?.meterNumbers).toEqual(['EM-A3-OLD', 'EM-A3-NEW']);
    expect(meter?.meter.meterNumber).toBe('EM-A3-NEW');
    expect(meter?.events.map((event) => event.type)).toContain('meterExchange');
    expect(meter?.series.consumption.every((value) => value === 0.08)).toBe(true);
    expect(meter?.totals.consumption).toBe(1.92);
    expect(Math.max(...(meter?.series.consumption.map(Number) ?? []))).toBeLessThan(0.1);
  });

  it('reads only the meters installed in the range, and shows the current one', async () => {
    const before = readingsAnswer(
      await t.call(
        'GET',
        readingsUrl({ name: 'harbour a', From: '2026-03-27', To: '2026-03-27', meterInd: '3' }),
        { token: clientA },
      ),
    );
    expect(before.location.publicName).toBe('Harbour A');
    expect(before.meters.map((meter) => [meter.meterNumbers, meter.meter.meterNumber])).toEqual([
      [['EM-A3-OLD'], 'EM-A3-NEW'],
    ]);
    expect(before.meters[0]?.totals.consumption).toBe(1.92);
    const after = readingsAnswer(
      await t.call(
        'GET',
        readingsUrl({ name: 'Harbour A', From: '2026-03-29', To: '2026-03-29', meterInd: '3' }),
        { token: clientA },
      ),
    );
    expect(after.meters[0]?.meterNumbers).toEqual(['EM-A3-NEW']);
  });

  it('answers a location without meters with none', async () => {
    await insertLocation(t.db, 'Empty Quay', 'Europe/Lisbon');
    const body = readingsAnswer(
      await t.call('GET', readingsUrl({ name: 'empty quay', From: '2026-03-28', To: '2026-03-28' }), {
        token: admin,
      }),
    );
    expect(body.location).toMatchObject({ publicName: 'Empty Quay', timeZone: 'Europe/Lisbon' });
    expect(body.meters).toEqual([]);
    const noMeter = await t.call(
      'GET',
      readingsUrl({ name: 'Empty Quay', From: '2026-03-28', To: '2026-03-28', meterInd: '1' }),
      { token: admin },
    );
    expect(noMeter.statusCode).toBe(404);
    expect(noMeter.json().message).toBe('This location has no meter 1.');
  });

  it('lists every meter of the location when meterInd is omitted', async () => {
    const body = readingsAnswer(
      await t.call(
        'GET',
        readingsUrl({ name: 'Harbour A', From: '2026-03-28T00:00:00Z', To: '2026-03-28T01:00:00Z' }),
        { token: admin },
      ),
    );
    expect(body.meters.map((meter) => meter.meterInd)).toEqual([1, 2, 3]);
    expect(body.meters[0]?.series.t).toHaveLength(5);
  });

  it('carries the peak demand of each day and of the range, "at least" around a gap', async () => {
    // EM-A2's quarters on Sat 28 March (Berlin, CET): +3 Wh × 40 = 120 Wh ÷ 0.25 h = 0.48 kW, the
    // first from local midnight (23:00Z on the 27th); readings 06:00–12:00Z are missing, so the
    // day's peak is "at least" 0.48 kW (the gap's 24 quarters hold 2.88 kWh: 0.48 kW on average).
    const response = await t.call(
      'GET',
      readingsUrl({
        name: 'Harbour A',
        meterInd: '2',
        From: '2026-03-28',
        To: '2026-03-28',
        granularity: 'day',
      }),
      { token: clientA },
    );
    const meter = readingsAnswer(response).meters[0];
    expect(meter?.totals.demand).toEqual({
      kW: 0.48,
      from: '2026-03-27T23:00:00.000Z',
      to: '2026-03-27T23:15:00.000Z',
      localFrom: '2026-03-28T00:00:00+01:00',
      isAtLeast: true,
    });
    expect(meter?.series.demand).toEqual([0.48]);
    expect(meter?.series.demandAt).toEqual([Date.parse('2026-03-27T23:00:00Z')]);
    expect(meter?.series.demandAtLeast).toEqual([1]);
  });

  it("answers 404 for another client's location, the same as a missing one", async () => {
    const other = await t.call(
      'GET',
      readingsUrl({ name: 'Harbour B', From: '2026-03-28', To: '2026-03-28' }),
      { token: clientA },
    );
    const missing = await t.call(
      'GET',
      readingsUrl({ name: 'Nowhere', From: '2026-03-28', To: '2026-03-28' }),
      { token: clientA },
    );
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
    expect(other.json().param).toBe('name');
    const noMeter = await t.call(
      'GET',
      readingsUrl({ name: 'Harbour A', From: '2026-03-28', To: '2026-03-28', meterInd: '9' }),
      { token: clientA },
    );
    expect(noMeter.statusCode).toBe(404);
    expect(noMeter.json().param).toBe('meterInd');
  });

  it.each([
    [{ From: '2026-03-28', To: '2026-03-28' }, 'name'],
    [{ name: 'Harbour A', To: '2026-03-28' }, 'From'],
    [{ name: 'Harbour A', From: '2026-03-29', To: '2026-03-28' }, 'To'],
    [{ name: 'Harbour A', From: '2026-02-30', To: '2026-03-28' }, 'From'],
    [{ name: 'Harbour A', From: '2026-03-28T00:00:00', To: '2026-03-29' }, 'From'],
    [{ name: 'Harbour A', From: '1066-10-14', To: '2026-03-28' }, 'From'],
    [{ name: 'Harbour A', From: '2020-01-01', To: '2026-03-28', granularity: 'raw' }, 'granularity'],
    [{ name: 'Harbour A', From: '2026-03-28', To: '2026-03-28', granularity: 'fortnight' }, 'granularity'],
    [{ name: 'Harbour A', From: '2026-03-28', To: '2026-03-28', meterInd: '0' }, 'meterInd'],
    [{ name: 'Harbour A', From: '2026-03-28', To: '2026-03-28', meterInd: 'one' }, 'meterInd'],
    [{ name: 'Harbour A', From: '2026-03-28', To: '2026-03-28', maxPoints: '2' }, 'maxPoints'],
    [{ name: 'Harbour A', From: "2026-03-28'; DROP TABLE readings; --", To: '2026-03-29' }, 'From'],
  ])('answers 400 naming the parameter for %j', async (params, param) => {
    const response = await t.call('GET', readingsUrl(params), { token: clientA });
    expect(response.statusCode).toBe(400);
    expect(response.json().param).toBe(param);
    expect(response.json().message).toContain(param);
  });

  it('survives hostile names without a 500', async () => {
    for (const name of ["' OR 1=1 --", '../../etc/passwd', '\u0000\u0001', '%_%', 'x'.repeat(200)]) {
      const response = await t.call('GET', readingsUrl({ name, From: '2026-03-28', To: '2026-03-28' }), {
        token: clientA,
      });
      expect([400, 404]).toContain(response.statusCode);
    }
    expect((await t.db.query('SELECT count(*)::int AS n FROM register_readings'))[0]).toMatchObject({
      n: expect.any(Number),
    });
  });
});

describe('GET /api/CheckMeter/GetMonthlyPeaks', () => {
  const peaksUrl = (params: Record<string, string>) =>
    `/api/CheckMeter/GetMonthlyPeaks?${new URLSearchParams(params).toString()}`;

  it("sums a location's meters per interval, gives one meter's own, and averages with the floor", async () => {
    // Harbour A's quarters from 2026-03-27 00:00 Berlin (START): EM-A1 +10 Wh (0.04 kW), EM-A2
    // +3 Wh × 40 = 120 Wh (0.48 kW; a gap 28 Mar 06:00–12:00 UTC), EM-A3 +20 Wh (0.08 kW), no main
    // supply. Each quarter together: 150 Wh ÷ 0.25 h = 0.6 kW, first reached in the first quarter;
    // "at least" (EM-A2's gap, and no data before 27 March). The rolling average has one month,
    // 0.6 kW, under the 2.5 kW floor: 2.5 kW.
    const location = await t.call('GET', peaksUrl({ name: 'Harbour A', Month: '2026-03' }), {
      token: clientA,
    });
    expect(location.statusCode).toBe(200);
    const body = location.json();
    expect(body).toMatchObject({ meterInd: null, basis: 'allMeters' });
    expect(body.meterNumbers).toEqual(['EM-A1', 'EM-A2', 'EM-A3-OLD', 'EM-A3-NEW']);
    expect(body.months.map((month: { month: string }) => month.month)).toEqual([
      '2025-04',
      '2025-05',
      '2025-06',
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
    ]);
    expect(body.months[11]).toEqual({
      month: '2026-03',
      from: '2026-02-28T23:00:00.000Z',
      to: '2026-03-31T22:00:00.000Z',
      peak: {
        kW: 0.6,
        from: '2026-03-26T23:00:00.000Z',
        to: '2026-03-26T23:15:00.000Z',
        localFrom: '2026-03-27T00:00:00+01:00',
        isAtLeast: true,
      },
    });
    expect(body.months[10].peak).toBeNull();
    expect(body.rollingAverage).toEqual({ kW: 2.5, floorKw: 2.5, months: 1, isAtLeast: true });

    // One meter: EM-A2's own quarters, 120 Wh after its multiplier of 40 → 0.48 kW.
    const meter = await t.call('GET', peaksUrl({ name: 'Harbour A', meterInd: '2', Month: '2026-03' }), {
      token: admin,
    });
    expect(meter.json()).toMatchObject({ meterInd: 2, basis: 'meter', meterNumbers: ['EM-A2'] });
    expect(meter.json().months[11].peak).toMatchObject({ kW: 0.48, from: '2026-03-26T23:00:00.000Z' });
  });

  it("answers 404 for another client's location, the same as a missing one; 400 naming a bad Month", async () => {
    const other = await t.call('GET', peaksUrl({ name: 'Harbour B' }), { token: clientA });
    const missing = await t.call('GET', peaksUrl({ name: 'Nowhere' }), { token: clientA });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
    const own = await t.call('GET', peaksUrl({ name: 'Harbour B' }), { token: clientB });
    expect(own.statusCode).toBe(200);
    const noMeter = await t.call('GET', peaksUrl({ name: 'Harbour A', meterInd: '9' }), { token: clientA });
    expect(noMeter.statusCode).toBe(404);
    expect(noMeter.json().param).toBe('meterInd');
    for (const Month of ['2026-13', '2026-3', "2026-03'; --", '1066-10', '9999-12']) {
      const bad = await t.call('GET', peaksUrl({ name: 'Harbour A', Month }), { token: clientA });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain('Month');
    }
  });
});

describe('GET /api/CheckMeter/GetReadingCorrections', () => {
  it('lists what a corrections import replaced: before, after, when and from what; the detail for admins only', async () => {
    const [client] = await t.db.query<{ id: number }>("SELECT id FROM users WHERE email = 'a@test.cm'");
    const yard = await insertLocation(t.db, 'Correction Yard', 'Europe/Berlin');
    await linkUserToLocation(t.db, client?.id ?? 0, yard);
    const meter = await insertMeter(t.db, {
      meterNumber: 'EM-FIX',
      locationId: yard,
      meterInd: 1,
      installedAt: new Date('2026-01-01T00:00:00Z'),
    });
    await insertReadings(t.db, meter, [
      [Date.parse('2026-02-10T10:00:00Z'), 100_000],
      [Date.parse('2026-02-10T11:00:00Z'), 101_000],
      [Date.parse('2026-02-10T12:00:00Z'), 102_000],
    ]);
    const file = 'meter_number,timestamp,register_kwh,quality\nEM-FIX,2026-02-10T11:00:00Z,101.5,estimated\n';
    const imported = await t.call('POST', '/api/admin/imports?corrections=true', {
      token: admin,
      body: file,
      headers: { 'content-type': 'text/csv' },
    });
    expect(imported.json()).toMatchObject({ committed: true, corrected: 1 });
    const url = '/api/CheckMeter/GetReadingCorrections?meterNumber=EM-FIX&From=2026-02-10&To=2026-02-10';
    const asClient = await t.call('GET', url, { token: clientA });
    expect(asClient.statusCode).toBe(200);
    const answer = asClient.json();
    expect(answer).toMatchObject({
      meterNumber: 'EM-FIX',
      channel: 'import',
      from: '2026-02-09T23:00:00.000Z',
      to: '2026-02-10T23:00:00.000Z',
      total: 1,
    });
    expect(answer.corrections).toEqual([
      {
        kind: 'register',
        at: '2026-02-10T11:00:00.000Z',
        end: null,
        before: { value: 101, quality: 'actual' },
        after: { value: 101.5, quality: 'estimated' },
        correctedAt: expect.any(String),
        source: 'import',
      },
    ]);
    const asAdmin = (await t.call('GET', url, { token: admin })).json();
    expect(asAdmin.corrections[0].detail).toMatch(/^import \(csv\) by user \d+$/);
    // The day before holds no correction; the range is the location's days.
    const before = await t.call('GET', url.replace(/2026-02-10/g, '2026-02-09'), { token: clientA });
    expect(before.json()).toMatchObject({ total: 0, corrections: [] });
    // Client B sees neither the meter nor its history.
    expect((await t.call('GET', url, { token: clientB })).statusCode).toBe(404);
  });
  it('counts and lists as conflicts, and corrects, only intervals that were stored before', async () => {
    const site = await insertLocation(t.db, 'Interval Yard', 'Europe/Dublin');
    await insertMeter(t.db, {
      meterNumber: 'EM-IV',
      locationId: site,
      meterInd: 1,
      installedAt: new Date('2026-01-01T00:00:00Z'),
    });
    const esb = (...lines: string[]) =>
      ['MPRN,Meter Serial Number,Read Value,Read Type,Read Date and End Time', ...lines].join('\n');
    const line = (kwh: string, end: string) => `X,X,${kwh},Active Import Interval (kWh),10-02-2026 ${end}`;
    const send = async (body: string, query = '') =>
      (
        await t.call('POST', `/api/admin/imports?meterNumber=EM-IV${query}`, {
          token: admin,
          body,
          headers: { 'content-type': 'text/csv' },
        })
      ).json();
    expect(await send(esb(line('0.1', '01:00'), line('0.2', '01:30')))).toMatchObject({
      inserted: 2,
      conflictCount: 0,
      conflicts: [],
    });
    // One stored interval sent with another value, one new interval: one conflict, listed once.
    const conflicting = await send(esb(line('0.25', '01:30'), line('0.3', '02:00')));
    expect(conflicting).toMatchObject({ inserted: 1, conflictCount: 1 });
    expect(conflicting.conflicts).toEqual([
      { line: 2, meterNumber: 'EM-IV', at: '2026-02-10T01:00:00.000Z', stored: 0.2, incoming: 0.25 },
    ]);
    // As a correction, with a new interval beside it: one correction in the history, not two.
    expect(await send(esb(line('0.25', '01:30'), line('0.4', '02:30')), '&corrections=true')).toMatchObject({
      inserted: 1,
      corrected: 1,
    });
    const url = '/api/CheckMeter/GetReadingCorrections?meterNumber=EM-IV&From=2026-02-10&To=2026-02-10';
    const history = (await t.call('GET', url, { token: admin })).json();
    expect(history.total).toBe(1);
    expect(history.corrections).toMatchObject([
      { kind: 'interval', at: '2026-02-10T01:00:00.000Z', before: { value: 0.2 }, after: { value: 0.25 } },
    ]);
  });
});

describe('performance layers off (CM_DEBUG_DISABLE)', () => {
  it('answers byte for byte the same without chunks, the byte writer or the compiled serializer', async () => {
    const config = loadConfig({
      CM_MAX_EVENT_LOOP_DELAY_MS: '0',
      LOG_LEVEL: 'silent',
      CM_WEB_DIST: '/nonexistent',
      CM_DATA_DIR: os.tmpdir(),
      CM_DEBUG_DISABLE: 'chunks, json-writer, schema-json',
    });
    expect([...config.disabledLayers]).toEqual(['chunks', 'json-writer', 'schema-json']);
    const plain = await buildApp({
      config,
      db: t.db,
      webApiKey: t.apiKey,
      jwtSecret: TEST_SECRET,
      secrets: TEST_SECRETS,
    });
    try {
      const urls = [
        '/api/CheckMeter/GetMeterInfo?meterNumber=EM-A2',
        readingsUrl({ name: 'Harbour A', From: '2026-03-27', To: '2026-03-30', granularity: 'raw' }),
        readingsUrl({ name: 'Harbour A', From: '2026-03-27', To: '2026-03-30', granularity: 'day' }),
      ];
      for (const url of urls) {
        const headers = { [API_KEY_HEADER]: t.apiKey, authorization: `Bearer ${admin}` };
        const fast = await t.app.inject({ method: 'GET', url, headers });
        const slow = await plain.inject({ method: 'GET', url, headers });
        expect(fast.statusCode, url).toBe(200);
        expect(slow.body, url).toBe(fast.body);
      }
    } finally {
      await plain.close();
    }
    expect(() => loadConfig({ CM_DEBUG_DISABLE: 'chunks,cache' })).toThrow(/unknown layer cache/);
  });
});

describe('long ranges', () => {
  it('reads (and packs into chunks) only the months in which a meter was installed', async () => {
    // Almost thirty years asked for, about a week of meter life: the months before its installation are
    // neither read nor stored as chunks (the first such request once built one chunk per month).
    await t.db.query('DELETE FROM reading_chunks');
    const answer = await t.call(
      'GET',
      readingsUrl({
        name: 'Harbour A',
        From: '1997-03-01',
        To: '2026-03-30',
        granularity: 'month',
        meterInd: '1',
      }),
      { token: admin },
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const chunks = await t.db.query<{ month_start: Date }>(
      'SELECT month_start FROM reading_chunks ORDER BY 1',
    );
    expect(chunks.map((c) => c.month_start.toISOString())).toEqual(['2026-03-01T00:00:00.000Z']);
  });
});

describe('result size limits', () => {
  it('refuses a raw answer that would carry too many points, and accepts it downsampled', async () => {
    const big = await insertLocation(t.db, 'Big Site', 'Europe/Berlin');
    for (let ind = 1; ind <= 12; ind += 1) {
      await insertMeter(t.db, {
        meterNumber: `EM-BIG-${ind}`,
        locationId: big,
        meterInd: ind,
        installedAt: new Date('2025-01-01T00:00:00Z'),
      });
    }
    const one = await t.call(
      'GET',
      readingsUrl({
        name: 'Big Site',
        From: '2025-03-01',
        To: '2026-03-28',
        granularity: 'raw',
        meterInd: '1',
      }),
      { token: admin },
    );
    expect(one.statusCode).toBe(200);
    const many = await t.call(
      'GET',
      readingsUrl({ name: 'Big Site', From: '2025-03-01', To: '2026-03-28', granularity: 'raw' }),
      { token: admin },
    );
    expect(many.statusCode).toBe(400);
    expect(many.json()).toMatchObject({ param: 'granularity' });
    expect(many.json().message).toMatch(/maxPoints/);
    const downsampled = await t.call(
      'GET',
      readingsUrl({
        name: 'Big Site',
        From: '2025-03-01',
        To: '2026-03-28',
        granularity: 'raw',
        maxPoints: '1000',
      }),
      { token: admin },
    );
    expect(downsampled.statusCode).toBe(200);
  });
});
