import type { Config } from './config.ts';
import { openPglite, openPostgres, type Db } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { insertSettingOnce } from './modules/auth/auth.queries.ts';
import { TokenSigner } from './modules/auth/tokens.ts';
import { provisionWebApiKey } from './modules/api-keys/api-keys.service.ts';

export async function openDatabase(config: Config): Promise<Db> {
  return config.database.kind === 'pglite'
    ? openPglite(config.database.dataDir)
    : openPostgres(config.database);
}

/** The token-signing secret: CM_JWT_SECRET, or one generated on first start and kept in the database so that every API process shares it. */
export async function jwtSecretFor(db: Db, config: Config): Promise<string> {
  return config.jwtSecret ?? (await insertSettingOnce(db, 'jwt_secret', TokenSigner.newSecret()));
}

/** Everything start-up does before listening: migrations, the web app's key and the token secret. */
export async function prepare(db: Db, config: Config) {
  const migrations = await migrate(db);
  const webApiKey = await provisionWebApiKey(db, config.dataDir, config.webApiKey);
  const jwtSecret = await jwtSecretFor(db, config);
  return { migrations, webApiKey, jwtSecret };
}
