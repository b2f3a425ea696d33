import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@cm/contracts/enums.ts';
import type { LocationTariffs, Tariff } from '@cm/contracts/tariffs.ts';
import { createTestApp, insertUser, readingsAnswer, type TestApp } from '../../test/test-app.ts';
import { insertIntervals, insertLocation, insertMeter, linkUserToLocation } from '../../test/factories.ts';

// Tariffs over the API (issue 18): versions that never rewrite the past, prices kept exact, and
// the cost they give the readings answer. Figures are counted by hand in the comments.

let t: TestApp;
let admin: string;
let client: string;
let other: string;
let north: number;
const QUARTER = 15 * 60_000;

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  const a = await insertUser(t.db, { email: 'a@test.cm', password: 'Client!passA' });
  await insertUser(t.db, { email: 'b@test.cm', password: 'Client!passB' });
  north = await insertLocation(t.db, 'North Pier');
  await linkUserToLocation(t.db, a, north);
  const meter = await insertMeter(t.db, {
    meterNumber: 'EM-1',
    locationId: north,
    meterInd: 1,
    installedAt: new Date('2026-01-01T00:00:00Z'),
  });
  // 2026-03-01 … 03-04 in Berlin (UTC+1): quarter hours of 0.25 kWh.
  const records: [number, number, number][] = [];
  for (let at = Date.parse('2026-02-28T23:00:00Z'); at < Date.parse('2026-03-04T23:00:00Z'); at += QUARTER)
    records.push([at, at + QUARTER, 250_000]);
  await insertIntervals(t.db, meter, records);
  admin = (await t.login('admin@test.cm', 'Admin!pass1')).token;
  client = (await t.login('a@test.cm', 'Client!passA')).token;
  other = (await t.login('b@test.cm', 'Client!passB')).token;
});
afterAll(() => t.close());

const add = (body: Record<string, unknown>) =>
  t.call('POST', `/api/admin/locations/${north}/tariffs`, { token: admin, body });

const base = {
  currency: 'EUR',
  energyPrice: '0.3',
  standingChargePerDay: '0.5',
  taxPercent: '20',
};

describe('tariff versions', () => {
  it('refuses what is not a price, a window that overlaps another, or a date that does not exist', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { ...base, effectiveFrom: '2026-01-01', energyPrice: 0.3 },
        'energyPrice: must be a decimal number written as text',
      ],
      [{ ...base, effectiveFrom: '2026-01-01', energyPrice: '0.1234567' }, 'at most 6 decimals'],
      [
        { ...base, effectiveFrom: '2026-02-30' },
        'effectiveFrom: must be a date that exists, from 1900 to 2200',
      ],
      [{ ...base, effectiveFrom: '2026-01-01', currency: 'euro' }, 'currency: must be an ISO 4217 code'],
      [
        {
          ...base,
          effectiveFrom: '2026-01-01',
          windows: [
            { label: 'night', price: '0.1', days: ['mon'], from: '22:00', to: '06:00' },
            { label: 'early', price: '0.2', days: ['mon'], from: '05:00', to: '07:00' },
          ],
        },
        'windows: window 1 and window 2 overlap on the same days',
      ],
      [
        {
          ...base,
          effectiveFrom: '2026-01-01',
          windows: [{ label: '', price: '0.1', days: ['mon'], from: '7:00', to: '08:00' }],
        },
        'windows.0.from: must be a time such as 07:30',
      ],
    ];
    for (const [body, message] of cases) {
      const response = await add(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ message: string }>().message).toContain(message);
    }
    const list = await t.call('GET', `/api/admin/locations/${north}/tariffs`, { token: admin });
    expect(list.json<LocationTariffs>().items).toEqual([]);
  });

  it('keeps prices exact and lets the first version price the past, later ones only the future', async () => {
    const first = await add({
      ...base,
      effectiveFrom: '2026-01-01',
      energyPrice: '0.300000',
      windows: [
        {
          label: 'night',
          price: '0.123456',
          days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
          from: '00:00',
          to: '07:00',
        },
      ],
    });
    expect(first.statusCode).toBe(201);
    expect(first.json<Tariff>()).toMatchObject({
      energyPrice: '0.3',
      windows: [{ price: '0.123456' }],
      taxPercent: '20',
    });
    const past = await add({ ...base, effectiveFrom: '2026-03-03' });
    expect(past.statusCode).toBe(400);
    expect(past.json<{ message: string }>().message).toMatch(
      /starts today \(\d{4}-\d{2}-\d{2} at this location\) or later/,
    );
    const otherCurrency = await add({ ...base, effectiveFrom: '2099-01-01', currency: 'GBP' });
    expect(otherCurrency.json<{ message: string }>().message).toContain("this location's tariffs are in EUR");
    const scheduled = await add({ ...base, effectiveFrom: '2099-01-01', energyPrice: '0.35' });
    expect(scheduled.statusCode).toBe(201);
    expect((await add({ ...base, effectiveFrom: '2099-01-01' })).statusCode).toBe(409);
    // A scheduled version may be withdrawn; one in force stays.
    const inForce = await t.call(
      'DELETE',
      `/api/admin/locations/${north}/tariffs/${first.json<Tariff>().id}`,
      { token: admin },
    );
    expect(inForce.statusCode).toBe(409);
    expect(inForce.json<{ message: string }>().message).toContain('it priced the past and stays');
    const withdrawn = await t.call(
      'DELETE',
      `/api/admin/locations/${north}/tariffs/${scheduled.json<Tariff>().id}`,
      { token: admin },
    );
    expect(withdrawn.statusCode).toBe(204);
  });

  it("shows a client its own location's tariffs and not another's", async () => {
    const own = await t.call('GET', '/api/CheckMeter/GetTariffs?name=North%20Pier', { token: client });
    expect(own.statusCode).toBe(200);
    expect(own.json<LocationTariffs>().items.map((item) => item.effectiveFrom)).toEqual(['2026-01-01']);
    const notOwn = await t.call('GET', '/api/CheckMeter/GetTariffs?name=North%20Pier', { token: other });
    expect(notOwn.statusCode).toBe(404);
    expect(
      (await t.call('POST', `/api/admin/locations/${north}/tariffs`, { token: client, body: base }))
        .statusCode,
    ).toBe(403);
  });

  it('prices the readings answer: cost per bucket and the bill', async () => {
    // Days 2026-03-01 … 03-04, 96 quarters of 0.25 kWh each (24 kWh a day). Night 00:00–07:00
    // (28 quarters, 7 kWh) at 0.123456 = 0.864192; day (68 quarters, 17 kWh) at 0.30 = 5.10.
    // A day: 5.964192. Four days: 23.856768 energy, 2.00 standing, 20 % tax = 5.1713536.
    const response = await t.call(
      'GET',
      '/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=North%20Pier&From=2026-03-01&To=2026-03-04&granularity=day',
      { token: client },
    );
    expect(response.statusCode).toBe(200);
    const [meter] = readingsAnswer(response).meters;
    expect(meter?.series.cost).toEqual([5.964192, 5.964192, 5.964192, 5.964192]);
    expect(meter?.bill).toEqual({
      currency: 'EUR',
      energy: 23.856768,
      standingCharge: 2,
      demandCharge: 0,
      capacityCharge: 0,
      tax: 5.171354,
      feedIn: 0,
      total: 31.028122,
      estimated: 0,
      unpricedConsumption: 0,
      standingDays: 4,
      projection: null,
      demand: null,
    });
    expect(readingsAnswer(response).location.billingDay).toBeNull();
  });

  it('refuses a ProjectTo before To, naming it (issue 34)', async () => {
    const response = await t.call(
      'GET',
      '/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=North%20Pier&From=2026-03-01&To=2026-03-04&ProjectTo=2026-03-03&granularity=day',
      { token: client },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      param: 'ProjectTo',
      message: 'ProjectTo must not be before To.',
    });
  });

  it('sets a billing day on the location, 1 to 28', async () => {
    const bad = await t.call('PATCH', `/api/admin/locations/${north}`, {
      token: admin,
      body: { billingDay: 31 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain(
      'billingDay: must be a whole number from 1 to 28',
    );
    const set = await t.call('PATCH', `/api/admin/locations/${north}`, {
      token: admin,
      body: { billingDay: 17 },
    });
    expect(set.json<{ billingDay: number }>().billingDay).toBe(17);
    const info = await t.call('GET', '/api/CheckMeter/GetMeterInfo?meterNumber=EM-1', { token: client });
    expect(info.json<{ location: { billingDay: number } }>().location.billingDay).toBe(17);
    const cleared = await t.call('PATCH', `/api/admin/locations/${north}`, {
      token: admin,
      body: { billingDay: null },
    });
    expect(cleared.json<{ billingDay: number | null }>().billingDay).toBeNull();
  });
});

describe('demand and capacity charges (issue 36)', () => {
  let south: number;
  const demand = {
    intervalMinutes: 15,
    pricePerKw: '10',
    ratchetPercent: '50',
    capacityPricePerKwYear: '36.5',
  };

  beforeAll(async () => {
    south = await insertLocation(t.db, 'South Quay');
    const a =
      (await t.db.query<{ id: number }>("SELECT id FROM users WHERE email = 'a@test.cm'"))[0]?.id ?? 0;
    await linkUserToLocation(t.db, a, south);
    const meter = await insertMeter(t.db, {
      meterNumber: 'EM-S1',
      locationId: south,
      meterInd: 1,
      installedAt: new Date('2025-12-01T00:00:00Z'),
    });
    // Berlin, 1 January → 4 March 2026 (local): quarter hours of 0.25 kWh (1 kW), but 1.0 kWh (4 kW)
    // at 12:00 on 10 February and 0.75 kWh (3 kW) at 18:00 on 2 March.
    const special = new Map([
      [Date.parse('2026-02-10T11:00:00Z'), 1_000_000],
      [Date.parse('2026-03-02T17:00:00Z'), 750_000],
    ]);
    const records: [number, number, number][] = [];
    for (let at = Date.parse('2025-12-31T23:00:00Z'); at < Date.parse('2026-03-04T23:00:00Z'); at += QUARTER)
      records.push([at, at + QUARTER, special.get(at) ?? 250_000]);
    await insertIntervals(t.db, meter, records);
  });

  it('refuses demand settings that miss their price or are out of range, naming the setting', async () => {
    const at = { ...base, effectiveFrom: '2026-01-01' };
    const cases: [Record<string, unknown>, string][] = [
      [
        { ...at, demand: { intervalMinutes: 20, pricePerKw: '10' } },
        'demand.intervalMinutes: must be 15, 30 or 60.',
      ],
      [
        { ...at, demand: { ratchetPercent: '80' } },
        'demand needs a pricePerKw, a capacityPricePerKwYear or both',
      ],
      [
        { ...at, demand: { capacityPricePerKwYear: '40', ratchetPercent: '80' } },
        'demand.ratchetPercent: raises the charged demand: it needs a pricePerKw.',
      ],
      [
        { ...at, demand: { pricePerKw: '10', ratchetPercent: '120' } },
        'demand.ratchetPercent: must be at most 100.',
      ],
      [
        { ...at, demand: { pricePerKw: '10', window: { days: ['mon'], from: '25:00', to: '19:00' } } },
        'demand.window.from: must be a time such as 07:30',
      ],
    ];
    for (const [body, message] of cases) {
      const response = await t.call('POST', `/api/admin/locations/${south}/tariffs`, { token: admin, body });
      expect(response.statusCode, message).toBe(400);
      expect(response.json<{ message: string }>().message).toContain(message);
    }
  });

  it('charges the demand with its ratchet and the capacity pro rata, exactly, in the bill', async () => {
    const created = await t.call('POST', `/api/admin/locations/${south}/tariffs`, {
      token: admin,
      body: {
        currency: 'EUR',
        energyPrice: '0.3',
        standingChargePerDay: '0',
        taxPercent: '0',
        effectiveFrom: '2025-01-01',
        demand,
      },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json<Tariff>().demand).toEqual({ ...demand, window: null, capacityFloorKw: '2.5' });
    // 1–4 March, 4 of March's 31 days.
    // Energy: 4 × 96 quarters × 0.25 kWh + 0.5 kWh more at 18:00 on the 2nd = 96.5 kWh × 0.3 = 28.95.
    // Demand: March's peak so far 0.75 kWh ÷ 0.25 h = 3 kW; ratchet 50 % × 4 kW (February, of the 11
    // months before March) = 2 kW, below: 3 kW charged. 3 × 10 × 4 ÷ 31 = 3.870968 EUR.
    // Capacity: months with a peak January 1 kW (counted 2.5), February 4, March 3: (2.5 + 4 + 3) ÷ 3
    // = 3.166667 kW. 3.166667 × 36.5 × 4 ÷ 365 = 1.266667 EUR.
    // Total 28.95 + 3.8709677 + 1.2666668 = 34.087635 EUR.
    const response = await t.call(
      'GET',
      '/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=South%20Quay&From=2026-03-01&To=2026-03-04&granularity=day',
      { token: client },
    );
    expect(response.statusCode).toBe(200);
    const [meter] = readingsAnswer(response).meters;
    expect(meter?.bill).toMatchObject({
      energy: 28.95,
      demandCharge: 3.870968,
      capacityCharge: 1.266667,
      tax: 0,
      total: 34.087635,
      demand: {
        intervalMinutes: 15,
        peak: { kW: 3, localFrom: '2026-03-02T18:00:00+01:00', isAtLeast: false },
        chargedKw: 3,
        ratchetKw: 2,
        capacityKw: 3.166667,
        isAtLeast: false,
      },
    });
  });

  it('charges again from the months before the range once their readings change', async () => {
    const url =
      '/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=South%20Quay&From=2026-03-01&To=2026-03-04&granularity=day';
    const billOf = async () => {
      const response = await t.call('GET', url, { token: client });
      expect(response.statusCode).toBe(200);
      return readingsAnswer(response).meters[0]?.bill;
    };
    expect(await billOf()).toMatchObject({ demand: { ratchetKw: 2, capacityKw: 3.166667 } });
    // A corrected February quarter hour of 2 kWh (8 kW): the ratchet is 50 % × 8 = 4 kW, above
    // March's 3 kW peak, charged 4 × 10 × 4 ÷ 31 = 5.161290 EUR; capacity (2.5 + 8 + 3) ÷ 3 = 4.5
    // kW, 4.5 × 36.5 × 4 ÷ 365 = 1.8 EUR.
    await t.db.query(
      `UPDATE interval_readings SET energy_micro = 2000000
       WHERE meter_id = (SELECT device_id FROM meters WHERE meter_number = 'EM-S1')
         AND start_at = '2026-02-20T11:00:00Z'`,
    );
    expect(await billOf()).toMatchObject({
      demandCharge: 5.16129,
      capacityCharge: 1.8,
      demand: { chargedKw: 4, ratchetKw: 4, capacityKw: 4.5 },
    });
  });
});
