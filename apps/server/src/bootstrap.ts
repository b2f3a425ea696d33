import type { Config } from './config.ts';
import { openPostgres, type Db } from './db/client.ts';
import { startEmbeddedPostgres } from './db/embedded-postgres.ts';
import { importLegacyPglite } from './db/legacy-pglite.ts';
import { migrate } from './db/migrate.ts';
import { provisionJwtSecret } from './modules/auth/auth.service.ts';
import { provisionWebApiKey } from './modules/api-keys/api-keys.service.ts';

/** CM's database: the embedded PostgreSQL server (started here) or the one DATABASE_URL names. `close` ends both. */
export async function openDatabase(config: Config): Promise<Db> {
  const { database } = config;
  if (database.kind === 'postgres') return openPostgres(database);
  const server = await startEmbeddedPostgres(database.dataDir);
  const db = await openPostgres({ ...database, url: server.url, kind: 'embedded' }).catch(
    async (error: unknown) => {
      await server.stop();
      throw error;
    },
  );
  return {
    ...db,
    async close() {
      await db.close();
      await server.stop();
    },
  };
}

/**
 * Everything start-up does before listening: migrations, the earlier version's embedded database
 * copied in (once), the web app's key and the token secret.
 */
export async function prepare(db: Db, config: Config) {
  const migrations = await migrate(db);
  const legacyReadings =
    config.database.kind === 'embedded' ? await importLegacyPglite(config.dataDir, db) : undefined;
  const webApiKey = await provisionWebApiKey(db, config.dataDir, config.webApiKey);
  const jwtSecret = await provisionJwtSecret(db, config.jwtSecret);
  return { migrations, legacyReadings, webApiKey, jwtSecret };
}
