import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminContext, type AdminContext } from '../admin-context.ts';

// Every admin route refuses clients and anonymous callers and changes nothing.
let t: AdminContext['t'];
let client: string;

beforeAll(async () => {
  ({ t, client } = await createAdminContext());
});
afterAll(() => t.close());

// Every admin endpoint, with a body that would be valid for an administrator where one is needed.
const ADMIN_ROUTES: Array<[method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown]> = [
  ['GET', '/api/admin/users'],
  ['GET', '/api/admin/users/1'],
  ['POST', '/api/admin/users', { email: 'x@test.cm', fullName: 'X', role: 2, password: 'long-enough-1' }],
  ['PATCH', '/api/admin/users/1', { fullName: 'Y' }],
  ['POST', '/api/admin/users/1/disable'],
  ['POST', '/api/admin/users/1/enable'],
  ['POST', '/api/admin/users/1/reset-password', {}],
  ['GET', '/api/admin/locations'],
  ['GET', '/api/admin/locations/1'],
  ['POST', '/api/admin/locations', { publicName: 'Z', timeZone: 'UTC' }],
  ['PATCH', '/api/admin/locations/1', { address: 'a' }],
  ['POST', '/api/admin/locations/1/archive'],
  ['POST', '/api/admin/locations/1/restore'],
  ['GET', '/api/admin/locations/1/meters'],
  ['GET', '/api/admin/locations/1/devices/tree'],
  ['GET', '/api/admin/devices'],
  ['GET', '/api/admin/devices/1'],
  ['POST', '/api/admin/devices', { type: 1, serial: 'S', locationId: 1 }],
  ['PATCH', '/api/admin/devices/1', { priority: 2 }],
  [
    'POST',
    '/api/admin/meters',
    { meterNumber: 'M', locationId: 1, meterInd: 9, installedAt: '2026-01-01T00:00:00Z' },
  ],
  ['GET', '/api/admin/meters/M'],
  ['PATCH', '/api/admin/meters/M', { priority: 2 }],
  ['POST', '/api/admin/meters/M/move', { cubeId: null }],
  [
    'POST',
    '/api/admin/meters/M/exchange',
    { at: '2026-02-01T00:00:00Z', finalRegister: 1, newMeterNumber: 'N', newStartRegister: 0 },
  ],
  ['GET', '/api/admin/api-keys'],
  ['POST', '/api/admin/api-keys', { name: 'k', scopes: ['read'] }],
  ['POST', '/api/admin/api-keys/1/revoke'],
  ['GET', '/api/admin/audit'],
  ['POST', '/api/admin/imports?format=csv', 'meter_number,timestamp,register_kwh\n'],
  ['GET', '/api/admin/exports/readings?meterNumber=M&From=2026-01-01&To=2026-01-02'],
];

describe('admin endpoints are for administrators only', () => {
  it('answers 403 to a client and 401 without a token on every admin endpoint, changing nothing', async () => {
    const auditBefore = await t.db.query('SELECT id FROM audit_log');
    for (const [method, url, body] of ADMIN_ROUTES) {
      const headers = typeof body === 'string' ? { 'content-type': 'text/csv' } : undefined;
      const asClient = await t.call(method, url, { token: client, body, ...(headers ? { headers } : {}) });
      expect(asClient.statusCode, `${method} ${url}`).toBe(403);
      expect(asClient.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
      const anonymous = await t.call(method, url, { body, ...(headers ? { headers } : {}) });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await t.db.query('SELECT id FROM audit_log')).toEqual(auditBefore);
  });
});
