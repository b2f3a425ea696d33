import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_HEADER, Role } from '@cm/contracts/enums.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';
import { insertLocation, insertMeter } from '../../test/factories.ts';

// An upload that arrives slowly (or stalls) must not hold the database: the file is written to
// disk as it comes, and the import opens its transaction only once the whole file is there.

let t: TestApp;
let admin: string;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { email: 'admin@test.cm', password: 'Admin!pass1', role: Role.Admin });
  const site = await insertLocation(t.db, 'Slow site', 'UTC');
  await insertMeter(t.db, {
    meterNumber: 'SLOW-1',
    locationId: site,
    meterInd: 1,
    installedAt: new Date('2024-01-01T00:00:00Z'),
  });
  admin = (await t.login('admin@test.cm', 'Admin!pass1')).token;
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

const openTransactions = async () =>
  (
    await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND xact_start IS NOT NULL AND pid <> pg_backend_pid()`,
    )
  )[0]?.n ?? -1;

describe('a stalled upload', () => {
  it('holds no database transaction while its bytes are still on the way, then imports', async () => {
    const request = http.request(new URL('/api/admin/imports?format=csv', base), {
      method: 'POST',
      headers: { [API_KEY_HEADER]: t.apiKey, authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on('error', reject);
    });
    request.write('meter_number,timestamp,register_kwh\nSLOW-1,2024-02-01T00:00:00Z,1.000\n');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // The upload is silent now: nothing of it may be in the database, and other calls go on.
    expect(await openTransactions()).toBe(0);
    const health = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(500) });
    expect(health.status).toBe(200);
    request.end('SLOW-1,2024-02-01T00:15:00Z,1.250\n');
    const { status, body } = await answer;
    expect(status, body).toBe(200);
    expect(JSON.parse(body)).toMatchObject({ committed: true, inserted: 2 });
  });
});
