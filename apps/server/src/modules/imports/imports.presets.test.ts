import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '@cm/contracts/admin.ts';
import { parseDecimalMicro } from '../readings/index.ts';
import { createTestApp, readingsAnswer, type TestApp, signInNewAdmin } from '../../test/test-app.ts';
import { insertLocation, insertMeter } from '../../test/factories.ts';

// The utility layouts of FORMATS.md, imported as they come (detected from their content), with
// every expected figure from fixtures/formats/expected.json (make_fixtures.py, exact decimals).

const FIXTURES = path.resolve(import.meta.dirname, '../../../../../fixtures/formats');
const expected = JSON.parse(readFileSync(path.join(FIXTURES, 'expected.json'), 'utf8')) as Record<
  string,
  { total: string; intervals: number; days: Record<string, string>; estimated?: number; refused?: number }
>;

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signInNewAdmin(t);
});
afterAll(() => t.close());

async function importFixture(name: string, meterNumber: string, timeZone: string, minutes: number) {
  const location = await insertLocation(t.db, `Preset ${name}`, timeZone);
  await insertMeter(t.db, {
    meterNumber,
    locationId: location,
    meterInd: 1,
    intervalMinutes: minutes,
    installedAt: new Date('2020-01-01T00:00:00Z'),
  });
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/admin/imports?meterNumber=${meterNumber}`,
    headers: { 'x-api-key': t.apiKey, authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
    payload: readFileSync(path.join(FIXTURES, name)),
  });
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return response.json<ImportReport>();
}

async function daysOf(site: string, days: string[]) {
  const query = new URLSearchParams({
    name: site,
    From: days[0] ?? '',
    To: days.at(-1) ?? '',
    granularity: 'day',
  });
  const response = await t.call(
    'GET',
    `/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?${query}`,
    {
      token: admin,
    },
  );
  return readingsAnswer(response).meters[0];
}

const micro = (value: number | string | null | undefined) =>
  value === null || value === undefined
    ? null
    : typeof value === 'number'
      ? Math.round(value * 1e6)
      : parseDecimalMicro(value);

describe('utility layouts imported as they come', () => {
  it('Green Button CSV: metadata block, last-minute ends, the repeated hour, gas rows refused, estimated reads', async () => {
    const want = expected['green-button-csv'];
    if (!want) throw new Error('no expectation');
    const report = await importFixture('green-button-csv.csv', 'GB-CSV-1', 'America/Los_Angeles', 60);
    expect(report).toMatchObject({
      format: 'delimited',
      committed: true,
      inserted: want.intervals,
      rejectedCount: 1,
    });
    expect(report.rejected[0]?.reason).toBe('"Natural gas usage" is not a reading this import takes.');
    const days = Object.keys(want.days);
    const meter = await daysOf('Preset green-button-csv.csv', days);
    expect(micro(meter?.totals.consumption)).toBe(micro(want.total));
    expect(
      meter?.series.t.map((ms, i) => [
        new Date(ms).toLocaleDateString('en-CA', { timeZone: 'America/Los_Angeles' }),
        micro(meter.series.consumption[i]),
        meter.series.hours?.[i],
      ]),
    ).toEqual(days.map((day) => [day, micro(want.days[day]), day === '2023-11-05' ? 25 : 24]));
    expect(meter?.series.estimated.reduce((sum, n) => sum + n, 0)).toBe(want.estimated);
  });

  it('Octopus Energy CSV: spaces after commas, ISO times with the UK offset across the autumn change', async () => {
    const want = expected.octopus;
    if (!want) throw new Error('no expectation');
    const report = await importFixture('octopus.csv', 'OCTO-1', 'Europe/London', 30);
    expect(report).toMatchObject({
      format: 'delimited',
      committed: true,
      inserted: want.intervals,
      rejectedCount: 0,
    });
    const days = Object.keys(want.days);
    const meter = await daysOf('Preset octopus.csv', days);
    expect(micro(meter?.totals.consumption)).toBe(micro(want.total));
    expect(meter?.series.consumption.map(micro)).toEqual(days.map((day) => micro(want.days[day])));
    expect(meter?.series.missing).toEqual(days.map(() => 0));
  });
});
