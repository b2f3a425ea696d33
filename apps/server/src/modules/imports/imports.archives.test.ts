import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '@cm/contracts/admin.ts';
import type { ImportJob } from '@cm/contracts/import-jobs.ts';
import { Role } from '@cm/contracts/enums.ts';
import { createTestApp, insertUser, type TestApp, signInNewAdmin } from '../../test/test-app.ts';
import { insertLocation, insertMeter } from '../../test/factories.ts';

// Uploads that are not plain UTF-8 text (issue 32, probe finding 8): a ZIP or gzip of one file is
// opened, UTF-16 read, anything binary refused as "not a text file" (415) without echoing its
// bytes, and no refused upload leaves its file in the spool. The archives are fixtures/archives
// (make_archives.py); their CSV holds three quarter hours of ZIP-1, 0.875 kWh.

const ARCHIVES = path.resolve(import.meta.dirname, '../../../../../fixtures/archives');
const archive = (name: string) => readFile(path.join(ARCHIVES, name));
const CSV =
  'meter_number,timestamp,interval_kwh\r\nZIP-1,2024-03-01T00:15:00Z,0.250\r\nZIP-1,2024-03-01T00:30:00Z,0.125\r\nZIP-1,2024-03-01T00:45:00Z,0.500\r\n';
/** What Excel's "Unicode text" holds: a UTF-16LE byte-order mark, then UTF-16LE. */
const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) =>
  Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signInNewAdmin(t);
  const site = await insertLocation(t.db, 'Archive site', 'Europe/Berlin');
  await insertMeter(t.db, {
    meterNumber: 'ZIP-1',
    locationId: site,
    meterInd: 1,
    intervalMinutes: 15,
    installedAt: new Date('2020-01-01T00:00:00Z'),
  });
});
afterAll(() => t.close());

const headers = () => ({
  'x-api-key': t.apiKey,
  authorization: `Bearer ${admin}`,
  'content-type': 'application/octet-stream',
});
const uploadJob = (body: Buffer, fileName: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/imports/jobs?fileName=${encodeURIComponent(fileName)}`,
    headers: headers(),
    payload: body,
  });
const importNow = (body: Buffer) =>
  t.app.inject({ method: 'POST', url: '/api/admin/imports', headers: headers(), payload: body });
/** The files in the upload spool (jobs uploaded and not started keep theirs). */
const spooled = async () =>
  (await readdir(path.join(t.dataDir, 'imports'), { recursive: true }).catch(() => [])).filter((name) =>
    name.endsWith('.upload'),
  );
/** Uploads spooled since `before` (an earlier test's job may meanwhile have used up its own). */
const spooledSince = async (before: string[]) => (await spooled()).filter((name) => !before.includes(name));
const storedKwh = async () => {
  const [row] = await t.db.query<{ n: number; micro: number }>(
    `SELECT count(*)::int AS n, coalesce(sum(energy_micro), 0)::bigint AS micro FROM interval_readings r
       JOIN meters m ON m.device_id = r.meter_id WHERE m.meter_number = 'ZIP-1'`,
  );
  return { n: row?.n ?? -1, micro: Number(row?.micro ?? -1) };
};
/** No raw bytes: the message holds printable characters only. */
const expectPrintable = (text: string) =>
  expect(
    [...text].filter((c) => {
      const code = c.codePointAt(0) ?? 0;
      return code < 0x20 || (code >= 0x7f && code < 0xa0) || code === 0xfffd;
    }),
  ).toEqual([]);

describe('archives and encodings on upload', () => {
  it('a ZIP of one CSV is a job, not a 500: detected as the CSV inside', async () => {
    const response = await uploadJob(await archive('readings.zip'), 'readings.zip');
    expect(response.statusCode, response.body.slice(0, 300)).toBe(201);
    const job = response.json<ImportJob>();
    expect(job.detection.format).toBe('csv');
    expect(job.detection.reason).toContain('ZIP archive ("readings.csv")');
    // The job's file is the CSV, expanded.
    expect(job.bytes).toBe(Buffer.byteLength(CSV));
  });

  it('the one-shot import reads a ZIP of one CSV (it echoed the archive as "Wrong columns")', async () => {
    const response = await importNow(await archive('readings.zip'));
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.json<ImportReport>()).toMatchObject({ committed: true, inserted: 3, rejectedCount: 0 });
    // 0.250 + 0.125 + 0.500 kWh, as the CSV inside says.
    expect(await storedKwh()).toEqual({ n: 3, micro: 875_000 });
  });

  it('folders and macOS resource forks in a ZIP are not data files', async () => {
    const response = await importNow(await archive('macos.zip'));
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.json<ImportReport>()).toMatchObject({ inserted: 0, unchanged: 3 });
  });

  it('a gzip file is opened', async () => {
    const response = await importNow(gzipSync(CSV));
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.json<ImportReport>()).toMatchObject({ inserted: 0, unchanged: 3 });
  });

  it('UTF-16 (either byte order, with its BOM) is read: a job, then an import', async () => {
    const job = await uploadJob(utf16le(CSV), 'unicode.txt');
    expect(job.statusCode, job.body.slice(0, 300)).toBe(201);
    expect(job.json<ImportJob>().detection).toMatchObject({ format: 'csv' });
    expect(job.json<ImportJob>().detection.reason).toContain('UTF-16LE');
    for (const body of [utf16le(CSV), utf16be(CSV), Buffer.from(`\ufeff${CSV}`)]) {
      const response = await importNow(body);
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      expect(response.json<ImportReport>()).toMatchObject({ unchanged: 3, rejectedCount: 0 });
    }
  });

  it('a ZIP of several files is refused naming them, and leaves nothing behind', async () => {
    const before = await spooled();
    const response = await uploadJob(await archive('two-files.zip'), 'two.zip');
    expect(response.statusCode).toBe(400);
    const { message } = response.json<{ message: string }>();
    expect(message).toContain('2 files');
    expect(message).toContain('"january.csv"');
    expect(message).toContain('"february.csv"');
    expect(await spooledSince(before)).toEqual([]);
  });

  it('binary files are "not a text file" (415), never echoed, never left in the spool', async () => {
    const before = await spooled();
    const png = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n\0\0\0\rIHDR', 'latin1'), Buffer.alloc(64, 7)]);
    const nulInHeader = Buffer.from('meter_number,time\0stamp,register_kwh\nZIP-1,2024-03-01T00:00:00Z,1\n');
    for (const body of [png, nulInHeader, await archive('image.zip')]) {
      for (const response of [await uploadJob(body, 'file.bin'), await importNow(body)]) {
        expect(response.statusCode, response.body.slice(0, 300)).toBe(415);
        const { message } = response.json<{ message: string }>();
        expect(message).toContain('not a text file');
        expectPrintable(message);
      }
    }
    expect(await spooledSince(before)).toEqual([]);
  });

  it('a NUL past the first bytes never reaches a jsonb column: the job finishes, its report shows the line', async () => {
    let text = 'meter_number,timestamp,interval_kwh\n';
    for (let i = 0; text.length < 20_000; i++)
      text += `ZIP-1,${new Date(Date.UTC(2024, 4, 1) + i * 900_000).toISOString()},0.1\n`;
    text += 'ZIP-1,2024-06-01T00:00:00Z,0.5\u0000\n';
    const upload = await uploadJob(Buffer.from(text), 'late-nul.csv');
    expect(upload.statusCode, upload.body.slice(0, 300)).toBe(201);
    const { id } = upload.json<ImportJob>();
    const started = await t.call('POST', `/api/admin/imports/jobs/${id}/start`, { token: admin, body: {} });
    expect(started.statusCode, started.body.slice(0, 300)).toBe(202);
    let job = started.json<ImportJob>();
    for (let tries = 0; ['queued', 'running'].includes(job.status) && tries < 600; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = (await t.call('GET', `/api/admin/imports/jobs/${id}`, { token: admin })).json<ImportJob>();
    }
    expect(job.status, job.error ?? '').toBe('done');
    expect(job.report?.rejectedCount).toBe(1);
    expectPrintable(job.report?.rejected[0]?.reason ?? '');
  });

  it('a zip bomb is refused while it inflates (413), storing and keeping nothing', async () => {
    const before = await spooled();
    // bomb.zip: 50 MiB of "0" in 51 kB, past MAX_RATIO (500-fold).
    const response = await uploadJob(await archive('bomb.zip'), 'bomb.zip');
    expect(response.statusCode, response.body.slice(0, 300)).toBe(413);
    expect(response.json<{ message: string }>().message).toContain('zip bomb');
    const gzipBomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, '0'));
    const again = await importNow(gzipBomb);
    expect(again.statusCode).toBe(413);
    expect(await spooledSince(before)).toEqual([]);
  });
});

describe('the import limit counts the expanded bytes', () => {
  let small: TestApp;
  let token: string;
  beforeAll(async () => {
    small = await createTestApp({ CM_IMPORT_MAX_BYTES: String(64 * 1024) });
    await insertUser(small.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
    token = (await small.login('admin@test.cm', 'Admin!pass1')).token;
  });
  afterAll(() => small.close());

  it('a 40 kB gzip of 200 kB of text is over a 64 KiB limit', async () => {
    // Text that compresses about fivefold: well under the bomb ratio, over the limit expanded.
    let text = 'meter_number,timestamp,interval_kwh\n';
    for (let i = 0; text.length < 200_000; i++)
      text += `ZIP-1,${new Date(Date.UTC(2024, 0, 1) + i * 900_000).toISOString()},${((i * 7919) % 1000) / 1000}\n`;
    const body = gzipSync(text);
    expect(body.length).toBeLessThan(64 * 1024);
    const response = await small.app.inject({
      method: 'POST',
      url: '/api/admin/imports/jobs',
      headers: {
        'x-api-key': small.apiKey,
        authorization: `Bearer ${token}`,
        'content-type': 'application/gzip',
      },
      payload: body,
    });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(413);
    expect(response.json<{ message: string }>().message).toContain('expands past the import limit of 64 KiB');
  });
});
