import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_HEADER, Role } from '@cm/contracts/enums.ts';
import type { PriceSeries, SeriesDay } from '@cm/contracts/market-series.ts';
import { createApiKey } from '../api-keys/api-keys.service.ts';
import { createTestApp, insertUser, readingsAnswer, type TestApp } from '../../test/test-app.ts';
import { insertIntervals, insertLocation, insertMeter, linkUserToLocation } from '../../test/factories.ts';

// Price series over the API (issue 36): a day-ahead file over the spring change, refused whole
// when a line is bad, days pushed by a feed, and a tariff priced from the series. Figures are
// worked out by hand in the comments.

let t: TestApp;
let admin: string;
let client: string;
let ingestKey: string;
let location: number;
const HALF = 30 * 60_000;
// Local 2026-03-29 in Amsterdam: 23:00Z (28th) to 22:00Z, 23 hours, 46 half hours.
const DAY_START = Date.parse('2026-03-28T23:00:00Z');
const DAY_END = Date.parse('2026-03-29T22:00:00Z');

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  const a = await insertUser(t.db, { email: 'a@test.cm', password: 'Client!passA' });
  location = await insertLocation(t.db, 'Canal House', 'Europe/Amsterdam');
  await linkUserToLocation(t.db, a, location);
  const meter = await insertMeter(t.db, {
    meterNumber: 'DYN-1',
    locationId: location,
    meterInd: 1,
    installedAt: new Date('2026-03-01T00:00:00Z'),
  });
  const records: [number, number, number][] = [];
  for (let at = DAY_START; at < DAY_END; at += HALF) records.push([at, at + HALF, 500_000]);
  await insertIntervals(t.db, meter, records);
  admin = (await t.login('admin@test.cm', 'Admin!pass1')).token;
  client = (await t.login('a@test.cm', 'Client!passA')).token;
  ingestKey = (await createApiKey(t.db, 'Day-ahead feed', ['ingest'])).key;
});
afterAll(() => t.close());

async function createSeries(name: string): Promise<PriceSeries> {
  const response = await t.call('POST', '/api/admin/price-series', {
    token: admin,
    body: {
      name,
      intervalMinutes: 30,
      unit: 'MWh',
      currency: 'EUR',
      timeZone: 'Europe/Amsterdam',
      zone: 'NL',
    },
  });
  expect(response.statusCode).toBe(201);
  return response.json<PriceSeries>();
}

const upload = (id: number, text: string, token = admin) =>
  t.call('POST', `/api/admin/price-series/${id}/csv`, {
    token,
    body: text,
    headers: { 'content-type': 'text/csv' },
  });

/** Every half hour of local 2026-03-29 (02:00 and 02:30 do not exist) at 100,00 EUR/MWh, but 03:00. */
function dayAheadFile(): string {
  const lines = ['Start;Price EUR/MWh'];
  for (let minute = 0; minute < 1440; minute += 30) {
    const hh = String(Math.floor(minute / 60)).padStart(2, '0');
    const mm = String(minute % 60).padStart(2, '0');
    if (hh === '02' || `${hh}:${mm}` === '03:00') continue;
    lines.push(`2026-03-29 ${hh}:${mm};100,00`);
  }
  return lines.join('\r\n');
}

describe('price series', () => {
  it('refuses a file with a bad line whole, naming the line, and stores nothing', async () => {
    const series = await createSeries('NL day-ahead (bad file)');
    const response = await upload(
      series.id,
      'start;price\n2026-03-29 00:00;100\n2026-03-29 02:00;90\n2026-03-29 03:00;x\n',
    );
    expect(response.statusCode).toBe(422);
    expect(response.json<{ message: string }>().message).toBe(
      'Nothing was stored: Line 3: 2026-03-29 02:00 does not exist in Europe/Amsterdam (the clocks skipped it).; ' +
        'Line 4: the price "x" is not a number such as 85.37 or 85,37.',
    );
    const after = await t.call('GET', `/api/admin/price-series/${series.id}`, { token: admin });
    expect(after.json<PriceSeries>().coverage).toEqual({ first: null, last: null, count: 0, missing: 0 });
  });

  it('stores a day-ahead file over the spring change and prices a dynamic tariff with it', async () => {
    const series = await createSeries('NL day-ahead');
    const stored = await upload(series.id, dayAheadFile());
    expect(stored.statusCode).toBe(200);
    // 48 half hours less the two the clocks skip and the one left out.
    expect(stored.json()).toEqual({
      stored: 45,
      first: '2026-03-28T23:00:00.000Z',
      last: '2026-03-29T22:00:00.000Z',
    });
    const coverage = (
      await t.call('GET', `/api/admin/price-series/${series.id}`, { token: admin })
    ).json<PriceSeries>();
    expect(coverage.coverage).toEqual({
      first: '2026-03-28T23:00:00.000Z',
      last: '2026-03-29T22:00:00.000Z',
      count: 45,
      missing: 1,
    });
    const day = (
      await t.call('GET', `/api/admin/price-series/${series.id}/days/2026-03-29`, { token: admin })
    ).json<SeriesDay>();
    expect(day.values).toHaveLength(46);
    // 00:00 00:30 01:00 01:30 then 03:00 (the fifth) is the missing one.
    expect(day.values.slice(0, 6)).toEqual(['100', '100', '100', '100', null, '100']);

    const tariff = await t.call('POST', `/api/admin/locations/${location}/tariffs`, {
      token: admin,
      body: {
        effectiveFrom: '2026-03-01',
        currency: 'EUR',
        energyPrice: '0.30',
        standingChargePerDay: '0',
        taxPercent: '0',
        importSeries: { seriesId: series.id, margin: '0.02', taxPercent: '21' },
      },
    });
    expect(tariff.statusCode).toBe(201);
    expect(tariff.json<{ importSeries: unknown }>().importSeries).toEqual({
      seriesId: series.id,
      margin: '0.02',
      taxPercent: '21',
    });

    // (0.100 + 0.02) × 1.21 = 0.1452 per kWh; 45 priced half hours of 0.5 kWh = 45 × 0.0726 = 3.267;
    // the 03:00 half hour's 0.5 kWh is unpriced.
    const dayUrl =
      '/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=Canal%20House&From=2026-03-29&To=2026-03-29&granularity=hour';
    const readings = await t.call('GET', dayUrl, { token: client });
    expect(readings.statusCode).toBe(200);
    const [meter] = readingsAnswer(readings).meters;
    // Hours 00:00, 01:00, then 03:00 (with the unpriced half hour: no cost), 04:00.
    expect(meter?.series.cost?.slice(0, 4)).toEqual([0.1452, 0.1452, null, 0.1452]);
    expect(meter?.series.cost).toHaveLength(23);
    expect(meter?.bill).toMatchObject({
      currency: 'EUR',
      energy: 3.267,
      total: 3.267,
      unpricedConsumption: 0.5,
    });

    // The day is past: its priced walk is remembered (readings engine, remembered-walks.ts). A
    // write to its readings is priced at once all the same: 00:00's half hour 0.5 → 1.5 kWh adds
    // 1 kWh at 0.1452 (3.267 + 0.1452 = 3.4122; the first hour 0.1452 → 0.2904).
    await t.db.query(
      `UPDATE interval_readings SET energy_micro = 1500000 WHERE meter_id = (SELECT device_id FROM meters WHERE meter_number = 'DYN-1') AND start_at = $1`,
      [new Date(DAY_START)],
    );
    const corrected = await t.call('GET', dayUrl, { token: client });
    const [after] = readingsAnswer(corrected).meters;
    expect(after?.series.cost?.slice(0, 2)).toEqual([0.2904, 0.1452]);
    expect(after?.bill).toMatchObject({ energy: 3.4122, total: 3.4122, unpricedConsumption: 0.5 });
  });

  it('refuses a tariff on a series that does not exist', async () => {
    const response = await t.call('POST', `/api/admin/locations/${location}/tariffs`, {
      token: admin,
      body: {
        effectiveFrom: '2030-01-01',
        currency: 'EUR',
        energyPrice: '0.30',
        standingChargePerDay: '0',
        taxPercent: '0',
        importSeries: { seriesId: 999_999 },
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toBe(
      'importSeries.seriesId: there is no price series 999999.',
    );
  });

  it('takes a day pushed by a feed with the day’s number of intervals', async () => {
    const series = await createSeries('NL feed');
    const put = (
      date: string,
      values: (string | null)[],
      headers: Record<string, string> = { [API_KEY_HEADER]: ingestKey },
    ) => t.call('PUT', `/api/ingest/price-series/${series.id}/days/${date}`, { body: { values }, headers });
    const wrong = await put('2026-03-29', new Array<string>(48).fill('50'));
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json<{ message: string }>().message).toBe(
      'values: 2026-03-29 has 46 intervals of 30 minutes in Europe/Amsterdam (the clocks change that day); 48 were given.',
    );
    const values = new Array<string | null>(48).fill('50.5');
    values[47] = null;
    const ok = await put('2026-03-30', values);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({
      stored: 47,
      first: '2026-03-29T22:00:00.000Z',
      last: '2026-03-30T21:30:00.000Z',
    });
    // Pushing the day again replaces it: now only the first half hour.
    const again = await put('2026-03-30', ['1', ...new Array<null>(47).fill(null)]);
    expect(again.json<{ stored: number }>().stored).toBe(1);
    const day = (
      await t.call('GET', `/api/admin/price-series/${series.id}/days/2026-03-30`, { token: admin })
    ).json<SeriesDay>();
    expect(day.values.filter((value) => value !== null)).toEqual(['1']);
    // The web app's key with a client's token may not; nor through the administration route.
    expect((await put('2026-03-30', values, { authorization: `Bearer ${client}` })).statusCode).toBe(403);
    const asClient = await t.call('PUT', `/api/admin/price-series/${series.id}/days/2026-03-30`, {
      token: client,
      body: { values },
    });
    expect(asClient.statusCode).toBe(403);
  });
});
