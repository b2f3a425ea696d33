import { buildApp } from './app.ts';
import { openDatabase, prepare } from './bootstrap.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { guardPublishedPasswords } from './demo/published-passwords.ts';
import { DEMO_LOGINS, isDatabaseEmpty, seedDemo } from './demo/seed.ts';
import { readings } from './modules/readings/index.ts';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function main() {
  const config = readConfig();
  const started = Date.now();
  // The embedded database is restarted should it die; past its restarts, CM exits for a supervisor to restart it.
  const db = await openDatabase(config, {
    onGiveUp(error) {
      console.error(`${error.message} Check Meter exits.`);
      process.exit(1);
    },
  });
  const { migrations, legacyReadings, webApiKey, jwtSecret, secrets } = await prepare(db, config);
  if (legacyReadings !== undefined) {
    console.log(
      `Copied the embedded database of an earlier version (PGlite, ${legacyReadings.toLocaleString('en')} readings) into PostgreSQL; the old folder is kept as pglite.imported.`,
    );
  }
  const shouldSeed =
    config.seedDemo === 'always' || (config.seedDemo === 'auto' && config.database.kind === 'embedded');
  let seeded = false;
  if (shouldSeed && (await isDatabaseEmpty(db))) {
    console.log('Empty database: creating the demo site (13 months of 15-minute readings)…');
    const summary = await seedDemo(db);
    // Let the server recycle the write-ahead log the big seed transaction left behind.
    await db.query('CHECKPOINT');
    seeded = true;
    console.log(
      `Demo data ready: ${summary.readings.toLocaleString('en')} readings for ${summary.meters} meters.`,
    );
  }
  // Serving a network: no account opens with a password the README publishes.
  const networkNotice = await guardPublishedPasswords(db, config.host);
  const app = await buildApp({ config, db, webApiKey, jwtSecret, secrets });
  await readings.warmUpConnections(db);
  readings.warmUpCode();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const where =
    config.database.kind === 'embedded'
      ? `embedded PostgreSQL in ${config.database.dataDir}/postgres`
      : 'PostgreSQL server';
  console.log(
    [
      '',
      `Check Meter is running: http://localhost:${port}`,
      `Database: ${where} (${migrations.applied} migrations applied now${seeded ? ', demo data created' : ''})`,
      `Started in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
      ...(config.database.kind === 'embedded' || seeded
        ? [
            'Demo logins:',
            ...DEMO_LOGINS.map(
              (login) => `  ${login.role.padEnd(8)} ${login.email.padEnd(22)} ${login.password}`,
            ),
          ]
        : []),
      ...(networkNotice ? [networkNotice] : []),
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error('Check Meter could not start:', error);
  process.exit(1);
});
