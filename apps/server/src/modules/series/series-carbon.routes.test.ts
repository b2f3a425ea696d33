import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@cm/contracts/enums.ts';
import type { CarbonSeries, CleanestHours } from '@cm/contracts/market-series.ts';
import { createTestApp, insertUser, readingsAnswer, type TestApp } from '../../test/test-app.ts';
import { insertIntervals, insertLocation, insertMeter, linkUserToLocation } from '../../test/factories.ts';

// Carbon over the API (issue 36), figures worked by hand. Eight half hours from local midnight of
// 2026-01-05 in Amsterdam (UTC+1, so from 23:00Z on the 4th): intensities 300, 200, —, 100, 400,
// 250, 150, 350 g/kWh; imported 1, 2, 1, 0.5, 1, 1, 3, 1 kWh.
//   Emissions: 300 + 400 + 50 + 400 + 250 + 450 + 350 = 2200 g = 2.2 kg; 1 kWh unknown.
//   Average: 2200 g / 9.5 kWh = 231.5789… → 231.579 g/kWh.
//   Cleanest quarter: 7 intervals with an intensity, ⌈7/4⌉ = 2 (100 and 150 g): 3.5 of 9.5 kWh =
//   0.368421.

let t: TestApp;
let admin: string;
let client: string;
let location: number;
const HALF = 30 * 60_000;
const FROM = Date.parse('2026-01-04T23:00:00Z');
const INTENSITY = ['300', '200', null, '100', '400', '250', '150', '350'];
const ENERGY = [1, 2, 1, 0.5, 1, 1, 3, 1];

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  const a = await insertUser(t.db, { email: 'a@test.cm', password: 'Client!passA' });
  await insertUser(t.db, { email: 'b@test.cm', password: 'Client!passB' });
  location = await insertLocation(t.db, 'Dyke Farm', 'Europe/Amsterdam');
  await linkUserToLocation(t.db, a, location);
  const meter = await insertMeter(t.db, {
    meterNumber: 'CO2-1',
    locationId: location,
    meterInd: 1,
    installedAt: new Date('2026-01-01T00:00:00Z'),
  });
  await insertIntervals(
    t.db,
    meter,
    ENERGY.map((kwh, k) => [FROM + k * HALF, FROM + (k + 1) * HALF, kwh * 1_000_000] as const),
  );
  admin = (await t.login('admin@test.cm', 'Admin!pass1')).token;
  client = (await t.login('a@test.cm', 'Client!passA')).token;
});
afterAll(() => t.close());

describe('carbon series', () => {
  it('imports intensities, is assigned to a location and gives its meters emissions', async () => {
    const created = await t.call('POST', '/api/admin/carbon-series', {
      token: admin,
      body: { name: 'NL grid', intervalMinutes: 30, timeZone: 'Europe/Amsterdam', region: 'NL' },
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json<CarbonSeries>();
    // ISO instants with their offset; the third half hour is left out (unknown).
    const file = [
      'start,intensity',
      ...INTENSITY.flatMap((g, k) =>
        g === null ? [] : [`${new Date(FROM + k * HALF).toISOString().replace('.000Z', 'Z')},${g}`],
      ),
    ].join('\n');
    const bad = await t.call('POST', `/api/admin/carbon-series/${id}/csv`, {
      token: admin,
      body: `${file}\n2026-01-05T04:00:00Z,-3\n`,
      headers: { 'content-type': 'text/csv' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ message: string }>().message).toBe(
      'Nothing was stored: Line 9: the intensity -3 is out of range (0 to 10000).',
    );
    const stored = await t.call('POST', `/api/admin/carbon-series/${id}/csv`, {
      token: admin,
      body: file,
      headers: { 'content-type': 'text/csv' },
    });
    expect(stored.json<{ stored: number }>().stored).toBe(7);
    const series = (
      await t.call('GET', `/api/admin/carbon-series/${id}`, { token: admin })
    ).json<CarbonSeries>();
    expect(series.coverage).toEqual({
      first: '2026-01-04T23:00:00.000Z',
      last: '2026-01-05T03:00:00.000Z',
      count: 7,
      missing: 1,
    });

    const assigned = await t.call('PUT', `/api/admin/locations/${location}/carbon-series`, {
      token: admin,
      body: { seriesId: id },
    });
    expect(assigned.json()).toEqual({ seriesId: id });

    const response = await t.call(
      'GET',
      '/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=Dyke%20Farm&From=2026-01-05&To=2026-01-05&granularity=hour',
      { token: client },
    );
    expect(response.statusCode).toBe(200);
    const [meter] = readingsAnswer(response).meters;
    expect(meter?.carbon).toEqual({
      region: 'NL',
      emissions: 2.2,
      unknownConsumption: 1,
      unknownIntervals: 1,
      // Known: every half hour but the third, 9.5 kWh; the cleanest ⌈7/4⌉ = 2 are 100 g (0.5 kWh)
      // and 150 g (3 kWh): 3.5 kWh of the 9.5 (7/19).
      knownConsumption: 9.5,
      averageIntensity: 231.579,
      cleanestConsumption: 3.5,
      rangedConsumption: 9.5,
      cleanestQuarterShare: 0.368421,
      avoidedEstimate: null,
      unknownExport: 0,
    });
    // Hours 00:00 (300 + 400 g), 01:00 (with the unknown half hour), 02:00 (400 + 250), 03:00 (450 + 350).
    expect(meter?.series.emissions?.slice(0, 5)).toEqual([0.7, null, 0.65, 0.8, null]);
  });

  it('shows a day’s cleanest quarter to whoever may see the location', async () => {
    const response = await t.call(
      'GET',
      '/api/CheckMeter/GetCleanestHours?name=Dyke%20Farm&date=2026-01-05',
      {
        token: client,
      },
    );
    expect(response.statusCode).toBe(200);
    const day = response.json<CleanestHours>();
    expect(day.t).toHaveLength(48);
    expect(day.intensity.slice(0, 9)).toEqual([300, 200, null, 100, 400, 250, 150, 350, null]);
    // ⌈7/4⌉ = 2: the half hours at 100 and 150 g.
    expect(day.cleanest.slice(0, 8)).toEqual([0, 0, 0, 1, 0, 0, 1, 0]);
    expect(day.cleanest.reduce((sum, flag) => sum + flag, 0)).toBe(2);
    const stranger = await t.login('b@test.cm', 'Client!passB');
    const refused = await t.call('GET', '/api/CheckMeter/GetCleanestHours?name=Dyke%20Farm&date=2026-01-05', {
      token: stranger.token,
    });
    expect(refused.statusCode).toBe(404);
  });
});
