import { readFile, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedImportMeters, ImportJob, ImportPreview } from '@cm/contracts/import-jobs.ts';
import { auditActionsOf } from '../../test/admin-context.ts';
import { createTestApp, type TestApp, signInNewAdmin } from '../../test/test-app.ts';
import { insertLocation } from '../../test/factories.ts';

// Preview first, then meters (issue 32): the meters a file names that are not on the site are
// created from its preview, each at a chosen location, installed from the local midnight of its
// first reading, with the file's interval, all or none, audit-logged. The expected days and
// intervals are fixtures/nem12/expected.json (sum_mdff.py, from the file alone).

const FIXTURES = path.resolve(import.meta.dirname, '../../../../../fixtures/nem12');
const expected = JSON.parse(readFileSync(path.join(FIXTURES, 'expected.json'), 'utf8')) as Record<
  string,
  Record<string, { intervalMinutes: number; days: Record<string, string | null> }>
>;
const series = (key: string) => {
  const found = expected['nem12-three-nmis.zip']?.[key];
  if (!found) throw new Error(`no ${key} in expected.json`);
  return found;
};

let t: TestApp;
let admin: string;
let brisbane: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signInNewAdmin(t);
  brisbane = await insertLocation(t.db, 'AU new meters', 'Australia/Brisbane');
});
afterAll(() => t.close());

const post = (url: string, body: unknown) => t.call('POST', url, { token: admin, body });

async function uploadZip(): Promise<ImportJob> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/admin/imports/jobs?fileName=nem12.zip',
    headers: { 'x-api-key': t.apiKey, authorization: `Bearer ${admin}`, 'content-type': 'application/zip' },
    payload: await promisify(readFile)(path.join(FIXTURES, 'nem12-three-nmis.zip')),
  });
  expect(response.statusCode, response.body.slice(0, 300)).toBe(201);
  return response.json<ImportJob>();
}

describe('meters created from the preview', () => {
  it('creates the NMIs not on the site at a location, from their first day and interval, audit-logged', async () => {
    const job = await uploadZip();
    const before = (await post(`/api/admin/imports/jobs/${job.id}/preview`, {})).json<ImportPreview>();
    expect(
      before.meters
        .filter((meter) => !meter.known)
        .map((meter) => meter.meterNumber)
        .sort(),
    ).toEqual(['NCDE001111', 'QB00000002', 'VABC000003']);

    const created = await post(`/api/admin/imports/jobs/${job.id}/meters`, {
      meters: [
        { meterNumber: 'VABC000003', locationId: brisbane },
        { meterNumber: 'QB00000002', locationId: brisbane },
      ],
    });
    expect(created.statusCode, created.body).toBe(201);
    // Installed from the AEST (Brisbane) midnight of the first day the file has for the NMI.
    const firstDay = (key: string) => Object.keys(series(key).days).sort()[0] ?? '';
    const midnight = (day: string) => new Date(`${day}T00:00:00+10:00`).toISOString();
    expect(created.json<CreatedImportMeters>().items).toEqual([
      {
        meterNumber: 'VABC000003',
        locationId: brisbane,
        meterInd: 1,
        installedAt: midnight(firstDay('VABC000003/E1')),
        intervalMinutes: series('VABC000003/E1').intervalMinutes,
        registerDigits: 6,
        channels: ['import', 'export'],
      },
      {
        meterNumber: 'QB00000002',
        locationId: brisbane,
        meterInd: 2,
        installedAt: midnight(firstDay('QB00000002/E1')),
        intervalMinutes: series('QB00000002/E1').intervalMinutes,
        registerDigits: 6,
        channels: ['import'],
      },
    ]);
    expect(await auditActionsOf(t.db, 'meter', 'VABC000003')).toEqual(['meter.create']);

    const after = (await post(`/api/admin/imports/jobs/${job.id}/preview`, {})).json<ImportPreview>();
    expect(after.meters.find((meter) => meter.meterNumber === 'VABC000003')).toMatchObject({
      known: true,
      location: 'AU new meters',
      channels: ['import', 'export'],
    });

    // Again: on the site already (409), nothing else created.
    const again = await post(`/api/admin/imports/jobs/${job.id}/meters`, {
      meters: [
        { meterNumber: 'NCDE001111', locationId: brisbane },
        { meterNumber: 'VABC000003', locationId: brisbane },
      ],
    });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toContain('VABC000003 is on the site already');
    expect(await auditActionsOf(t.db, 'meter', 'NCDE001111')).toEqual([]);
  });

  it('all or none: a meter the file does not name, or no such location, creates nothing', async () => {
    const job = await uploadZip();
    const unnamed = await post(`/api/admin/imports/jobs/${job.id}/meters`, {
      meters: [
        { meterNumber: 'NCDE001111', locationId: brisbane },
        { meterNumber: 'NOT-IN-FILE', locationId: brisbane },
      ],
    });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json<{ message: string }>().message).toContain('no reading of meter NOT-IN-FILE');
    const noPlace = await post(`/api/admin/imports/jobs/${job.id}/meters`, {
      meters: [{ meterNumber: 'NCDE001111', locationId: 999_999 }],
    });
    expect(noPlace.statusCode).toBe(400);
    const rows = await t.db.query(`SELECT 1 FROM meters WHERE meter_number = 'NCDE001111'`);
    expect(rows).toHaveLength(0);
  });
});

describe('meters created from a file of register reads', () => {
  it('NEM13: installed from the first read day, its interval at most a billing period', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/imports/jobs?fileName=nem13.csv',
      headers: { 'x-api-key': t.apiKey, authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
      payload: await promisify(readFile)(path.join(FIXTURES, 'nem13-two-nmis.csv')),
    });
    const job = response.json<ImportJob>();
    const created = await post(`/api/admin/imports/jobs/${job.id}/meters`, {
      meters: [{ meterNumber: 'NM13000002', locationId: brisbane }],
    });
    expect(created.statusCode, created.body).toBe(201);
    // Its reads are three months apart (SOURCE.md): the interval is the longest a meter has,
    // 44,640 minutes (31 days); installed from the AEST midnight of its first read, 2023-11-01.
    expect(created.json<CreatedImportMeters>().items[0]).toMatchObject({
      installedAt: new Date('2023-11-01T00:00:00+10:00').toISOString(),
      intervalMinutes: 44_640,
      channels: ['import'],
    });
  });

  it('Check Meter CSV of registers past 6 digits: a meter with digits enough, its readings then all stored', async () => {
    // 1,234,567.25 kWh has 7 whole digits: a 6-digit register would refuse every line.
    const csv = [
      'meter_number,timestamp,register_kwh',
      'BIG-REG,2024-03-01T00:00:00Z,1234567.25',
      'BIG-REG,2024-03-02T00:00:00Z,1234590.5',
      '',
    ].join('\n');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/imports/jobs?fileName=big.csv',
      headers: { 'x-api-key': t.apiKey, authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
      payload: csv,
    });
    const job = response.json<ImportJob>();
    const created = await post(`/api/admin/imports/jobs/${job.id}/meters`, {
      meters: [{ meterNumber: 'BIG-REG', locationId: brisbane }],
    });
    expect(created.json<CreatedImportMeters>().items[0]).toMatchObject({
      registerDigits: 7,
      intervalMinutes: 1440,
    });
    const preview = (await post(`/api/admin/imports/jobs/${job.id}/preview`, {})).json<ImportPreview>();
    expect(preview).toMatchObject({ readings: 2, rejectedCount: 0 });
  });
});
