import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '@cm/contracts/admin.ts';
import type { ImportJob, ImportPreview } from '@cm/contracts/import-jobs.ts';
import { parseDecimalMicro } from '../readings/register-value.ts';
import { finishedJob } from '../../test/import-jobs.ts';
import { createTestApp, readingsAnswer, type TestApp, signInNewAdmin } from '../../test/test-app.ts';
import { insertLocation, insertMeter } from '../../test/factories.ts';

// A block per day and direction (issue 32: SCE's "Energy Usage Information" CSV). Every expected
// figure is fixtures/usage-blocks/expected.json, which sum_blocks.py computes from the file alone
// with exact decimals (never with Check Meter's code). The days are a 23-hour, a 24-hour and a
// 25-hour day in US/Pacific (92, 96 and 100 quarter hours).

const FIXTURES = path.resolve(import.meta.dirname, '../../../../../fixtures/usage-blocks');
const body = readFileSync(path.join(FIXTURES, 'sce-usage-blocks.csv'));
interface Series {
  intervals: number;
  total: string;
  days: Record<string, { intervals: number; kWh: string }>;
  quality: Record<string, number>;
}
const expected = JSON.parse(readFileSync(path.join(FIXTURES, 'expected.json'), 'utf8')) as Record<
  'Delivered' | 'Received',
  Series
>;
const SITE = 'SCE Ranch';
const ZONE = 'America/Los_Angeles';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signInNewAdmin(t);
  const locationId = await insertLocation(t.db, SITE, ZONE);
  await insertMeter(t.db, {
    meterNumber: 'SCE-1',
    locationId,
    meterInd: 1,
    intervalMinutes: 15,
    hasExport: true,
    installedAt: new Date('2024-01-01T00:00:00Z'),
  });
});
afterAll(() => t.close());

const post = (url: string, payload: unknown) => t.call('POST', url, { token: admin, body: payload });

const finished = (id: string) => finishedJob(t, admin, id);

async function dailyEnergy(day: string) {
  const query = new URLSearchParams({ name: SITE, From: day, To: day, granularity: 'day' });
  const response = await t.call(
    'GET',
    `/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?${query.toString()}`,
    { token: admin },
  );
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  const meter = readingsAnswer(response).meters[0];
  return { import: meter?.totals.consumption ?? null, export: meter?.totals.other?.consumption ?? null };
}
const micro = (kwh: string | number | null) =>
  kwh === null ? null : typeof kwh === 'number' ? Math.round(kwh * 1e6) : parseDecimalMicro(kwh);

describe('block-per-day CSV (SCE "Energy Usage Information")', () => {
  it('is detected from its content, previewed per direction and imported exactly, DST days included', async () => {
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/admin/imports/jobs?fileName=SCE_Usage.csv',
      headers: { 'x-api-key': t.apiKey, authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
      payload: body,
    });
    expect(upload.statusCode, upload.body.slice(0, 300)).toBe(201);
    const job = upload.json<ImportJob>();
    expect(job.detection).toMatchObject({ format: 'blocks', needs: ['meterNumber'] });

    // Before a meter is chosen: refused as naming none, and still what it holds per direction.
    const first = (await post(`/api/admin/imports/jobs/${job.id}/preview`, {})).json<ImportPreview>();
    expect(first.refusal).toContain('give the meterNumber');
    const perDirection = (name: 'Delivered' | 'Received') => ({
      direction: name,
      channel: name === 'Delivered' ? 'import' : 'export',
      unit: 'kWh',
      values: expected[name].intervals,
      days: Object.entries(expected[name].days).map(([date, day]) => ({ date, values: day.intervals })),
    });
    expect(first.blocks).toEqual({ directions: [perDirection('Delivered'), perDirection('Received')] });

    const preview = (
      await post(`/api/admin/imports/jobs/${job.id}/preview`, { meterNumber: 'SCE-1' })
    ).json<ImportPreview>();
    expect(preview.refusal).toBeNull();
    expect(preview.rejectedCount).toBe(0);
    expect(preview.readings).toBe(expected.Delivered.intervals + expected.Received.intervals);
    expect(preview.meters[0]).toMatchObject({
      meterNumber: 'SCE-1',
      channels: ['import', 'export'],
      intervalMinutes: 15,
    });
    // Per local day: as many quarter hours per direction as the file's blocks hold (92, 96, 100).
    expect(preview.days).toEqual(
      Object.entries(expected.Delivered.days).map(([date, day]) => ({
        date,
        import: day.intervals,
        export: expected.Received.days[date]?.intervals,
      })),
    );

    const started = await post(`/api/admin/imports/jobs/${job.id}/start`, { meterNumber: 'SCE-1' });
    expect(started.statusCode, started.body.slice(0, 300)).toBe(202);
    const done = await finished(job.id);
    expect(done.report).toMatchObject({
      committed: true,
      rejectedCount: 0,
      inserted: expected.Delivered.intervals + expected.Received.intervals,
    });
    for (const [date, day] of Object.entries(expected.Delivered.days)) {
      const got = await dailyEnergy(date);
      expect(micro(got.import), `${date} delivered`).toBe(micro(day.kWh));
      expect(micro(got.export), `${date} received`).toBe(micro(expected.Received.days[date]?.kWh ?? null));
    }
    const estimated = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM interval_readings r JOIN meters m ON m.device_id = r.meter_id
        WHERE m.meter_number = 'SCE-1' AND r.channel = 1 AND r.quality = 1`,
    );
    expect(estimated[0]?.n).toBe(expected.Delivered.quality.estimated);
  });

  it('without a meterNumber the one-shot route refuses it, naming what is missing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/imports',
      headers: { 'x-api-key': t.apiKey, authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
      payload: body,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json<{ message: string }>().message).toContain('give the meterNumber');
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/admin/imports?meterNumber=SCE-1',
      headers: { 'x-api-key': t.apiKey, authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
      payload: body,
    });
    expect(again.json<ImportReport>()).toMatchObject({ format: 'blocks', inserted: 0, rejectedCount: 0 });
  });

  it('a meterNumber not on the site: the preview names it, the meter is created from it at a location', async () => {
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/admin/imports/jobs?fileName=SCE_Usage.csv',
      headers: { 'x-api-key': t.apiKey, authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
      payload: body,
    });
    const job = upload.json<ImportJob>();
    const source = { meterNumber: 'SCE-NEW' };
    const preview = (await post(`/api/admin/imports/jobs/${job.id}/preview`, source)).json<ImportPreview>();
    expect(preview.meters).toMatchObject([{ meterNumber: 'SCE-NEW', known: false }]);
    const locationId = await insertLocation(t.db, 'SCE new site', ZONE);
    const created = await post(`/api/admin/imports/jobs/${job.id}/meters`, {
      ...source,
      meters: [{ meterNumber: 'SCE-NEW', locationId }],
    });
    expect(created.statusCode, created.body).toBe(201);
    // The file's first day is 2024-03-10: its Pacific midnight is 08:00 UTC (PST, UTC−8).
    expect(created.json()).toMatchObject({
      items: [{ meterNumber: 'SCE-NEW', installedAt: '2024-03-10T08:00:00.000Z', intervalMinutes: 15 }],
    });
    const again = (await post(`/api/admin/imports/jobs/${job.id}/preview`, source)).json<ImportPreview>();
    expect(again.meters).toMatchObject([
      { meterNumber: 'SCE-NEW', known: true, channels: ['import', 'export'] },
    ]);
    expect(again.readings).toBe(expected.Delivered.intervals + expected.Received.intervals);
  });
});
