import { randomUUID } from 'node:crypto';
import { readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportJob } from '@cm/contracts/import-jobs.ts';
import { Role } from '@cm/contracts/enums.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';
import { ImportJobsService } from './import-jobs.service.ts';
import { ImportsService } from './imports.service.ts';

// Security probe 2026-11-27, findings 6 and 9: uploads had no limit in number or total size, the
// files of cancelled or crash-cut uploads stayed on disk for good, and uploads, cancels and
// saved-mapping changes were missing from the audit log.

const SPOOL_MAX = 4096;
const CSV = 'meter_number,timestamp,register_kwh\nEM-1,2026-01-01T00:00:00Z,1\n';

let t: TestApp;
let admin: string;
let spoolDir: string;

beforeAll(async () => {
  t = await createTestApp({ CM_IMPORT_SPOOL_MAX_BYTES: String(SPOOL_MAX) });
  await insertUser(t.db, { email: 'admin@spool.cm', password: 'Admin!spool-1', role: Role.Admin });
  admin = (await t.login('admin@spool.cm', 'Admin!spool-1')).token;
  spoolDir = path.join(t.dataDir, 'imports', 'jobs');
});
afterAll(() => t.close());

const upload = (payload: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/imports/jobs?fileName=spool.csv',
    headers: {
      'x-api-key': t.apiKey,
      authorization: `Bearer ${admin}`,
      'content-type': 'text/csv',
      ...headers,
    },
    payload,
  });
/** A readings CSV of `bytes` bytes (its last line padded with spaces). */
const csvOf = (bytes: number) => CSV + ' '.repeat(bytes - Buffer.byteLength(CSV));
const spooled = async () =>
  (await readdir(spoolDir).catch(() => [])).filter((name) => name.endsWith('.upload'));
const auditOf = (action: string) =>
  t.db.query<{ target_id: string; detail: unknown }>(
    'SELECT target_id, detail FROM audit_log WHERE action = $1 ORDER BY id',
    [action],
  );

describe('the upload spool', () => {
  it('removes the file of a job cancelled before it ran, and audits the upload and the cancel', async () => {
    const uploaded = await upload(CSV);
    expect(uploaded.statusCode).toBe(201);
    const job = uploaded.json<ImportJob>();
    expect(await spooled()).toEqual([`${job.id}.upload`]);
    const cancelled = await t.call('POST', `/api/admin/imports/jobs/${job.id}/cancel`, { token: admin });
    expect(cancelled.json<ImportJob>().status).toBe('cancelled');
    expect(await spooled()).toEqual([]);
    expect(await auditOf('import-job.upload')).toEqual([
      { target_id: job.id, detail: { fileName: 'spool.csv', bytes: Buffer.byteLength(CSV) } },
    ]);
    expect((await auditOf('import-job.cancel')).map((entry) => entry.target_id)).toEqual([job.id]);
  });

  it('audits saved mappings and their removal', async () => {
    const mapping = {
      delimiter: ',',
      decimal: '.',
      header: true,
      time: { column: 'timestamp', layout: 'iso', stamp: 'start' },
      value: { column: 'register_kwh', unit: 'kWh', kind: 'register' },
      meter: { column: 'meter_number' },
    };
    const saved = await t.call('PUT', '/api/admin/imports/mappings/spool-audit', {
      token: admin,
      body: { mapping },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await auditOf('import-mapping.save')).map((entry) => entry.target_id)).toEqual(['spool-audit']);
    const removed = await t.call('DELETE', '/api/admin/imports/mappings/spool-audit', { token: admin });
    expect(removed.statusCode).toBe(204);
    expect((await auditOf('import-mapping.delete')).map((entry) => entry.target_id)).toEqual(['spool-audit']);
  });

  it('removes, at start and hourly, files no waiting job names once nothing writes to them', async () => {
    const waiting = (await upload(CSV)).json<ImportJob>();
    // Cut by a crash before its job was written, an hour ago; and one still arriving (written now).
    const crashed = `${randomUUID()}.upload`;
    const arriving = `${randomUUID()}.upload`;
    await writeFile(path.join(spoolDir, crashed), 'partial');
    await writeFile(path.join(spoolDir, arriving), 'partial');
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(path.join(spoolDir, crashed), anHourAgo, anHourAgo);
    const restarted = new ImportJobsService(t.db, new ImportsService(t.db), spoolDir, {
      warn: () => {},
      error: () => {},
    });
    expect(await restarted.sweepSpool()).toBe(1);
    expect((await spooled()).sort()).toEqual([arriving, `${waiting.id}.upload`].sort());
    await t.call('POST', `/api/admin/imports/jobs/${waiting.id}/cancel`, { token: admin });
    // Ten minutes later the partial one is an orphan too.
    expect(await restarted.sweepSpool(Date.now() + 11 * 60_000)).toBe(1);
    expect(await spooled()).toEqual([]);
  });

  it(`refuses an upload past the spool's total (${SPOOL_MAX} bytes) with 507`, async () => {
    const first = await upload(csvOf(3000));
    expect(first.statusCode).toBe(201);
    const second = await upload(csvOf(2000));
    expect(second.statusCode).toBe(507);
    expect(second.json<{ message: string }>().message).toMatch(/space for uploads is full/);
    await t.call('POST', `/api/admin/imports/jobs/${first.json<ImportJob>().id}/cancel`, { token: admin });
    expect((await upload(csvOf(2000))).statusCode).toBe(201);
  });

  it('lets one administrator have two uploads arriving at once; a third is 429', async () => {
    await t.db.query("UPDATE import_jobs SET status = 'cancelled'");
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    // Two uploads over real sockets, their bodies still arriving.
    const arriving = [0, 1].map(() => {
      const request = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/admin/imports/jobs?fileName=slow.csv',
        headers: { 'x-api-key': t.apiKey, authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
      });
      const answered = new Promise<number>((resolve, reject) => {
        request.on('response', (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        request.on('error', reject);
      });
      request.write('meter_number');
      return { request, answered };
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const third = await upload(CSV);
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBe('10');
    for (const { request } of arriving) request.end(',timestamp,register_kwh\n');
    expect(await Promise.all(arriving.map(({ answered }) => answered))).toEqual([201, 201]);
    expect((await upload(CSV)).statusCode).toBe(201);
  });
});
