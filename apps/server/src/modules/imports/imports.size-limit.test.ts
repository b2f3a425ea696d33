import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_HEADER, Role } from '@cm/contracts/enums.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';
import { insertLocation, insertMeter } from '../../test/factories.ts';

// Imports are capped at CM_IMPORT_MAX_BYTES, counted as the file streams in: past the limit the
// import stops, stores nothing and answers 413 with the limit in words.

const LIMIT = 4096;
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ CM_IMPORT_MAX_BYTES: String(LIMIT) });
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  const site = await insertLocation(t.db, 'Limit site', 'Europe/Dublin');
  await insertMeter(t.db, {
    meterNumber: 'LIM-1',
    locationId: site,
    meterInd: 1,
    installedAt: new Date('2020-01-01T00:00:00Z'),
  });
  admin = (await t.login('admin@test.cm', 'Admin!pass1')).token;
});
afterAll(() => t.close());

/** A CSV of `rows` quarter-hourly register readings of LIM-1. */
function csv(rows: number): string {
  const lines = ['meter_number,timestamp,register_kwh'];
  for (let i = 0; i < rows; i++) {
    const at = new Date(Date.UTC(2024, 0, 1) + i * 15 * 60_000).toISOString();
    lines.push(`LIM-1,${at},${(100 + i / 4).toFixed(3)}`);
  }
  return `${lines.join('\n')}\n`;
}
/** The most rows whose CSV fits in `bytes`. */
function rowsFitting(bytes: number): number {
  let rows = 1;
  while (Buffer.byteLength(csv(rows + 1)) <= bytes) rows++;
  return rows;
}

const storedCount = async () =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM register_readings'))[0]?.n ?? -1;
const importAudits = async () =>
  (
    await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'readings.import'`,
    )
  )[0]?.n ?? -1;
const upload = (payload: string | Readable, contentType = 'text/csv', query = '') =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/imports${query}`,
    headers: { [API_KEY_HEADER]: t.apiKey, authorization: `Bearer ${admin}`, 'content-type': contentType },
    payload,
  });

function expectTooLarge(response: { statusCode: number; json(): unknown }) {
  expect(response.statusCode).toBe(413);
  expect(response.json()).toMatchObject({
    statusCode: 413,
    error: 'Payload Too Large',
    message: expect.stringMatching(/import limit of 4 KiB \(4096 bytes\).*nothing was stored/),
  });
}

describe('import size limit', () => {
  it('imports a file of exactly the limit', async () => {
    const rows = rowsFitting(LIMIT);
    const file = csv(rows);
    expect(Buffer.byteLength(file)).toBeGreaterThan(LIMIT - 60);
    const response = await upload(file);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ committed: true, inserted: rows });
    await t.db.query('DELETE FROM register_readings');
    await t.db.query('DELETE FROM audit_log');
  });

  it('refuses a file whose Content-Length is over the limit before reading it', async () => {
    const file = csv(rowsFitting(LIMIT) + 1);
    expect(Buffer.byteLength(file)).toBeGreaterThan(LIMIT);
    expectTooLarge(await upload(file));
    expect(await storedCount()).toBe(0);
    expect(await importAudits()).toBe(0);
  });

  it('counts the bytes of a file streamed without Content-Length, stopping and storing nothing past the limit', async () => {
    const file = Buffer.from(csv(400));
    // In several chunks: the first ones are valid rows already parsed when the limit is passed.
    const chunks = [0, 1, 2, 3, 4]
      .map((i) => file.subarray(i * 2000, (i + 1) * 2000))
      .filter((c) => c.length);
    expectTooLarge(await upload(Readable.from(chunks)));
    expect(await storedCount()).toBe(0);
    expect(await importAudits()).toBe(0);
  });

  it('applies to Green Button XML too', async () => {
    const entry = '<entry><content><IntervalBlock xmlns="http://naesb.org/espi"/></content></entry>';
    const feed = `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom">${entry.repeat(80)}</feed>`;
    expect(Buffer.byteLength(feed)).toBeGreaterThan(LIMIT);
    expectTooLarge(
      await upload(Readable.from([Buffer.from(feed)]), 'application/atom+xml', '?meterNumber=LIM-1'),
    );
    expect(await storedCount()).toBe(0);
  });

  it('answers 413 over a real connection while the client is still sending (no reset connection)', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/admin/imports',
          headers: {
            [API_KEY_HEADER]: t.apiKey,
            authorization: `Bearer ${admin}`,
            'content-type': 'text/csv',
          },
        },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      request.on('error', reject);
      // 2 MB in 16 KiB chunks, far past the limit; the answer may come before the last one.
      const chunk = csv(500);
      let sent = 0;
      const send = () => {
        while (sent < 2_000_000) {
          sent += chunk.length;
          if (!request.write(chunk)) return void request.once('drain', send);
        }
        request.end();
      };
      send();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ message: expect.stringContaining('4 KiB') });
    expect(await storedCount()).toBe(0);
  });
});
