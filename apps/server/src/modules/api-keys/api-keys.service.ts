import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ApiKeyScope } from '@cm/contracts/enums.ts';
import type { Db, SqlRunner } from '../../db/client.ts';
import type { ApiKeyIdentity } from '../access/index.ts';
import {
  findApiKeyByHash,
  findApiKeyNames,
  insertApiKey,
  revokeApiKey,
  touchApiKey,
} from './api-keys.queries.ts';

/** Keys are stored only as SHA-256: they are 32 random bytes, so a slow hash adds nothing but latency. */
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** A new key: `cm_` + 43 url-safe characters; the first 11 characters are its visible prefix. */
export function generateApiKey(): { key: string; prefix: string; keyHash: string } {
  const key = `cm_${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, 11), keyHash: hashApiKey(key) };
}

export async function createApiKey(db: Db, name: string, scopes: ApiKeyScope[]) {
  const { key, prefix, keyHash } = generateApiKey();
  const row = await insertApiKey(db, { name, prefix, keyHash, scopes });
  return { key, row };
}

const CACHE_MS = 5_000;
const TOUCH_EVERY_MS = 60_000;

// Every process listens here; a revocation in any of them empties all their caches.
const REVOKED_CHANNEL = 'cm_api_key_revoked';

/**
 * Checks API keys with a short cache so that every request does not cost a query. A revocation
 * takes effect at once in every process: the one that revokes tells the others (NOTIFY), each
 * following process drops its cache; a process that lost its listening connection drops it too
 * when it reconnects, and an entry never outlives CACHE_MS anyway.
 */
export class ApiKeyVerifier {
  private readonly cache = new Map<string, { identity: ApiKeyIdentity | null; until: number }>();
  private readonly touchedAt = new Map<number, number>();
  private unfollow: (() => Promise<void>) | undefined;

  constructor(private readonly db: Db) {}

  /** Starts hearing of revocations made by other processes. */
  async follow(): Promise<void> {
    this.unfollow ??= await this.db.listen(REVOKED_CHANNEL, () => this.cache.clear());
  }

  async stop(): Promise<void> {
    await this.unfollow?.();
    this.unfollow = undefined;
  }

  async verify(key: string): Promise<ApiKeyIdentity | null> {
    const keyHash = hashApiKey(key);
    const now = Date.now();
    const cached = this.cache.get(keyHash);
    let identity: ApiKeyIdentity | null;
    if (cached && cached.until > now) {
      identity = cached.identity;
    } else {
      const row = await findApiKeyByHash(this.db, keyHash);
      identity =
        row && !row.revoked_at ? { id: row.id, name: row.name, scopes: row.scopes.filter(isScope) } : null;
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(keyHash, { identity, until: now + CACHE_MS });
    }
    if (identity && (this.touchedAt.get(identity.id) ?? 0) + TOUCH_EVERY_MS < now) {
      this.touchedAt.set(identity.id, now);
      await touchApiKey(this.db, identity.id);
    }
    return identity;
  }

  async revoke(id: number): Promise<boolean> {
    const revoked = await revokeApiKey(this.db, id);
    this.cache.clear();
    await this.db.query('SELECT pg_notify($1, $2)', [REVOKED_CHANNEL, String(id)]);
    return revoked;
  }
}

function isScope(value: string): value is ApiKeyScope {
  return value === 'web' || value === 'read' || value === 'ingest';
}

/**
 * The web app's key, provisioned on first start and handed to the browser at run time (in
 * index.html), never baked into the bundle. It comes from CM_WEB_API_KEY when set; otherwise it
 * is created once and kept in the data folder (readable by the server's user only).
 */
export async function provisionWebApiKey(
  db: Db,
  dataDir: string,
  fromEnv: string | undefined,
): Promise<string> {
  if (fromEnv) {
    if (!(await findApiKeyByHash(db, hashApiKey(fromEnv)))) {
      await insertApiKey(db, {
        name: 'Web app',
        prefix: fromEnv.slice(0, 11),
        keyHash: hashApiKey(fromEnv),
        scopes: ['web'],
      });
    }
    return fromEnv;
  }
  const file = path.join(dataDir, 'web-api-key');
  const stored = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => undefined,
  );
  if (stored) {
    const row = await findApiKeyByHash(db, hashApiKey(stored));
    if (row && !row.revoked_at) return stored;
  }
  const { key } = await createApiKey(db, 'Web app', ['web']);
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return key;
}

/** API keys' names, for the audit log. */
export const apiKeyNames = (db: SqlRunner, ids: readonly number[]) => findApiKeyNames(db, ids);
