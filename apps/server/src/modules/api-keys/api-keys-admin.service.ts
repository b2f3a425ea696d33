import type { AdminApiKey } from '@cm/contracts/admin.ts';
import { apiKeyScopes, type ApiKeyScope } from '@cm/contracts/enums.ts';
import type { Db } from '../../db/client.ts';
import { conflict, notFound } from '../../http-error.ts';
import { findApiKey, insertApiKey, listApiKeys, revokeApiKey, type ApiKeyRow } from './api-keys.queries.ts';
import { generateApiKey, hashApiKey, type ApiKeyVerifier } from './api-keys.service.ts';
import type { Actor } from '../access/index.ts';
import { recordAudit } from '../audit/index.ts';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

function presentApiKey(row: ApiKeyRow, webApiKeyHash: string): AdminApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: apiKeyScopes.filter((scope) => row.scopes.includes(scope)),
    createdAt: row.created_at.toISOString(),
    lastUsedAt: iso(row.last_used_at),
    revokedAt: iso(row.revoked_at),
    isWebApp: row.key_hash === webApiKeyHash,
  };
}

export const WEB_APP_KEY_KEPT =
  "This is the web app's own key: revoking it would stop every browser from signing in. To replace it, set CM_WEB_API_KEY to a new key (or delete web-api-key in the data folder) and restart CM; then revoke this one.";

export class AdminApiKeysService {
  private readonly webApiKeyHash: string;

  constructor(
    private readonly db: Db,
    private readonly verifier: ApiKeyVerifier,
    webApiKey: string,
  ) {
    this.webApiKeyHash = hashApiKey(webApiKey);
  }

  async list(): Promise<{ items: AdminApiKey[] }> {
    return { items: (await listApiKeys(this.db)).map((row) => presentApiKey(row, this.webApiKeyHash)) };
  }

  /** The full key is answered this once; only its SHA-256 is stored (same generator as every other key). */
  async create(
    actor: Actor,
    name: string,
    scopes: ApiKeyScope[],
  ): Promise<{ key: string; apiKey: AdminApiKey }> {
    const { key, prefix, keyHash } = generateApiKey();
    const uniqueScopes = [...new Set(scopes)];
    const row = await this.db.transaction(async (tx) => {
      const inserted = await insertApiKey(tx, { name, prefix, keyHash, scopes: uniqueScopes });
      await recordAudit(tx, actor, {
        action: 'api-key.create',
        targetType: 'api-key',
        targetId: inserted.id,
        detail: { name, prefix, scopes: uniqueScopes },
      });
      return inserted;
    });
    return { key, apiKey: presentApiKey(row, this.webApiKeyHash) };
  }

  async revoke(actor: Actor, id: number): Promise<AdminApiKey> {
    await this.db.transaction(async (tx) => {
      const row = await findApiKey(tx, id);
      if (!row) throw notFound('API key not found.');
      if (row.key_hash === this.webApiKeyHash) throw conflict(WEB_APP_KEY_KEPT);
      if (await revokeApiKey(tx, id)) {
        await recordAudit(tx, actor, {
          action: 'api-key.revoke',
          targetType: 'api-key',
          targetId: id,
          detail: { prefix: row.prefix },
        });
      }
    });
    // Through the verifier, which drops its cache: the key stops working at once in this process.
    await this.verifier.revoke(id);
    const row = await findApiKey(this.db, id);
    if (!row) throw notFound('API key not found.');
    return presentApiKey(row, this.webApiKeyHash);
  }
}
