import type { Config } from './config.ts';
import { openPostgres, type Db } from './db/client.ts';
import { startEmbeddedPostgres, type WatchOptions } from './db/embedded-postgres.ts';
import { importLegacyPglite } from './db/legacy-pglite.ts';
import { migrate } from './db/migrate.ts';
import { checkSecretsKey, provisionJwtSecret } from './modules/auth/index.ts';
import { sealWebhookSecrets } from './modules/alerts/index.ts';
import { openSecretBox } from './secrets.ts';
import { provisionWebApiKey } from './modules/api-keys/index.ts';

/**
 * CM's database: the embedded PostgreSQL server (started here, and restarted should it die) or the
 * one DATABASE_URL names. `close` ends both. Once the embedded server's restarts are used up,
 * `watch.onGiveUp` is called (main.ts exits; by default the error is logged and the database stays down).
 */
export async function openDatabase(config: Config, watch?: Partial<WatchOptions>): Promise<Db> {
  const { database } = config;
  if (database.kind === 'postgres') return openPostgres(database);
  const server = await startEmbeddedPostgres(database.dataDir, [], {
    onGiveUp: (error) => console.error(error.message),
    ...watch,
  });
  const db = await openPostgres({ ...database, url: server.url, kind: 'embedded' }).catch(
    async (error: unknown) => {
      await server.stop();
      throw error;
    },
  );
  return {
    ...db,
    serverState: () => server.state,
    async close() {
      await db.close();
      await server.stop();
    },
  };
}

/**
 * Everything start-up does before listening: migrations, the earlier version's embedded database
 * copied in (once), the web app's key, the secrets key (checked against the database's sealed
 * secrets, and sealing those an earlier version kept in clear) and the token secret.
 */
export async function prepare(db: Db, config: Config) {
  const migrations = await migrate(db);
  const legacyReadings =
    config.database.kind === 'embedded' ? await importLegacyPglite(config.dataDir, db) : undefined;
  const webApiKey = await provisionWebApiKey(db, config.dataDir, config.webApiKey);
  const secrets = await openSecretBox(config.secretsKey, config.dataDir);
  await checkSecretsKey(db, secrets);
  await sealWebhookSecrets(db, secrets);
  const jwtSecret = await provisionJwtSecret(db, config.jwtSecret, secrets);
  return { migrations, legacyReadings, webApiKey, jwtSecret, secrets };
}
