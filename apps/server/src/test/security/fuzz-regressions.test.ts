import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_HEADER } from '@cm/contracts/enums.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { buildWorld, type World } from './world.ts';

// Fixed findings of the API fuzz tests (api-fuzz.unit.test.ts), pinned as plain examples so that
// they stay fixed on both databases whatever the fuzzer draws next time.

let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => t.close());

describe('fuzz findings', () => {
  it('takes register values that JSON writes in exponent notation (2e-88 kWh is 0 Wh), instead of answering 500', async () => {
    const exchange = await t.app.inject({
      method: 'POST',
      url: `/api/admin/meters/${w.other.meterNumber}/exchange`,
      headers: await w.headersFor('admin'),
      payload: {
        at: '2026-01-17T07:00:00Z',
        finalRegister: 2000,
        newMeterNumber: 'SEC-B-0002',
        newStartRegister: 2e-88,
      },
    });
    expect(exchange.statusCode).toBe(200);
    const ingest = await t.app.inject({
      method: 'POST',
      url: '/api/ingest/readings',
      headers: { [API_KEY_HEADER]: w.keys.ingest },
      payload: {
        readings: [
          { meterNumber: 'SEC-B-0002', readAt: '2026-01-17T08:00:00Z', register: 1e-7 },
          { meterNumber: 'SEC-B-0002', readAt: '2026-01-17T09:00:00Z', register: 1e21 },
        ],
      },
    });
    expect(ingest.statusCode).toBe(200);
    expect(ingest.json().results.map((result: { status: string }) => result.status)).toEqual([
      'accepted',
      'rejected',
    ]);
  });
});
