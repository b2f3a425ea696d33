import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '@cm/contracts/admin.ts';
import type { LocationReadings } from '@cm/contracts/check.ts';
import { parseDecimalMicro } from '../readings/index.ts';
import { createTestApp, readingsAnswer, type TestApp, signInNewAdmin } from '../../test/test-app.ts';
import { insertLocation, insertMeter } from '../../test/factories.ts';

// Real public files, copied into fixtures/real with their SOURCE.md. Every expected figure comes
// from fixtures/real/expected/*.json, which compute_expected.py computes from the files alone
// (exact decimals, Python's zoneinfo), never from Check Meter's code. Compared in millionths of a
// kWh — exactly where the file's values have at most six decimals (ESB, Green Button), to within
// half a Wh where they carry more (LCL's float noise such as 5.0250001): per local day the energy,
// the intervals missing and the day's length; per channel the whole file's total.

const FIXTURES = path.resolve(import.meta.dirname, '../../../../../fixtures/real');
const fixture = (...parts: string[]) => path.join(FIXTURES, ...parts);

interface ExpectedDay {
  kWh: string | null;
  present: number;
  missing: number;
  hours: number;
}
interface ExpectedSeries {
  total: string;
  intervals: number;
  days: Record<string, ExpectedDay>;
}
const expected = <T>(name: string): T =>
  JSON.parse(readFileSync(fixture('expected', `${name}.json`), 'utf8')) as T;
const micro = (kwh: string | number | null) =>
  kwh === null ? null : typeof kwh === 'number' ? Math.round(kwh * 1e6) : parseDecimalMicro(kwh);

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signInNewAdmin(t);
});
afterAll(() => t.close());

async function addMeter(
  site: string,
  timeZone: string,
  meterNumber: string,
  intervalMinutes: number,
  installedAt = new Date('2010-01-01T00:00:00Z'),
) {
  const locationId = await insertLocation(t.db, site, timeZone);
  await insertMeter(t.db, {
    meterNumber,
    locationId,
    meterInd: 1,
    intervalMinutes,
    installedAt,
  });
}

/** A fixture file as the request body, unchanged, streamed (the files are large). */
const fileBody = (file: string) => Readable.from(createReadStream(file));

async function upload(body: Readable | Buffer, query: string, contentType: string): Promise<ImportReport> {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/admin/imports?${query}`,
    headers: {
      'x-api-key': t.apiKey,
      authorization: `Bearer ${admin}`,
      ...(contentType ? { 'content-type': contentType } : {}),
    },
    payload: body,
  });
  expect(response.statusCode, response.body.slice(0, 500)).toBe(200);
  return response.json<ImportReport>();
}

async function days(site: string, from: string, to: string): Promise<LocationReadings['meters'][number]> {
  const response = await t.call(
    'GET',
    `/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?${new URLSearchParams({ name: site, From: from, To: to, granularity: 'day' }).toString()}`,
    { token: admin },
  );
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  const meter = readingsAnswer(response).meters[0];
  if (!meter) throw new Error('no meter in the answer');
  return meter;
}

/** kWh equal to the millionth, or (`toWh`) to within half a Wh: "to 0.001 kWh". */
function expectKwh(got: number | null, want: string | null, toWh = false, label = '') {
  const a = micro(got) ?? null;
  const b = micro(want) ?? null;
  if (!toWh || a === null || b === null) expect(a, label).toBe(b);
  else expect(Math.abs(a - b), `${label}: ${got} vs ${want}`).toBeLessThanOrEqual(500);
}

/** The answer's days (local dates in `timeZone`) against the expected ones. */
function expectDays(
  timeZone: string,
  t0: number[],
  columns: { consumption: (number | null)[]; missing: number[] },
  hours: number[] | undefined,
  want: ExpectedSeries,
  toWh = false,
) {
  const dayOf = (ms: number) => new Date(ms).toLocaleDateString('en-CA', { timeZone });
  const got = new Map(
    t0.map((ms, i) => [
      dayOf(ms),
      { kWh: columns.consumption[i] ?? null, missing: columns.missing[i], hours: hours?.[i] },
    ]),
  );
  let checked = 0;
  for (const [day, expectation] of Object.entries(want.days)) {
    const answer = got.get(day);
    expect({ missing: answer?.missing, hours: answer?.hours }, day).toEqual({
      missing: expectation.missing,
      hours: expectation.hours,
    });
    expectKwh(answer?.kWh ?? null, expectation.kWh, toWh, day);
    checked++;
  }
  expect(checked).toBeGreaterThan(0);
}

describe('real data, totals and days exactly as the files say', () => {
  it(
    'ESB Networks HDF (kWh): import and export channels, Irish days, the repeated hour',
    { timeout: 180_000 },
    async () => {
      await addMeter('ESB kWh', 'Europe/Dublin', 'ESB-1', 30);
      const file = fixture('esb-hdf-ireland', 'HDF_kWh_variant_2022-12_to_2024-10.csv');
      // As ESB writes it: local interval ends (DD-MM-YYYY HH:MM), newest first, both channels; the
      // repeated autumn hour told apart by the file's order. Detected from the content.
      const report = await upload(fileBody(file), 'meterNumber=ESB-1', 'text/csv');
      expect(report.format).toBe('delimited');
      const want = expected<Record<'import' | 'export', ExpectedSeries>>('esb-kwh');
      expect(report).toMatchObject({
        committed: true,
        rejectedCount: 0,
        inserted: want.import.intervals + want.export.intervals,
      });
      const importDays = Object.keys(want.import.days);
      const meter = await days('ESB kWh', importDays[0] ?? '', importDays.at(-1) ?? '');
      expect(meter.channels).toEqual(['import', 'export']);
      // SOURCE.md: import 7,174.0 kWh, export 4,711.6 kWh; exactly 7,174.0005 and 4,711.56.
      expect(micro(meter.totals.consumption)).toBe(micro(want.import.total));
      expect(micro(meter.totals.other?.consumption ?? null)).toBe(micro(want.export.total));
      expect(want.import.total).toBe('7174.0005');
      expectDays('Europe/Dublin', meter.series.t, meter.series, meter.series.hours, want.import);
      const other = meter.series.other;
      if (!other) throw new Error('no export columns');
      const exportDays = new Set(Object.keys(want.export.days));
      const fromExport = meter.series.t.findIndex((ms) =>
        exportDays.has(new Date(ms).toLocaleDateString('en-CA', { timeZone: 'Europe/Dublin' })),
      );
      expectDays(
        'Europe/Dublin',
        meter.series.t.slice(fromExport),
        { consumption: other.consumption.slice(fromExport), missing: other.missing.slice(fromExport) },
        meter.series.hours?.slice(fromExport),
        want.export,
      );
      // The days the issue names: 2022-12-14 12.227 kWh; 2024-05-22 three half hours missing, the 23rd one.
      expect(want.import.days['2022-12-14']?.kWh).toBe('12.227');
      expect(want.import.days['2024-05-22']?.missing).toBe(3);
      expect(want.import.days['2024-05-23']?.missing).toBe(1);
    },
  );

  it('ESB Networks HDF (kW): average power × half an hour', { timeout: 120_000 }, async () => {
    await addMeter('ESB kW', 'Europe/Dublin', 'ESB-KW', 30);
    const file = fixture('esb-hdf-ireland', 'HDF_kW_variant_2022-12_to_2023-09.csv');
    // Average kW per half hour: the preset reads the variant from the Read Type and takes × 0.5 h.
    const report = await upload(fileBody(file), 'preset=esb-hdf&meterNumber=ESB-KW', 'text/csv');
    const want = expected<Record<'import' | 'export', ExpectedSeries>>('esb-kw');
    expect(report).toMatchObject({
      rejectedCount: 0,
      inserted: want.import.intervals + want.export.intervals,
    });
    const importDays = Object.keys(want.import.days);
    const meter = await days('ESB kW', importDays[0] ?? '', importDays.at(-1) ?? '');
    expect(micro(meter.totals.consumption)).toBe(micro(want.import.total));
    expect(micro(meter.totals.other?.consumption ?? null)).toBe(micro(want.export.total));
    expectDays('Europe/Dublin', meter.series.t, meter.series, meter.series.hours, want.import);
  });

  it(
    'Low Carbon London: interval starts, London days, a missing half hour that stays unknown',
    { timeout: 180_000 },
    async () => {
      const want = expected<Record<string, ExpectedSeries>>('lcl');
      for (const meterNumber of Object.keys(want))
        await addMeter(`LCL ${meterNumber}`, 'Europe/London', meterNumber, 30);
      const file = fixture('lcl-london-halfhourly', 'lcl_2013_halfhourly_6meters.csv');
      // As published: UTC half-hour starts, space-padded values, Null where a half hour is missing;
      // the meter is the LCLid column. No Content-Type (only a length): the content tells.
      const report = await upload(readFileSync(file), '', '');
      expect(report).toMatchObject({ rejectedCount: 0 });
      expect(report.inserted).toBe(Object.values(want).reduce((sum, meter) => sum + meter.intervals, 0));
      for (const [meterNumber, series] of Object.entries(want)) {
        const dayList = Object.keys(series.days);
        const meter = await days(`LCL ${meterNumber}`, dayList[0] ?? '', dayList.at(-1) ?? '');
        expectKwh(meter.totals.consumption, series.total, true, meterNumber);
        expectDays('Europe/London', meter.series.t, meter.series, meter.series.hours, series, true);
      }
      // The day: MAC000005 on 2013-04-06 holds 4.622 kWh (the half hour missing the evening before stays there, unknown).
      expect(want.MAC000005?.days['2013-04-06']?.kWh).toBe('4.622');
      expect(want.MAC000005?.days['2013-04-05']?.missing).toBe(1);
    },
  );

  it('Green Button: hourly deltas over a year of Pacific days', { timeout: 120_000 }, async () => {
    await addMeter('GB Coastal', 'America/Los_Angeles', 'GB-COASTAL', 60);
    const file = fixture(
      'greenbutton-samples',
      'Coastal_Multi_Family_Jan_1_2011_to_Jan_1_2012_RetailCustomer_5.xml',
    );
    const report = await upload(fileBody(file), 'meterNumber=GB-COASTAL', 'application/atom+xml');
    const want = expected<ExpectedSeries>('greenbutton-coastal');
    expect(report).toMatchObject({ rowsRead: want.intervals, inserted: want.intervals, rejectedCount: 0 });
    const dayList = Object.keys(want.days);
    const meter = await days('GB Coastal', dayList[0] ?? '', dayList.at(-1) ?? '');
    expect(micro(meter.totals.consumption)).toBe(micro(want.total));
    expectDays('America/Los_Angeles', meter.series.t, meter.series, meter.series.hours, want);
  });

  it('Green Button labelled cumulative whose values are minute energies: read by its evidence, with a note', async () => {
    await addMeter('GB Minutes', 'Europe/Paris', 'GB-MINUTES', 15, new Date('2006-01-01T00:00:00Z'));
    const file = fixture('uci-household-power', 'uci_minutes_labelled_cumulative.xml');
    const want = JSON.parse(readFileSync(fixture('uci-household-power', 'expected.json'), 'utf8')) as {
      readings: number;
      falls: number;
      total: string;
      days: Record<string, string>;
    };
    const report = await upload(fileBody(file), 'meterNumber=GB-MINUTES', 'application/atom+xml');
    expect(report).toMatchObject({ committed: true, inserted: want.readings, rejectedCount: 0 });
    expect(report.notes).toEqual([
      `The ReadingType says cumulative (accumulationBehaviour 1), but its values fall ${want.falls} times in ${want.readings - 1} steps and every reading's duration is 0: they were read as the energy of each 1-minute interval (the spacing of their starts), not as a register.`,
    ]);
    const dayList = Object.keys(want.days);
    const meter = await days('GB Minutes', dayList[0] ?? '', dayList.at(-1) ?? '');
    expect(micro(meter.totals.consumption)).toBe(micro(want.total));
    expect(meter.series.consumption.map(micro)).toEqual(dayList.map((day) => micro(want.days[day] ?? null)));
    expect(meter.series.missing).toEqual([0, 0]);
  });

  it('Green Button: daily readings, 23- and 25-hour days included', { timeout: 120_000 }, async () => {
    await addMeter('GB Daily', 'America/New_York', 'GB-DAILY', 1440);
    const file = fixture('greenbutton-samples', 'TestGBDataOneYearDailyBinnedMonthly.xml');
    const report = await upload(fileBody(file), 'meterNumber=GB-DAILY', 'application/atom+xml');
    const want = expected<ExpectedSeries>('greenbutton-daily');
    expect(report).toMatchObject({ inserted: want.intervals, rejectedCount: 0 });
    const dayList = Object.keys(want.days);
    const meter = await days('GB Daily', dayList[0] ?? '', dayList.at(-1) ?? '');
    expect(micro(meter.totals.consumption)).toBe(micro(want.total));
    expectDays('America/New_York', meter.series.t, meter.series, meter.series.hours, want);
    expect(want.days['2013-03-10']?.hours).toBe(23);
  });
});
