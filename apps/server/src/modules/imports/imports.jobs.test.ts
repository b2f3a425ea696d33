import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportJob, ImportPreview } from '@cm/contracts/import-jobs.ts';
import { createTestApp, type TestApp, signInNewAdmin } from '../../test/test-app.ts';
import { insertLocation, insertMeter } from '../../test/factories.ts';
import { ImportJobsService } from './import-jobs.service.ts';
import { CANCELLED, ImportRefused, ImportsService } from './imports.service.ts';

// Imports as jobs: upload (spooled, detected), preview, start, progress, cancel, resume. Expected
// figures come from fixtures/real/expected (compute_expected.py), never from Check Meter's code.

const REAL = path.resolve(import.meta.dirname, '../../../../../fixtures/real');
const ESB = path.join(REAL, 'esb-hdf-ireland', 'HDF_kWh_variant_2022-12_to_2024-10.csv');
const esbExpected = JSON.parse(readFileSync(path.join(REAL, 'expected', 'esb-kwh.json'), 'utf8')) as Record<
  'import' | 'export',
  { intervals: number; total: string }
>;

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signInNewAdmin(t);
  const dublin = await insertLocation(t.db, 'Jobs Dublin', 'Europe/Dublin');
  const installedAt = new Date('2010-01-01T00:00:00Z');
  await insertMeter(t.db, {
    meterNumber: 'JOB-ESB',
    locationId: dublin,
    meterInd: 1,
    intervalMinutes: 30,
    installedAt,
  });
  await insertMeter(t.db, {
    meterNumber: 'JOB-CSV',
    locationId: dublin,
    meterInd: 2,
    intervalMinutes: 15,
    installedAt,
  });
});
afterAll(() => t.close());

const upload = async (body: string | Buffer, fileName: string) => {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/admin/imports/jobs?fileName=${encodeURIComponent(fileName)}`,
    headers: {
      'x-api-key': t.apiKey,
      authorization: `Bearer ${admin}`,
      'content-type': 'application/octet-stream',
    },
    payload: body,
  });
  expect(response.statusCode, response.body.slice(0, 300)).toBe(201);
  return response.json<ImportJob>();
};
const post = (url: string, body: unknown) => t.call('POST', url, { token: admin, body });
const job = async (id: string) =>
  (await t.call('GET', `/api/admin/imports/jobs/${id}`, { token: admin })).json<ImportJob>();
async function finished(id: string, timeoutMs = 60_000): Promise<ImportJob> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const current = await job(id);
    if (!['queued', 'running'].includes(current.status)) return current;
    if (Date.now() > until) throw new Error(`job ${id} still ${current.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A Check Meter CSV of `rows` 15-minute interval readings of JOB-CSV. */
function generatedCsv(rows: number, startMs = Date.parse('2024-01-01T00:15:00Z')) {
  const lines = ['meter_number,timestamp,interval_kwh'];
  for (let i = 0; i < rows; i++) lines.push(`JOB-CSV,${new Date(startMs + i * 900_000).toISOString()},0.25`);
  return `${lines.join('\n')}\n`;
}

describe('imports as jobs', () => {
  it(
    'uploads, detects, previews, runs with progress and keeps the report: the ESB file as ESB writes it',
    { timeout: 120_000 },
    async () => {
      const uploaded = await upload(readFileSync(ESB), 'HDF.csv');
      expect(uploaded).toMatchObject({
        status: 'uploaded',
        fileName: 'HDF.csv',
        detection: { format: 'delimited', preset: 'esb-hdf' },
      });
      expect(uploaded.detection.reason).toMatch(/ESB Networks HDF/);

      const previewed = await post(`/api/admin/imports/jobs/${uploaded.id}/preview`, {
        preset: 'esb-hdf',
        meterNumber: 'JOB-ESB',
      });
      expect(previewed.statusCode, previewed.body.slice(0, 300)).toBe(200);
      const preview = previewed.json<ImportPreview>();
      expect(preview).toMatchObject({
        refusal: null,
        rejectedCount: 0,
        readings: esbExpected.import.intervals + esbExpected.export.intervals,
      });
      expect(preview.meters).toEqual([
        expect.objectContaining({
          meterNumber: 'JOB-ESB',
          known: true,
          channels: ['import', 'export'],
          intervalMinutes: 30,
          location: 'Jobs Dublin',
        }),
      ]);
      // Newest first: the first row shown is the file's last half hour, 04-10-2024 00:30–01:00 Irish summer time.
      expect(preview.first[0]).toMatchObject({
        line: 2,
        channel: 'export',
        start: '2024-10-03T23:30:00.000Z',
        end: '2024-10-04T00:00:00.000Z',
      });
      expect(
        preview.notes.some((note) =>
          /29-10-2023 01:30 occurs twice in Europe\/Dublin .* newest first/.test(note),
        ),
      ).toBe(true);
      expect(preview.days.find((day) => day.date === '2023-10-29')).toEqual({
        date: '2023-10-29',
        import: 50,
        export: 50,
      });
      // A mapping changed in the preview is followed: the same file read in Wh gives a thousandth.
      const asWh = await post(`/api/admin/imports/jobs/${uploaded.id}/preview`, {
        mapping: {
          ...preview.mapping,
          meter: { fixed: 'JOB-ESB' },
          value: { column: 'Read Value', unit: 'Wh', kind: 'interval' },
        },
      });
      expect(asWh.json<ImportPreview>().first[0]?.value).toBeCloseTo(
        (preview.first[0]?.value ?? 0) / 1000,
        9,
      );
      expect(await t.db.query('SELECT 1 FROM interval_readings')).toHaveLength(0);

      const started = await post(`/api/admin/imports/jobs/${uploaded.id}/start`, {
        preset: 'esb-hdf',
        meterNumber: 'JOB-ESB',
      });
      expect(started.statusCode, started.body).toBe(202);
      const done = await finished(uploaded.id);
      expect(done).toMatchObject({
        status: 'done',
        progress: { percent: 100 },
        report: { committed: true, inserted: esbExpected.import.intervals + esbExpected.export.intervals },
      });
      expect(done.report?.notes.length).toBeGreaterThan(0);
      expect(
        (await t.call('GET', '/api/admin/imports/jobs', { token: admin })).json<{ items: ImportJob[] }>()
          .items[0]?.id,
      ).toBe(uploaded.id);
      // The file is gone once the job is done; starting it again is refused.
      expect((await post(`/api/admin/imports/jobs/${uploaded.id}/start`, {})).statusCode).toBe(409);
    },
  );

  it('refuses to start without what the file needs, naming it, and saves a mapping by name', async () => {
    const octopus = 'Consumption (kWh), Start, End\n0.5, 2025-01-01T00:00:00Z, 2025-01-01T00:15:00Z\n';
    const uploaded = await upload(octopus, 'octopus.csv');
    expect(uploaded.detection).toMatchObject({ preset: 'octopus', needs: ['meterNumber'] });
    const refused = await post(`/api/admin/imports/jobs/${uploaded.id}/start`, {});
    expect(refused.json()).toMatchObject({ statusCode: 400, param: 'meterNumber' });
    const started = await post(`/api/admin/imports/jobs/${uploaded.id}/start`, {
      meterNumber: 'JOB-CSV',
      saveMappingAs: 'Octopus flat 2',
    });
    expect(started.statusCode).toBe(202);
    expect((await finished(uploaded.id)).report).toMatchObject({ inserted: 1 });
    const saved = (await t.call('GET', '/api/admin/imports/mappings', { token: admin })).json();
    expect(saved.items).toEqual([
      expect.objectContaining({
        name: 'Octopus flat 2',
        mapping: expect.objectContaining({ meter: { fixed: 'JOB-CSV' } }),
      }),
    ]);
    expect(
      (await t.call('DELETE', '/api/admin/imports/mappings/Octopus%20flat%202', { token: admin })).statusCode,
    ).toBe(204);
  });

  it('cancels a running import at its next batch, storing nothing', { timeout: 60_000 }, async () => {
    const uploaded = await upload(generatedCsv(400_000), 'big.csv');
    await post(`/api/admin/imports/jobs/${uploaded.id}/start`, {});
    for (let current = await job(uploaded.id); current.status !== 'running'; current = await job(uploaded.id))
      await new Promise((resolve) => setTimeout(resolve, 20));
    const asked = await post(`/api/admin/imports/jobs/${uploaded.id}/cancel`, {});
    expect(asked.statusCode).toBe(200);
    const stopped = await finished(uploaded.id);
    expect(stopped).toMatchObject({ status: 'cancelled', report: { committed: false } });
    expect(
      await t.db.query(
        "SELECT 1 FROM interval_readings i JOIN meters m ON m.device_id = i.meter_id WHERE m.meter_number = 'JOB-CSV' AND i.start_at >= '2024-01-01' AND i.start_at < '2025-01-01'",
      ),
    ).toHaveLength(0);
  });

  it('stores nothing when cancelled while storing, up to the commit (issue 34 low)', async () => {
    // A cancel pressed in the last phase used to be ignored: the job stored everything.
    const abort = new AbortController();
    const refused = await new ImportsService(t.db)
      .importReadings(
        { userId: null, apiKeyId: null },
        { open: () => Readable.from([generatedCsv(96, Date.parse('2025-03-01T00:15:00Z'))]) },
        {
          format: 'csv',
          strict: false,
          corrections: false,
          signal: abort.signal,
          onProgress: ({ phase }) => {
            if (phase === 'storing') abort.abort();
          },
        },
      )
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(ImportRefused);
    expect((refused as ImportRefused).report).toMatchObject({
      committed: false,
      inserted: 0,
      refusal: CANCELLED,
    });
    expect(
      await t.db.query(
        "SELECT 1 FROM interval_readings i JOIN meters m ON m.device_id = i.meter_id WHERE m.meter_number = 'JOB-CSV' AND i.start_at >= '2025-03-01' AND i.start_at < '2025-03-03'",
      ),
    ).toHaveLength(0);
  });

  it('refuses a cancel that comes after the job finished, saying what it stored (issue 34 low)', async () => {
    const uploaded = await upload(generatedCsv(8, Date.parse('2025-05-01T00:15:00Z')), 'late-cancel.csv');
    await post(`/api/admin/imports/jobs/${uploaded.id}/start`, {});
    expect(await finished(uploaded.id)).toMatchObject({ status: 'done', report: { inserted: 8 } });
    const late = await post(`/api/admin/imports/jobs/${uploaded.id}/cancel`, {});
    expect(late.statusCode).toBe(409);
    expect(late.json<{ message: string }>().message).toBe(
      'Too late to cancel: this import has finished, and what it stored stays.',
    );
    expect(await job(uploaded.id)).toMatchObject({ status: 'done', cancelRequested: false });
  });

  it('runs again a job whose server stopped mid-way (no heartbeat), from its spooled file, stored once', async () => {
    const uploaded = await upload(generatedCsv(96, Date.parse('2023-06-01T00:15:00Z')), 'resume.csv');
    // As a stopped server leaves it: running, its heartbeat old.
    await t.db.query(
      `UPDATE import_jobs SET status = 'running', source = '{"strict":false,"corrections":false}', started_at = now() - interval '10 minutes',
         heartbeat_at = now() - interval '10 minutes' WHERE id = $1`,
      [uploaded.id],
    );
    const other = new ImportJobsService(
      t.db,
      new ImportsService(t.db),
      path.join(t.dataDir, 'imports', 'jobs'),
      { warn: () => {}, error: () => {} },
    );
    other.start();
    try {
      expect(await finished(uploaded.id)).toMatchObject({ status: 'done', report: { inserted: 96 } });
    } finally {
      await other.stop();
    }
    expect(
      await t.db.query(
        "SELECT 1 FROM interval_readings i JOIN meters m ON m.device_id = i.meter_id WHERE m.meter_number = 'JOB-CSV' AND i.start_at < '2023-07-01'",
      ),
    ).toHaveLength(96);
  });

  it('previews a Green Button feed labelled cumulative by its evidence: minute energies, with the note', async () => {
    const paris = await insertLocation(t.db, 'Jobs Paris', 'Europe/Paris');
    await insertMeter(t.db, {
      meterNumber: 'JOB-MIN',
      locationId: paris,
      meterInd: 1,
      intervalMinutes: 15,
      installedAt: new Date('2006-01-01T00:00:00Z'),
    });
    const dir = path.join(REAL, 'uci-household-power');
    const want = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as {
      readings: number;
      falls: number;
    };
    const uploaded = await upload(
      readFileSync(path.join(dir, 'uci_minutes_labelled_cumulative.xml')),
      'gb.xml',
    );
    expect(uploaded.detection).toMatchObject({ format: 'espi' });
    const previewed = await post(`/api/admin/imports/jobs/${uploaded.id}/preview`, {
      meterNumber: 'JOB-MIN',
    });
    expect(previewed.statusCode, previewed.body.slice(0, 300)).toBe(200);
    const preview = previewed.json<ImportPreview>();
    expect(preview).toMatchObject({ refusal: null, rejectedCount: 0, readings: want.readings });
    expect(preview.meters).toEqual([
      expect.objectContaining({ meterNumber: 'JOB-MIN', channels: ['import'], intervalMinutes: 1 }),
    ]);
    expect(preview.first[0]).toMatchObject({ kind: 'interval' });
    expect(preview.notes).toEqual([
      expect.stringContaining(`its values fall ${want.falls} times in ${want.readings - 1} steps`),
    ]);
  });

  it('reads wide rows (one row a day, one column a half hour) with compact dates, 23- and 25-hour days', async () => {
    // Europe/Dublin: 2024-03-31 has 23 hours (46 half hours), 2024-10-27 has 25 (50). Columns
    // H1…H50 from the day's midnight; a normal day leaves H49–H50 empty. By hand: Mar 30 48 × 0.1
    // = 4.8 kWh; Mar 31 46 × 0.2 = 9.2 kWh, and its H47 (past the 23 hours) refused; Oct 27 50 ×
    // 0.05 = 2.5 kWh.
    const row = (date: string, values: string[]) =>
      ['JOB-WIDE-MPRN', date, ...values, ...Array<string>(50 - values.length).fill('')].join(',');
    const file = [
      ['MPRN', 'Date', ...Array.from({ length: 50 }, (_, i) => `H${i + 1}`)].join(','),
      row('20240330', Array<string>(48).fill('0.1')),
      row('20240331', [...Array<string>(46).fill('0.2'), '0.3']),
      row('20241027', Array<string>(50).fill('0.05')),
    ].join('\n');
    const dublin = await insertLocation(t.db, 'Jobs Wide', 'Europe/Dublin');
    const meterId = await insertMeter(t.db, {
      meterNumber: 'JOB-WIDE',
      locationId: dublin,
      meterInd: 1,
      intervalMinutes: 30,
      installedAt: new Date('2020-01-01T00:00:00Z'),
    });
    const uploaded = await upload(file, 'wide.csv');
    const mapping = {
      delimiter: ',',
      decimal: '.',
      header: true,
      time: { column: 'Date', layout: 'yyyymmdd', stamp: 'start' },
      value: { column: 'H1', unit: 'kWh', kind: 'interval' },
      wide: { intervalMinutes: 30, count: 50 },
      meter: { column: 'MPRN' },
    };
    const started = await post(`/api/admin/imports/jobs/${uploaded.id}/start`, {
      mapping,
      meterNumber: 'JOB-WIDE',
    });
    expect(started.statusCode, started.body).toBe(202);
    const done = await finished(uploaded.id);
    expect(done.report).toMatchObject({ committed: true, inserted: 48 + 46 + 50, rejectedCount: 1 });
    expect(done.report?.rejected[0]).toMatchObject({
      line: 3,
      code: 'beyondDay',
      params: { column: 47, date: '2024-03-31', hours: 23, zone: 'Europe/Dublin' },
    });
    const days = await t.db.query<{ day: string; n: number; micro: string }>(
      `SELECT to_char(start_at AT TIME ZONE 'Europe/Dublin', 'YYYY-MM-DD') AS day, count(*)::int AS n,
              sum(energy_micro)::text AS micro
       FROM interval_readings WHERE meter_id = $1 GROUP BY 1 ORDER BY 1`,
      [meterId],
    );
    expect(days).toEqual([
      { day: '2024-03-30', n: 48, micro: '4800000' },
      { day: '2024-03-31', n: 46, micro: '9200000' },
      { day: '2024-10-27', n: 50, micro: '2500000' },
    ]);
    // On the 23-hour day the third half hour starts at 01:00 UTC, 02:00 Irish summer time.
    const third = await t.db.query<{ at: string }>(
      `SELECT to_char(start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS at FROM interval_readings
       WHERE meter_id = $1 AND start_at >= '2024-03-31T00:00:00Z' ORDER BY start_at LIMIT 1 OFFSET 2`,
      [meterId],
    );
    expect(third).toEqual([{ at: '2024-03-31T01:00' }]);
  });
});
