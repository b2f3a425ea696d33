import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportJob, ImportPreview } from '@cm/contracts/import-jobs.ts';
import { finishedJob } from '../../test/import-jobs.ts';
import { createTestApp, type TestApp, signInNewAdmin } from '../../test/test-app.ts';
import { insertLocation, insertMeter } from '../../test/factories.ts';

// Reconciliation (issue 32): a file holding registers and interval records of one meter and
// channel shows, in its preview, per day between daily reads and over the range, the register's
// advance against the summed intervals and the unexplained rest.
//
// The file (Check Meter's export layout), Europe/Berlin in June (UTC+2):
//   registers 500.000 at 2024-06-10 00:00, 524.000 at 06-11 00:00, 548.250 at 06-12 00:00 (× 2 CT);
//   hourly intervals of 2.0 kWh on the 10th (24 × 2 = 48); on the 11th hour 07 missing and hour
//   03 = 2.5 kWh: 23 hours, 22 × 2 + 2.5 = 46.5.
// By hand: 10th: (524 − 500) × 2 = 48 against 48, rest 0, 1440 minutes. 11th: (548.25 − 524) × 2
// = 48.5 against 46.5, rest 2, 1380 minutes. Range: 96.5 against 94.5, rest 2.

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signInNewAdmin(t);
  const locationId = await insertLocation(t.db, 'Reconcile depot', 'Europe/Berlin');
  await insertMeter(t.db, {
    meterNumber: 'REC-2',
    locationId: await insertLocation(t.db, 'Reconcile shed', 'Europe/Berlin'),
    meterInd: 1,
    intervalMinutes: 60,
    installedAt: new Date('2024-01-01T00:00:00Z'),
  });
  await insertMeter(t.db, {
    meterNumber: 'REC-1',
    locationId,
    meterInd: 1,
    intervalMinutes: 60,
    multiplier: 2,
    installedAt: new Date('2024-01-01T00:00:00Z'),
  });
});
afterAll(() => t.close());

/** Uploads a file as an import job. */
async function upload(name: string, body: string): Promise<ImportJob> {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/admin/imports/jobs?fileName=${name}`,
    headers: { 'x-api-key': t.apiKey, authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
    payload: body,
  });
  expect(response.statusCode, response.body.slice(0, 300)).toBe(201);
  return response.json<ImportJob>();
}

function file(): string {
  const lines = ['meter_number,channel,kind,start,end,value_kwh,quality'];
  const at = (day: number, hour: number) =>
    `2024-06-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00+02:00`;
  lines.push(`REC-1,import,register,${at(10, 0)},${at(10, 0)},500.000,actual`);
  lines.push(`REC-1,import,register,${at(11, 0)},${at(11, 0)},524.000,actual`);
  lines.push(`REC-1,import,register,${at(12, 0)},${at(12, 0)},548.250,actual`);
  for (const day of [10, 11])
    for (let hour = 0; hour < 24; hour++) {
      if (day === 11 && hour === 7) continue;
      const end = hour === 23 ? at(day + 1, 0) : at(day, hour + 1);
      const kwh = day === 11 && hour === 3 ? '2.5' : '2.0';
      lines.push(`REC-1,import,interval,${at(day, hour)},${end},${kwh},actual`);
    }
  return `${lines.join('\n')}\n`;
}

const EXPECTED_PERIODS = [
  {
    from: '2024-06-09T22:00:00.000Z',
    to: '2024-06-10T22:00:00.000Z',
    date: '2024-06-10',
    registerKwh: 48,
    intervalKwh: 48,
    intervalMinutes: 1440,
    restKwh: 0,
  },
  {
    from: '2024-06-10T22:00:00.000Z',
    to: '2024-06-11T22:00:00.000Z',
    date: '2024-06-11',
    registerKwh: 48.5,
    intervalKwh: 46.5,
    intervalMinutes: 1380,
    restKwh: 2,
  },
];
const EXPECTED_TOTAL = {
  from: '2024-06-09T22:00:00.000Z',
  to: '2024-06-11T22:00:00.000Z',
  date: null,
  registerKwh: 96.5,
  intervalKwh: 94.5,
  intervalMinutes: 2820,
  restKwh: 2,
};

const finished = (id: string) => finishedJob(t, admin, id);

describe('reconciliation in the preview', () => {
  it('per day and over the range: register advance, summed intervals, unexplained rest', async () => {
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/admin/imports/jobs?fileName=both.csv',
      headers: { 'x-api-key': t.apiKey, authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
      payload: file(),
    });
    expect(upload.statusCode, upload.body.slice(0, 300)).toBe(201);
    const job = upload.json<ImportJob>();
    const preview = (
      await t.call('POST', `/api/admin/imports/jobs/${job.id}/preview`, { token: admin, body: {} })
    ).json<ImportPreview>();
    expect(preview.rejectedCount).toBe(0);
    expect(preview.reconciliation).toEqual([
      {
        meterNumber: 'REC-1',
        channel: 'import',
        morePeriods: 0,
        periods: EXPECTED_PERIODS,
        total: EXPECTED_TOTAL,
      },
    ]);

    // Imported, the meter's stored registers and intervals answer the same over those local days.
    const started = await t.call('POST', `/api/admin/imports/jobs/${job.id}/start`, {
      token: admin,
      body: {},
    });
    expect(started.statusCode, started.body.slice(0, 300)).toBe(202);
    const report = (await finished(job.id)).report;
    expect(report).toMatchObject({ committed: true, rejectedCount: 0 });
    // The report says the same of what is now stored over the file's time.
    expect(report?.reconciliation).toEqual([
      {
        meterNumber: 'REC-1',
        channel: 'import',
        morePeriods: 0,
        periods: EXPECTED_PERIODS,
        total: EXPECTED_TOTAL,
      },
    ]);
    const stored = await t.call(
      'GET',
      '/api/admin/imports/reconciliation?meterNumber=REC-1&From=2024-06-10&To=2024-06-11',
      { token: admin },
    );
    expect(stored.statusCode, stored.body.slice(0, 300)).toBe(200);
    expect(stored.json()).toEqual({
      meterNumber: 'REC-1',
      timeZone: 'Europe/Berlin',
      items: [
        {
          meterNumber: 'REC-1',
          channel: 'import',
          morePeriods: 0,
          periods: EXPECTED_PERIODS,
          total: EXPECTED_TOTAL,
        },
      ],
    });
    const unknown = await t.call(
      'GET',
      '/api/admin/imports/reconciliation?meterNumber=NOPE&From=2024-06-10&To=2024-06-11',
      { token: admin },
    );
    expect(unknown.statusCode).toBe(404);
    const backwards = await t.call(
      'GET',
      '/api/admin/imports/reconciliation?meterNumber=REC-1&From=2024-06-11&To=2024-06-10',
      { token: admin },
    );
    expect(backwards.statusCode).toBe(400);
  });

  it("a file of registers only is reconciled against the meter's stored intervals", async () => {
    // Stored first: hourly intervals of 1.0 kWh on 2024-06-10 (Berlin), 24 kWh.
    // The file: registers 10.0 at 00:00, 22.5 at 12:00, 34.0 at 24:00 (multiplier 1).
    // By hand: 00–12: 12.5 against 12, rest 0.5; 12–24: 11.5 against 12, rest −0.5; the day: 24
    // against 24, rest 0, 1440 minutes.
    const at = (hour: number) =>
      hour === 24 ? '2024-06-11T00:00:00+02:00' : `2024-06-10T${String(hour).padStart(2, '0')}:00:00+02:00`;
    const head = 'meter_number,channel,kind,start,end,value_kwh,quality';
    const intervals = Array.from(
      { length: 24 },
      (_, h) => `REC-2,import,interval,${at(h)},${at(h + 1)},1.0,actual`,
    );
    const first = await upload('intervals.csv', [head, ...intervals, ''].join('\n'));
    await t.call('POST', `/api/admin/imports/jobs/${first.id}/start`, { token: admin, body: {} });
    expect((await finished(first.id)).report).toMatchObject({ committed: true, inserted: 24 });

    const registers = [0, 12, 24].map(
      (h, i) => `REC-2,import,register,${at(h)},${at(h)},${['10.0', '22.5', '34.0'][i]},actual`,
    );
    const job = await upload('registers.csv', [head, ...registers, ''].join('\n'));
    const preview = (
      await t.call('POST', `/api/admin/imports/jobs/${job.id}/preview`, { token: admin, body: {} })
    ).json<ImportPreview>();
    expect(preview.notes).toContain(
      "Meter REC-2 (import): the file's registers reconciled against the intervals stored for it.",
    );
    const half = { date: null, intervalKwh: 12, intervalMinutes: 720 };
    expect(preview.reconciliation?.[0]).toMatchObject({
      meterNumber: 'REC-2',
      periods: [
        { ...half, from: '2024-06-09T22:00:00.000Z', registerKwh: 12.5, restKwh: 0.5 },
        { ...half, to: '2024-06-10T22:00:00.000Z', registerKwh: 11.5, restKwh: -0.5 },
      ],
      total: { date: '2024-06-10', registerKwh: 24, intervalKwh: 24, intervalMinutes: 1440, restKwh: 0 },
    });
  });
});
