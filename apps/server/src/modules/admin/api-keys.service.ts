import type { AdminApiKey } from '@cm/contracts/admin.ts';
import type { ApiKeyScope } from '@cm/contracts/enums.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../http-error.ts';
import { insertApiKey, revokeApiKey } from '../api-keys/api-keys.queries.ts';
import { generateApiKey, type ApiKeyVerifier } from '../api-keys/api-keys.service.ts';
import { presentApiKey } from './admin.presenter.ts';
import { findApiKey, listApiKeys } from './api-keys.queries.ts';
import { writeAudit, type Actor } from './audit.queries.ts';

export class AdminApiKeysService {
  constructor(
    private readonly db: Db,
    private readonly verifier: ApiKeyVerifier,
  ) {}

  async list(): Promise<{ items: AdminApiKey[] }> {
    return { items: (await listApiKeys(this.db)).map(presentApiKey) };
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
      await writeAudit(tx, actor, {
        action: 'api-key.create',
        targetType: 'api-key',
        targetId: inserted.id,
        detail: { name, prefix, scopes: uniqueScopes },
      });
      return inserted;
    });
    return { key, apiKey: presentApiKey(row) };
  }

  async revoke(actor: Actor, id: number): Promise<AdminApiKey> {
    await this.db.transaction(async (tx) => {
      const row = await findApiKey(tx, id);
      if (!row) throw notFound('API key not found.');
      if (await revokeApiKey(tx, id)) {
        await writeAudit(tx, actor, {
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
    return presentApiKey(row);
  }
}
