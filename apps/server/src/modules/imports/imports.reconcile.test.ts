import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportJob, ImportPreview } from '@cm/contracts/import-jobs.ts';
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
    meterNumber: 'REC-1',
    locationId,
    meterInd: 1,
    intervalMinutes: 60,
    multiplier: 2,
    installedAt: new Date('2024-01-01T00:00:00Z'),
  });
});
afterAll(() => t.close());

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
        periods: [
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
        ],
        total: {
          from: '2024-06-09T22:00:00.000Z',
          to: '2024-06-11T22:00:00.000Z',
          date: null,
          registerKwh: 96.5,
          intervalKwh: 94.5,
          intervalMinutes: 2820,
          restKwh: 2,
        },
      },
    ]);
  });
});
