import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminApiKey } from '@cm/contracts/admin.ts';
import { API_KEY_HEADER } from '@cm/contracts/enums.ts';
import { createAdminContext, auditActionsOf, type AdminContext } from '../../test/admin-context.ts';

let t: AdminContext['t'];
let admin: string;
let adminId: number;

beforeAll(async () => {
  ({ t, admin, adminId } = await createAdminContext());
});
afterAll(() => t.close());

const auditActions = (targetType: string, targetId: string | number) =>
  auditActionsOf(t.db, targetType, targetId);

describe('API keys', () => {
  it('creates a key shown once, lists it by prefix with last use, and revocation is immediate', async () => {
    const created = await t.call('POST', '/api/admin/api-keys', {
      token: admin,
      body: { name: 'Reporting', scopes: ['read'] },
    });
    expect(created.statusCode).toBe(201);
    const { key, apiKey } = created.json<{ key: string; apiKey: AdminApiKey }>();
    expect(key.startsWith(apiKey.prefix)).toBe(true);
    expect(apiKey).toMatchObject({ name: 'Reporting', scopes: ['read'], revokedAt: null });
    const stored = await t.db.query<{ key_hash: string }>('SELECT key_hash FROM api_keys WHERE id = $1', [
      apiKey.id,
    ]);
    expect(stored[0]?.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await t.db.query('SELECT * FROM api_keys'))).not.toContain(key);
    const withKey = await t.call('GET', '/api/auth/me', { token: admin, headers: { [API_KEY_HEADER]: key } });
    expect(withKey.statusCode).toBe(200);
    const listed = (await t.call('GET', '/api/admin/api-keys', { token: admin })).json<{
      items: AdminApiKey[];
    }>();
    expect(listed.items.find((k) => k.id === apiKey.id)?.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(
      (
        await t.call('POST', '/api/admin/api-keys', { token: admin, body: { name: 'x', scopes: ['admin'] } })
      ).json(),
    ).toMatchObject({ statusCode: 400 });
    const revoked = await t.call('POST', `/api/admin/api-keys/${apiKey.id}/revoke`, { token: admin });
    expect(revoked.json<AdminApiKey>().revokedAt).not.toBeNull();
    expect(
      (await t.call('GET', '/api/auth/me', { token: admin, headers: { [API_KEY_HEADER]: key } })).statusCode,
    ).toBe(401);
    expect((await t.call('POST', '/api/admin/api-keys/999999/revoke', { token: admin })).statusCode).toBe(
      404,
    );
    expect(await auditActions('api-key', apiKey.id)).toEqual(['api-key.create', 'api-key.revoke']);
    const audit = (await t.call('GET', '/api/admin/audit?targetType=api-key', { token: admin })).json<{
      items: Array<{ action: string; actorUserId: number }>;
    }>();
    expect(audit.items.map((e) => e.action)).toEqual(['api-key.revoke', 'api-key.create']);
    expect(audit.items[0]?.actorUserId).toBe(adminId);
  });

  it("refuses to revoke the web app's own key, which the list marks, so that sign-in keeps working", async () => {
    const listed = (await t.call('GET', '/api/admin/api-keys', { token: admin })).json<{
      items: AdminApiKey[];
    }>();
    const webKeys = listed.items.filter((k) => k.isWebApp);
    expect(webKeys).toHaveLength(1);
    const webKey = webKeys[0];
    expect(t.apiKey.startsWith(webKey?.prefix ?? '?')).toBe(true);
    const refused = await t.call('POST', `/api/admin/api-keys/${webKey?.id}/revoke`, { token: admin });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/web app's own key.*CM_WEB_API_KEY/);
    const [row] = await t.db.query<{ revoked_at: Date | null }>(
      'SELECT revoked_at FROM api_keys WHERE id = $1',
      [webKey?.id],
    );
    expect(row?.revoked_at).toBeNull();
    expect(await auditActions('api-key', webKey?.id ?? 0)).toEqual([]);
    // The web app's key still opens the API.
    expect((await t.call('GET', '/api/auth/me', { token: admin })).statusCode).toBe(200);
  });
});
