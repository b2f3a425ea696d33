import { readFile, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '@cm/contracts/admin.ts';
import type { LocationReadings } from '@cm/contracts/check.ts';
import type { ImportJob, ImportPreview } from '@cm/contracts/import-jobs.ts';
import { parseDecimalMicro } from '../readings/index.ts';
import { finishedJob } from '../../test/import-jobs.ts';
import { createTestApp, readingsAnswer, type TestApp, signInNewAdmin } from '../../test/test-app.ts';
import { insertLocation, insertMeter } from '../../test/factories.ts';

// AEMO MDFF (issue 32): NEM12 interval data and NEM13 register reads, plain and zipped. Every
// expected figure is fixtures/nem12/expected.json, which sum_mdff.py computes from the files
// alone with exact decimals (never with Check Meter's code); the files are SOURCE.md's.

const FIXTURES = path.resolve(import.meta.dirname, '../../../../../fixtures/nem12');
const file = (name: string) => promisify(readFile)(path.join(FIXTURES, name));

interface Nem12Series {
  nmi: string;
  suffix: string;
  unit: string;
  intervalMinutes: number;
  intervals: number;
  total: string | null;
  imported: boolean;
  days: Record<string, string | null>;
  quality: Partial<Record<'actual' | 'estimated' | 'substituted', number>>;
}
interface Nem13Series {
  nmi: string;
  suffix: string;
  direction: 'I' | 'E';
  readCount: number;
  total: string;
  quantity: string;
  first: { at: string; kWh: string };
  last: { at: string; kWh: string };
}
const expected = JSON.parse(readFileSync(path.join(FIXTURES, 'expected.json'), 'utf8')) as {
  'nem12-three-nmis.csv': Record<string, Nem12Series>;
  'nem12-three-nmis.zip': Record<string, Nem12Series>;
  'nem13-two-nmis.csv': Record<string, Nem13Series>;
};
const nem12 = expected['nem12-three-nmis.csv'];
const nem13 = expected['nem13-two-nmis.csv'];
const series12 = (key: string) => {
  const series = nem12[key];
  if (!series) throw new Error(`no ${key} in expected.json`);
  return series;
};
const micro = (kwh: string | number | null | undefined) =>
  kwh === null || kwh === undefined
    ? null
    : typeof kwh === 'number'
      ? Math.round(kwh * 1e6)
      : parseDecimalMicro(kwh);
const importedIntervals = Object.values(nem12)
  .filter((series) => series.imported)
  .reduce((sum, series) => sum + series.intervals, 0);

// Which meter each NMI goes to: two meters are named by their NMI, QB00000002 is mapped.
const METERS = [
  { site: 'AU NCDE', meterNumber: 'NCDE001111', minutes: 30, hasExport: true },
  { site: 'AU QB', meterNumber: 'AU-QB-2', minutes: 15, hasExport: false },
  { site: 'AU VABC', meterNumber: 'VABC000003', minutes: 5, hasExport: true },
  { site: 'AU NEM13 one', meterNumber: 'NM13000001', minutes: 30, hasExport: true },
  { site: 'AU NEM13 two', meterNumber: 'NM13000002', minutes: 30, hasExport: false },
];

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signInNewAdmin(t);
  for (const [i, meter] of METERS.entries()) {
    // Brisbane keeps AEST all year: its days are the file's days.
    const locationId = await insertLocation(t.db, meter.site, 'Australia/Brisbane');
    await insertMeter(t.db, {
      meterNumber: meter.meterNumber,
      locationId,
      meterInd: i + 1,
      intervalMinutes: meter.minutes,
      hasExport: meter.hasExport,
      registerDigits: 6,
      installedAt: new Date('2020-01-01T00:00:00Z'),
    });
  }
});
afterAll(() => t.close());

const headers = () => ({
  'x-api-key': t.apiKey,
  authorization: `Bearer ${admin}`,
  'content-type': 'application/octet-stream',
});
/** A fixture file as the raw body of a POST. */
const send = async (url: string, name: string) =>
  t.app.inject({ method: 'POST', url, headers: headers(), payload: await file(name) });
const post = (url: string, body: unknown) => t.call('POST', url, { token: admin, body });
const finished = (id: string) => finishedJob(t, admin, id);

/** The meter of a site over [from, to] (local days), by day. */
async function readings(site: string, from: string, to: string): Promise<LocationReadings['meters'][number]> {
  const query = new URLSearchParams({ name: site, From: from, To: to, granularity: 'day' });
  const response = await t.call(
    'GET',
    `/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?${query.toString()}`,
    { token: admin },
  );
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  const meter = readingsAnswer(response).meters[0];
  if (!meter) throw new Error(`no meter at ${site}`);
  return meter;
}

/** The API's per-day energy of one channel against the script's. */
function expectDays(t0: number[], consumption: (number | null)[], want: Record<string, string | null>) {
  const got = new Map(
    t0.map((ms, i) => [
      new Date(ms).toLocaleDateString('en-CA', { timeZone: 'Australia/Brisbane' }),
      consumption[i] ?? null,
    ]),
  );
  for (const [day, kwh] of Object.entries(want)) expect(micro(got.get(day)), day).toBe(micro(kwh));
}

const QUALITY_CODES = { actual: 0, estimated: 1, substituted: 2 } as const;
async function storedQualities(meterNumber: string, channel: number) {
  const rows = await t.db.query<{ quality: number; n: number }>(
    `SELECT r.quality, count(*)::int AS n FROM interval_readings r JOIN meters m ON m.device_id = r.meter_id
      WHERE m.meter_number = $1 AND r.channel = $2 GROUP BY r.quality`,
    [meterNumber, channel],
  );
  return Object.fromEntries(rows.map((row) => [row.quality, row.n]));
}

describe('NEM12', () => {
  it('is detected from its 100 record, previewed per NMI before any meter is chosen, imported exactly', async () => {
    const upload = await send(
      '/api/admin/imports/jobs?fileName=nem12-three-nmis.csv',
      'nem12-three-nmis.csv',
    );
    expect(upload.statusCode, upload.body.slice(0, 300)).toBe(201);
    const job = upload.json<ImportJob>();
    expect(job.detection.format).toBe('nem12');
    expect(job.detection.reason).toContain('AEST (UTC+10), no daylight saving');

    // No mapping yet: QB00000002 names no meter; the preview still shows everything the file holds.
    const first = (await post(`/api/admin/imports/jobs/${job.id}/preview`, {})).json<ImportPreview>();
    expect(first.refusal).toBeNull();
    expect(first.notes.join(' ')).toContain('Times in AEST (UTC+10), no daylight saving');
    expect(first.meters.find((meter) => meter.meterNumber === 'QB00000002')).toMatchObject({ known: false });
    const summary = first.mdff;
    if (!summary) throw new Error('no MDFF summary in the preview');
    expect(summary.version).toBe('NEM12');
    expect(summary.timeNote).toContain('UTC+10');
    expect(summary.series.map((s) => `${s.nmi}/${s.suffix}`).sort()).toEqual(Object.keys(nem12).sort());
    for (const shown of summary.series) {
      const want = series12(`${shown.nmi}/${shown.suffix}`);
      expect(shown, `${shown.nmi}/${shown.suffix}`).toMatchObject({
        unit: want.unit,
        intervalMinutes: want.intervalMinutes,
        values: want.intervals,
        channel: !want.imported ? null : want.suffix.startsWith('E') ? 'import' : 'export',
      });
      const wantDays = Object.keys(want.days);
      expect(shown.days.map((day) => day.date)).toEqual(wantDays);
      expect(shown.days.reduce((sum, day) => sum + day.values, 0)).toBe(want.intervals);
    }
    expect(summary.series.find((s) => s.nmi === 'QB00000002')).toMatchObject({
      meterNumber: 'QB00000002',
      known: false,
    });

    // Mapped: the NMI goes to meter AU-QB-2.
    const source = { nmis: { QB00000002: 'AU-QB-2' } };
    const mapped = (await post(`/api/admin/imports/jobs/${job.id}/preview`, source)).json<ImportPreview>();
    expect(mapped.rejectedCount).toBe(0);
    expect(mapped.readings).toBe(importedIntervals);
    expect(mapped.mdff?.series.find((s) => s.nmi === 'QB00000002')).toMatchObject({
      meterNumber: 'AU-QB-2',
      known: true,
    });
    expect(mapped.meters.find((meter) => meter.meterNumber === 'VABC000003')).toMatchObject({
      channels: ['import', 'export'],
      intervalMinutes: 5,
    });

    const started = await post(`/api/admin/imports/jobs/${job.id}/start`, {
      ...source,
      saveMappingAs: 'Retailer NEM12',
    });
    expect(started.statusCode, started.body.slice(0, 300)).toBe(202);
    const done = await finished(job.id);
    expect(done.status, JSON.stringify(done.report?.refusal ?? done.error)).toBe('done');
    expect(done.report).toMatchObject({ committed: true, rejectedCount: 0, inserted: importedIntervals });
    expect(done.report?.notes.join(' ')).toContain('NMI NCDE001111 suffix Q1 (kVArh)');

    // Per meter and channel: the file's total and per-day energy, exactly, and its qualities.
    const checks = [
      { site: 'AU NCDE', meterNumber: 'NCDE001111', import: 'NCDE001111/E1', export: 'NCDE001111/B1' },
      { site: 'AU QB', meterNumber: 'AU-QB-2', import: 'QB00000002/E1', export: undefined },
      { site: 'AU VABC', meterNumber: 'VABC000003', import: 'VABC000003/E1', export: 'VABC000003/B1' },
    ];
    for (const check of checks) {
      const importSeries = series12(check.import);
      const days = Object.keys(importSeries.days);
      const meter = await readings(check.site, days[0] ?? '', days.at(-1) ?? '');
      expect(micro(meter.totals.consumption), check.import).toBe(micro(importSeries.total));
      expectDays(meter.series.t, meter.series.consumption, importSeries.days);
      const wantQuality = (series: Nem12Series) =>
        Object.fromEntries(
          Object.entries(series.quality).map(([name, n]) => [QUALITY_CODES[name as 'actual'], n]),
        );
      expect(await storedQualities(check.meterNumber, 1), check.import).toEqual(wantQuality(importSeries));
      if (check.export) {
        const exportSeries = series12(check.export);
        expect(micro(meter.totals.other?.consumption), check.export).toBe(micro(exportSeries.total));
        expect(await storedQualities(check.meterNumber, 2), check.export).toEqual(wantQuality(exportSeries));
      }
    }
    // Which meter each NMI is, saved for the next file from this source.
    const saved = await t.call('GET', '/api/admin/imports/mappings', { token: admin });
    expect(saved.json<{ items: unknown[] }>().items).toContainEqual(
      expect.objectContaining({ name: 'Retailer NEM12', mapping: null, nmis: source.nmis }),
    );
    // The script's totals, as SOURCE.md lists them.
    expect(series12('NCDE001111/E1').total).toBe('108.583');
    expect(series12('QB00000002/E1').total).toBe('37.7875');
  });

  it('zipped, as AEMO files are usually sent: the same readings (all unchanged)', async () => {
    const zipped = expected['nem12-three-nmis.zip'];
    expect(zipped).toEqual(nem12);
    // The one-shot route takes no NMI mapping: QB00000002's two days name no meter.
    const response = await send('/api/admin/imports', 'nem12-three-nmis.zip');
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const report = response.json<ImportReport>();
    expect(report.format).toBe('nem12');
    expect(report).toMatchObject({
      inserted: 0,
      unchanged: importedIntervals - series12('QB00000002/E1').intervals,
      rejectedCount: 2,
    });
    expect(report.rejected[0]?.reason).toBe('unknown meter number "QB00000002".');

    // As a job: opened on upload, detected as NEM12, its NMIs in the preview.
    const upload = await send('/api/admin/imports/jobs?fileName=nem12.zip', 'nem12-three-nmis.zip');
    expect(upload.statusCode, upload.body.slice(0, 300)).toBe(201);
    const job = upload.json<ImportJob>();
    expect(job.detection.format).toBe('nem12');
    expect(job.detection.reason).toContain('ZIP archive ("nem12#0000000000001#MDPUPLOAD#RETAILER.csv")');
    const preview = (await post(`/api/admin/imports/jobs/${job.id}/preview`, {})).json<ImportPreview>();
    expect(preview.mdff?.series.map((s) => `${s.nmi}/${s.suffix}`).sort()).toEqual(
      Object.keys(zipped).sort(),
    );
  });

  it('one meterNumber for a file of several NMIs is refused, naming them', async () => {
    const response = await send('/api/admin/imports?meterNumber=NCDE001111', 'nem12-three-nmis.csv');
    expect(response.statusCode).toBe(422);
    const { message } = response.json<{ message: string }>();
    expect(message).toContain('several NMIs (NCDE001111, QB00000002)');
  });
});

describe('saved NMI maps', () => {
  it('are saved, listed and deleted beside delimited mappings; a body of neither is a 400', async () => {
    const put = (body: unknown) =>
      t.call('PUT', '/api/admin/imports/mappings/Distributor%20B', { token: admin, body });
    const saved = await put({ nmis: { QB00000002: 'AU-QB-2', 'NCDE001111/B1': 'NCDE001111' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      name: 'Distributor B',
      mapping: null,
      nmis: { QB00000002: 'AU-QB-2' },
    });
    expect((await put({})).statusCode).toBe(400);
    const removed = await t.call('DELETE', '/api/admin/imports/mappings/Distributor%20B', { token: admin });
    expect(removed.statusCode).toBe(204);
  });
});

describe('NEM13', () => {
  it('register reads at their AEST times, import and export by direction', async () => {
    const response = await send('/api/admin/imports', 'nem13-two-nmis.csv');
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const report = response.json<ImportReport>();
    expect(report.format).toBe('nem13');
    const reads = Object.values(nem13).reduce((sum, series) => sum + series.readCount, 0);
    expect(report).toMatchObject({ committed: true, rejectedCount: 0, inserted: reads });

    const stored = await t.db.query<{
      meter_number: string;
      channel: number;
      read_at: Date;
      kwh: string;
      quality: number;
    }>(
      `SELECT m.meter_number, r.channel, r.read_at, (r.value_micro / 1e6)::text AS kwh, r.quality
         FROM register_readings r JOIN meters m ON m.device_id = r.meter_id
        WHERE m.meter_number LIKE 'NM13%' ORDER BY 1, 2, 3`,
    );
    for (const series of Object.values(nem13)) {
      const channel = series.direction === 'I' ? 1 : 2;
      const mine = stored.filter((row) => row.meter_number === series.nmi && row.channel === channel);
      expect(mine.length, `${series.nmi}/${series.suffix}`).toBe(series.readCount);
      // The first and last reads at the instants the file gives in AEST (+10:00).
      expect(mine[0]?.read_at.toISOString()).toBe(new Date(series.first.at).toISOString());
      expect(mine.at(-1)?.read_at.toISOString()).toBe(new Date(series.last.at).toISOString());
      expect(micro(mine[0]?.kwh)).toBe(micro(series.first.kWh));
      expect(micro(mine.at(-1)?.kwh)).toBe(micro(series.last.kWh));
      // The last read is an estimate (E52).
      expect(mine.at(-1)?.quality).toBe(1);
      expect(micro(series.total)).toBe(micro(series.quantity));
    }
    // The API's total between the first and last reads: the file's energy.
    const one = await readings('AU NEM13 one', '2023-11-01', '2024-05-01');
    expect(micro(one.totals.consumption)).toBe(micro(nem13['NM13000001/11/I']?.total));
    expect(micro(one.totals.other?.consumption)).toBe(micro(nem13['NM13000001/41/E']?.total));
    const two = await readings('AU NEM13 two', '2023-11-01', '2024-05-01');
    expect(micro(two.totals.consumption)).toBe(micro(nem13['NM13000002/11/I']?.total));
  });
});
