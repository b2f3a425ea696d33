import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { SecretBox } from './secrets.ts';
import { ApiKeyVerifier, AdminApiKeysService, apiKeyNames, apiKeysRoutes } from './modules/api-keys/index.ts';
import {
  authRoutes,
  AuthService,
  TokenSigner,
  AdminUsersService,
  userNames,
  usersRoutes,
} from './modules/auth/index.ts';
import { bookmarksRoutes, BookmarksService } from './modules/bookmarks/index.ts';
import { checkRoutes, CheckService } from './modules/check/index.ts';
import { healthRoutes } from './modules/health/index.ts';
import { readRouting } from './plugins/read-routing.ts';
import { readings, packQueuedMonths } from './modules/readings/index.ts';
import { openReplicas } from './db/open-replicas.ts';
import { OutboundPolicy } from './outbound.ts';
import { apiKeyGuard } from './plugins/api-key.ts';
import { isApiRequest } from './plugins/api-route.ts';
import { authentication } from './plugins/authentication.ts';
import { errorHandler, frameworkErrors } from './plugins/error-handler.ts';
import { housekeeping } from './plugins/housekeeping.ts';
import { inputGuard } from './plugins/input-guard.ts';
import { LoadGauge, loadShedding } from './plugins/load-shedding.ts';
import { openApi } from './plugins/open-api.ts';
import { securityHeaders } from './plugins/security-headers.ts';
import { webApp } from './plugins/web-app.ts';
import { AuditLogService, auditRoutes } from './modules/audit/index.ts';
import {
  AdminDevicesService,
  deviceNames,
  devicesRoutes,
  AdminLocationsService,
  locationNames,
  locationsRoutes,
  findExportMeter,
  findVisibleItem,
} from './modules/directory/index.ts';
import { adminTariffsRoutes, tariffsRoutes, TariffsService } from './modules/tariffs/index.ts';
import {
  adminSeriesRoutes,
  ingestSeriesRoutes,
  SeriesService,
  seriesRoutes,
} from './modules/series/index.ts';
import { adminAlertsRoutes, alertsRoutes, AlertsService, smtpMailer } from './modules/alerts/index.ts';
import { importsRoutes, ImportJobsService, ImportsService } from './modules/imports/index.ts';
import { ingestRoutes, IngestService } from './modules/ingest/index.ts';
import { downloadRoutes, exportsRoutes, ExportsService } from './modules/exports/index.ts';
import { AccessLogService, accessLogRoutes, AccessRecorder } from './modules/access-log/index.ts';
import {
  connectAppNames,
  connectAppsRoutes,
  ConnectAppsService,
  connectGrantsRoutes,
  ConnectGrantsService,
  createOauthProvider,
  espiApiRoutes,
  EspiApiService,
  EspiNotifier,
  oauthRoutes,
} from './modules/connect/index.ts';
import { scopeOf } from './modules/access/index.ts';

// Months packed per run at most (a few seconds of work); the rest wait for the next run.
const PACKED_PER_RUN = 2_000;

export interface AppDeps {
  config: Config;
  db: Db;
  /** The web app's API key, written into index.html. */
  webApiKey: string;
  /** The secret access tokens are signed with. */
  jwtSecret: string;
  /** Seals the secrets kept in the database (secrets.ts). */
  secrets: SecretBox;
}

/** The whole HTTP application: plugins first, then modules, in the order they are listed here. */
export async function buildApp({
  config,
  db,
  webApiKey,
  jwtSecret,
  secrets,
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers["x-api-key"]'] },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: proxyTrust(config.trustProxy),
    // A slow client must not hold a connection for ever: 60 s for headers and of silence, and one
    // hour for a whole request, body included, so that a large import (CM_IMPORT_MAX_BYTES) can
    // finish uploading on a slow link; a body must also keep arriving at a minimum rate
    // (plugins/load-shedding.ts, CM_BODY_MIN_BYTES_PER_SECOND).
    requestTimeout: 3_600_000,
    connectionTimeout: 60_000,
    return503OnClosing: true,
    frameworkErrors,
    routerOptions: { maxParamLength: 200 },
    ajv: { customOptions: { removeAdditional: false } },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const replicas = await openReplicas(config, db, (name, problem) =>
    app.log.warn({ replica: name, problem }, 'read replica down'),
  );
  app.addHook('onReady', async () => replicas.start());
  app.addHook('onClose', async () => replicas.close());
  const outbound = new OutboundPolicy(config.outboundAllow);
  // ESPI notifications: imports and device batches tell which meters they added readings to.
  const espiNotifier = new EspiNotifier(db, config.publicUrl, outbound, app.log);
  app.addHook('onClose', async () => espiNotifier.stop());
  const imports = new ImportsService(db, espiNotifier);
  // "Who read my data": reads are written in batches, off the request's path (recorder.ts).
  const access = new AccessRecorder(db, app.log);
  app.addHook('onReady', async () => access.start());
  app.addHook('onClose', async () => access.stop());
  // The check page's reads may go to a replica that has caught up (plugins/read-routing.ts).
  const check = new CheckService(replicas.routed(), {
    useChunks: !config.disabledLayers.has('chunks'),
    access,
  });
  const alerts = new AlertsService(
    db,
    secrets,
    smtpMailer(config.alerts.smtpUrl, config.alerts.from, { allowPlainAuth: config.alerts.allowPlainAuth }),
    app.log,
    (location, nowMs) => check.billsToDate(location, nowMs),
    outbound,
    access,
  );
  const services = {
    apiKeys: new ApiKeyVerifier(db),
    auth: new AuthService(db, new TokenSigner(jwtSecret), {
      idleSeconds: config.sessionIdleSeconds,
      maxSeconds: config.sessionMaxSeconds,
      tokenTtlSeconds: config.tokenTtlSeconds,
    }),
    check,
    bookmarks: new BookmarksService(db),
    imports,
    importJobs: new ImportJobsService(
      db,
      imports,
      path.join(config.dataDir, 'imports', 'jobs'),
      app.log,
      () => alerts.soon(),
      // Two uploads arriving at once per administrator (security probe 2026-11-27, finding 6).
      { maxBytes: config.importSpoolMaxBytes, uploadsPerUser: 2 },
    ),
    alerts,
  };
  app.addHook('onReady', async () => services.apiKeys.follow());
  app.addHook('onClose', async () => services.apiKeys.stop());
  // Import jobs run in the background from the moment the server is ready, and stop with it.
  app.addHook('onReady', async () => services.importJobs.start());
  app.addHook('onClose', async () => services.importJobs.stop());
  // Alert rules are evaluated on a schedule, and soon after readings arrive (a device batch, an
  // import answered at once); import jobs tell when they finish.
  app.addHook('onReady', async () => alerts.start(config.alerts.everySeconds));
  app.addHook('onClose', async () => alerts.stop());
  app.addHook('onResponse', async (request, reply) => {
    const path = request.routeOptions.url;
    if (
      request.method === 'POST' &&
      reply.statusCode < 300 &&
      (path === '/api/ingest/readings' || path === '/api/admin/imports')
    )
      alerts.soon();
  });

  // Plugins.
  await app.register(errorHandler);
  await app.register(securityHeaders);
  app.addHook('onSend', async (request, reply) => {
    // API answers hold tokens and client data: no browser or proxy cache may keep them (ASVS V14.3).
    if (isApiRequest(request)) reply.header('Cache-Control', 'no-store');
  });
  const load = new LoadGauge();
  // Enough to keep every database connection busy with a queue behind it, bounded (queue-flood drill).
  await app.register(loadShedding, {
    maxInFlight: Math.max(32, 8 * (config.database.kind === 'postgres' ? config.database.poolSize : 4)),
    maxEventLoopDelayMs: config.maxEventLoopDelayMs,
    gauge: load,
    // A user's own heavy requests (HEAVY_ROUTES) queue behind each other: 2 worked on, 16 waiting.
    heavy: config.heavyPerUser,
    bodyLimit: config.bodyLimitBytes,
    ...config.slowClients,
  });
  await app.register(readRouting, { replicas });
  await app.register(openApi);
  await app.register(inputGuard);
  await app.register(apiKeyGuard, { verifier: services.apiKeys });
  await app.register(authentication, { auth: services.auth });
  const accessLog = new AccessLogService(db, access, async (caller, meterNumber) =>
    (await findVisibleItem(db, scopeOf(caller), 'meter', meterNumber))
      ? findExportMeter(db, meterNumber)
      : undefined,
  );
  // Connect My Data (issue 37): the OAuth server customers consent through, and their grants.
  const provider = await createOauthProvider({
    db,
    publicUrl: config.publicUrl,
    secret: jwtSecret,
    isBehindProxy: config.trustProxy !== false,
    log: app.log,
  });
  const grants = new ConnectGrantsService(db, provider, app.log);
  await app.register(housekeeping, {
    jobs: {
      auth: () => services.auth.purgeExpired(),
      accessLog: () => accessLog.purge(),
      oauth: () => grants.purgeExpired(),
      uploads: () => services.importJobs.expireUploads(),
      partitions: () => readings.makeRoomAhead(db),
    },
    everyMs: 3_600_000,
  });
  // ESPI notifications not taken yet are tried again every minute (their backoff says when).
  await app.register(housekeeping, {
    jobs: { espiNotifications: () => espiNotifier.deliver() },
    everyMs: 60_000,
  });
  // Months changed by writes are packed soon, so the first request for a meter's year finds them.
  await app.register(housekeeping, {
    jobs: { chunks: () => packQueuedMonths(db, PACKED_PER_RUN) },
    everyMs: config.packEverySeconds * 1000,
  });

  // Modules.
  await app.register(healthRoutes, {
    db,
    replicas,
    load,
    disk: { dir: config.dataDir, lowBytes: config.diskLowBytes },
    backlog: async (lateMs) => ({
      ...(await alerts.overdue(lateMs)),
      imports: services.importJobs.backlog(),
    }),
  });
  await app.register(authRoutes, { auth: services.auth });
  await app.register(checkRoutes, { check: services.check, disabledLayers: config.disabledLayers });
  await app.register(bookmarksRoutes, { bookmarks: services.bookmarks });
  const tariffs = new TariffsService(db);
  await app.register(tariffsRoutes, { tariffs });
  const series = new SeriesService(db);
  await app.register(seriesRoutes, { series });
  await app.register(alertsRoutes, { alerts });
  // Administration and data in/out (issue 6): every /api/admin route is administrator-only.
  await app.register(usersRoutes, { users: new AdminUsersService(db) });
  await app.register(locationsRoutes, { locations: new AdminLocationsService(db) });
  await app.register(adminTariffsRoutes, { tariffs });
  await app.register(adminSeriesRoutes, { series });
  await app.register(adminAlertsRoutes, { alerts });
  await app.register(devicesRoutes, { devices: new AdminDevicesService(db, access) });
  await app.register(apiKeysRoutes, { apiKeys: new AdminApiKeysService(db, services.apiKeys, webApiKey) });
  const auditNames = {
    user: userNames,
    apiKey: apiKeyNames,
    location: locationNames,
    device: deviceNames,
    connectApp: connectAppNames,
  };
  await app.register(auditRoutes, { audit: new AuditLogService(db, auditNames) });

  await app.register(importsRoutes, {
    imports: services.imports,
    jobs: services.importJobs,
    maxBytes: config.importMaxBytes,
    spoolDir: path.join(config.dataDir, 'imports'),
  });
  const exportsService = new ExportsService(db, access);
  await app.register(exportsRoutes, { exports: exportsService });
  await app.register(downloadRoutes, { exports: exportsService });
  await app.register(ingestRoutes, { ingest: new IngestService(db, espiNotifier) });
  await app.register(ingestSeriesRoutes, { series });
  await app.register(accessLogRoutes, { accessLog });
  // Connect My Data: the OAuth server under /oauth, the consent and grants, the ESPI API.
  await app.register(connectAppsRoutes, { apps: new ConnectAppsService(db), grants });
  await app.register(connectGrantsRoutes, { grants });
  await app.register(oauthRoutes, { provider });
  // A grant of cost reads the meter's bill as the check page prices it (UsageSummary).
  const espi = new EspiApiService(db, provider, exportsService, access, (userId, meterNumber, fromMs, toMs) =>
    check.meterCost(userId, meterNumber, fromMs, toMs),
  );
  await app.register(espiApiRoutes, { espi });

  // The web app answers everything else.
  await app.register(webApp, { distDir: config.webDist, apiKey: webApiKey });
  return app;
}

/**
 * Fastify's trustProxy for CM_TRUST_PROXY. A hop count trusts the nearest `hops` forwarders
 * whoever they are (Fastify's own number option now trusts none, as a direct client could forge
 * the header): meant for a server that only its proxies can reach, as docs/configuration.md says.
 */
function proxyTrust(
  trust: Config['trustProxy'],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}
