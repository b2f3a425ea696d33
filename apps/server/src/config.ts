import path from 'node:path';
import { z } from 'zod';
import { parseCidrs } from './outbound.ts';
import { repoRoot } from './paths.ts';

/**
 * The server's performance layers, each with a plain path to compare against: `chunks`, the
 * monthly packed readings kept by triggers (readings-store.ts); `json-writer`, the byte writer of
 * long numeric columns (json-columns.ts); `schema-json`, the compiled serializer of GetMeterInfo
 * (schema-json.ts).
 */
export const performanceLayers = ['chunks', 'json-writer', 'schema-json'] as const;
export type PerformanceLayer = (typeof performanceLayers)[number];
const isPerformanceLayer = (name: string): name is PerformanceLayer =>
  performanceLayers.some((layer) => layer === name);

const durationSeconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  // Loopback unless told otherwise: serving a network is a choice (docs/security.md, "Serving a network").
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  // The address customers and apps reach CM at: the OAuth issuer of Connect My Data is under it.
  CM_PUBLIC_URL: z
    .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
    .refine((url) => !url.endsWith('/'), 'must not end with /')
    .optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  // Streaming replicas of DATABASE_URL for the check page's reads, comma-separated.
  DATABASE_REPLICA_URLS: z
    .string()
    .default('')
    .transform((value, context) => {
      const urls = value
        .split(',')
        .map((url) => url.trim())
        .filter(Boolean);
      const wrong = urls.filter((url) => !/^postgres(ql)?:\/\//.test(url));
      if (wrong.length > 0) {
        context.addIssue({
          code: 'custom',
          message: 'each URL must start with postgres:// or postgresql://',
        });
        return z.NEVER;
      }
      return urls;
    }),
  // A replica further behind the primary than this is not read from.
  DATABASE_REPLICA_MAX_LAG_MS: z.coerce.number().int().min(100).max(3_600_000).default(5_000),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  CM_DATA_DIR: z.string().min(1).default('./data'),
  CM_SEED_DEMO: z.enum(['auto', 'always', 'never']).default('auto'),
  CM_JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  CM_WEB_API_KEY: z.string().min(24, 'must be at least 24 characters').optional(),
  // The key of the secrets kept in the database; unset: $CM_DATA_DIR/secrets.key, made on first start.
  CM_SECRETS_KEY: z
    .string()
    .refine(
      (value) => /^[A-Za-z0-9+/]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32,
      'must be 32 bytes in base64 (openssl rand -base64 32)',
    )
    .optional(),
  CM_SESSION_IDLE_SECONDS: durationSeconds(30 * 60),
  CM_SESSION_MAX_SECONDS: durationSeconds(12 * 60 * 60),
  CM_TOKEN_TTL_SECONDS: durationSeconds(15 * 60),
  CM_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(1024 * 1024),
  // Largest file one import may send: counted as it streams in, 2 GiB by default (issue 6 needs 1 GB files).
  CM_IMPORT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(2 ** 40)
    .default(2 * 1024 ** 3),
  // Uploads waiting to be imported (import jobs) may take this much disk in all; 8 GiB by default.
  CM_IMPORT_SPOOL_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(2 ** 44)
    .default(8 * 1024 ** 3),
  // Health says "degraded", "disk space low", below this many free bytes where CM_DATA_DIR is; 1 GiB by default.
  CM_DISK_LOW_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 50)
    .default(1024 ** 3),
  CM_TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, context) => {
      const parsed = parseTrustProxy(value);
      if ('problem' in parsed) {
        context.addIssue({ code: 'custom', message: parsed.problem });
        return z.NEVER;
      }
      return parsed.trust;
    }),
  CM_WEB_DIST: z.string().optional(),
  // Performance layers to turn off while debugging (see ARCHITECTURE.md): chunks, json-writer, schema-json.
  CM_DEBUG_DISABLE: z
    .string()
    .default('')
    .transform((value, context) => {
      const names = value
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      const unknown = names.filter((name) => !isPerformanceLayer(name));
      if (unknown.length > 0) {
        context.addIssue({
          code: 'custom',
          message: `unknown layer ${unknown.join(', ')}: expected any of ${performanceLayers.join(', ')}.`,
        });
        return z.NEVER;
      }
      return new Set(names.filter(isPerformanceLayer));
    }),
  // A request body of at most CM_BODY_LIMIT_BYTES must arrive whole within this; any body must
  // keep arriving at CM_BODY_MIN_BYTES_PER_SECOND at least. Slower ones are ended with 408.
  CM_BODY_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  CM_BODY_MIN_BYTES_PER_SECOND: z.coerce
    .number()
    .int()
    .min(1)
    .max(1024 ** 3)
    .default(1024),
  // Open connections one client address may hold (0: no cap; the default behind a trusted proxy,
  // whose address all connections come from).
  CM_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).max(100_000).optional(),
  // A user's heavy requests (a location's readings, exports, imports) worked on at once; eight
  // times as many may wait their turn (holding no shared slot), and past that 429
  // (plugins/load-shedding.ts). The check page asks for up to six at once.
  CM_HEAVY_PER_USER: z.coerce.number().int().min(1).max(1000).default(2),
  // Past this event-loop delay, API requests (health excepted) are answered 503 at once; 0: never.
  CM_MAX_EVENT_LOOP_DELAY_MS: z.coerce
    .number()
    .int()
    .refine((ms) => ms === 0 || (ms >= 10 && ms <= 60_000), 'must be 0 (off) or from 10 to 60000')
    .default(1000),
  // Alert e-mails: an SMTP URL (smtp://user:pass@host:587, smtps://…); none: alerts stay in the app.
  CM_SMTP_URL: z.string().url('must be an smtp:// or smtps:// URL').optional(),
  CM_SMTP_FROM: z.string().min(3).default('Check Meter <alerts@checkmeter.invalid>'),
  // An smtp:// URL with a password needs STARTTLS, unless this says the password may go in clear.
  CM_SMTP_ALLOW_PLAIN_AUTH: z.enum(['true', 'false']).default('false'),
  // Networks outbound requests (webhooks, ESPI notifications) may reach although private, loopback or link-local:
  // comma-separated addresses and CIDR ranges; none by default (outbound.ts).
  CM_OUTBOUND_ALLOW_CIDRS: z
    .string()
    .default('')
    .transform((value, context) => {
      const ranges = parseCidrs(value);
      if (!ranges) {
        context.addIssue({ code: 'custom', message: 'each entry must be an IP address or a CIDR range.' });
        return z.NEVER;
      }
      return ranges;
    }),
  // How often the settled months whose readings changed are packed into chunks in the background.
  CM_PACK_EVERY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
  // How often alert rules are evaluated (they are also evaluated after imports and device batches);
  // 0: only when an administrator asks (POST /api/admin/alerts/evaluate), as tests do.
  CM_ALERT_EVERY_SECONDS: z.coerce
    .number()
    .int()
    .max(86_400)
    .refine((seconds) => seconds === 0 || seconds >= 10, 'must be 0 (only when asked) or at least 10')
    .default(300),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/** CM's configuration, parsed once at start from the environment. */
export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /** CM_PUBLIC_URL: the address customers and apps reach CM at, without a trailing slash. */
  publicUrl: string;
  database:
    | { kind: 'embedded'; dataDir: string; poolSize: number; statementTimeoutMs: number }
    | {
        kind: 'postgres';
        url: string;
        poolSize: number;
        statementTimeoutMs: number;
        /** Streaming replicas for the check page's reads, and how far behind one may be to be read from. */
        replicas: { urls: string[]; maxLagMs: number };
      };
  dataDir: string;
  seedDemo: 'auto' | 'always' | 'never';
  jwtSecret: string | undefined;
  webApiKey: string | undefined;
  /** CM_SECRETS_KEY (secrets.ts); unset: the data folder's key file. */
  secretsKey: string | undefined;
  sessionIdleSeconds: number;
  sessionMaxSeconds: number;
  tokenTtlSeconds: number;
  bodyLimitBytes: number;
  importMaxBytes: number;
  /** The import jobs' upload spool: its total size (CM_IMPORT_SPOOL_MAX_BYTES). */
  importSpoolMaxBytes: number;
  /** Free bytes in the data folder below which health says "disk space low" (CM_DISK_LOW_BYTES). */
  diskLowBytes: number;
  /** Slow bodies end with 408; connections per client address are capped (plugins/load-shedding.ts). */
  slowClients: { bodyTimeoutMs: number; minBodyBytesPerSecond: number; maxConnectionsPerAddress: number };
  /** A user's heavy requests worked on at once, and waiting (CM_HEAVY_PER_USER, eight times as many waiting). */
  heavyPerUser: { active: number; queued: number };
  /** Whose X-Forwarded-* to believe: nobody, the nearest `hops` proxies, or proxies at these addresses/ranges. */
  trustProxy: false | number | string[];
  webDist: string;
  maxEventLoopDelayMs: number;
  /** How often changed settled months are packed into chunks (readings-store.ts). */
  packEverySeconds: number;
  /** Networks outbound requests may reach although not public (CM_OUTBOUND_ALLOW_CIDRS). */
  outboundAllow: { address: string; prefix: number }[];
  /** Alert e-mails (no URL: in the app only) and how often rules are evaluated. */
  alerts: { smtpUrl: string | undefined; from: string; allowPlainAuth: boolean; everySeconds: number };
  /** Performance layers turned off (CM_DEBUG_DISABLE): the plain path answers the same, slower. */
  disabledLayers: ReadonlySet<PerformanceLayer>;
  logLevel: string;
}

/** Thrown with every problem at once, so a misconfigured server says everything that is wrong in one go. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** The only place that reads process.env (STYLE.md). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  if (e.DATABASE_REPLICA_URLS.length > 0 && !e.DATABASE_URL) {
    throw new ConfigError([
      'DATABASE_REPLICA_URLS: replicas need DATABASE_URL (the primary they stream from); the embedded database has none.',
    ]);
  }
  const dataDir = path.resolve(e.CM_DATA_DIR);
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: e.CM_PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    database: e.DATABASE_URL
      ? {
          kind: 'postgres',
          url: e.DATABASE_URL,
          poolSize: e.DATABASE_POOL_SIZE,
          statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
          replicas: { urls: e.DATABASE_REPLICA_URLS, maxLagMs: e.DATABASE_REPLICA_MAX_LAG_MS },
        }
      : {
          kind: 'embedded',
          dataDir,
          poolSize: e.DATABASE_POOL_SIZE,
          statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
        },
    dataDir,
    seedDemo: e.CM_SEED_DEMO,
    jwtSecret: e.CM_JWT_SECRET,
    webApiKey: e.CM_WEB_API_KEY,
    secretsKey: e.CM_SECRETS_KEY,
    sessionIdleSeconds: e.CM_SESSION_IDLE_SECONDS,
    sessionMaxSeconds: e.CM_SESSION_MAX_SECONDS,
    tokenTtlSeconds: e.CM_TOKEN_TTL_SECONDS,
    bodyLimitBytes: e.CM_BODY_LIMIT_BYTES,
    importMaxBytes: e.CM_IMPORT_MAX_BYTES,
    importSpoolMaxBytes: e.CM_IMPORT_SPOOL_MAX_BYTES,
    diskLowBytes: e.CM_DISK_LOW_BYTES,
    slowClients: {
      bodyTimeoutMs: e.CM_BODY_TIMEOUT_SECONDS * 1000,
      minBodyBytesPerSecond: e.CM_BODY_MIN_BYTES_PER_SECOND,
      maxConnectionsPerAddress: e.CM_CONNECTIONS_PER_ADDRESS ?? (e.CM_TRUST_PROXY === false ? 256 : 0),
    },
    heavyPerUser: { active: e.CM_HEAVY_PER_USER, queued: 8 * e.CM_HEAVY_PER_USER },
    trustProxy: e.CM_TRUST_PROXY,
    webDist: e.CM_WEB_DIST ? path.resolve(e.CM_WEB_DIST) : path.join(repoRoot, 'apps/web/dist'),
    maxEventLoopDelayMs: e.CM_MAX_EVENT_LOOP_DELAY_MS,
    packEverySeconds: e.CM_PACK_EVERY_SECONDS,
    outboundAllow: e.CM_OUTBOUND_ALLOW_CIDRS,
    alerts: {
      smtpUrl: e.CM_SMTP_URL,
      from: e.CM_SMTP_FROM,
      allowPlainAuth: e.CM_SMTP_ALLOW_PLAIN_AUTH === 'true',
      everySeconds: e.CM_ALERT_EVERY_SECONDS,
    },
    disabledLayers: e.CM_DEBUG_DISABLE,
    logLevel: e.LOG_LEVEL,
  };
}

// proxy-addr's names for the private ranges, which Fastify accepts in a list.
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * CM_TRUST_PROXY: `false`, a hop count (1–10), or a comma-separated list of proxy addresses and
 * CIDR ranges. `true` is refused: it would believe any X-Forwarded-For, so that every client could
 * choose the address sign-in throttling counts.
 */
export function parseTrustProxy(value: string): { trust: Config['trustProxy'] } | { problem: string } {
  const text = value.trim();
  if (text === '' || text === 'false') return { trust: false };
  if (text === 'true') {
    return {
      problem:
        'true would believe any X-Forwarded-For header, so every client could pick its own address. Give the number of proxies in front of CM (e.g. 1) or their addresses (e.g. 127.0.0.1,10.0.0.0/8).',
    };
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops >= 1 && hops <= 10 ? { trust: hops } : { problem: 'a hop count must be between 1 and 10.' };
  }
  const entries = text.split(',').map((entry) => entry.trim());
  const wrong = entries.filter((entry) => !isProxyAddress(entry));
  if (wrong.length > 0) {
    return {
      problem: `${wrong.map((entry) => JSON.stringify(entry)).join(', ')}: not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal.`,
    };
  }
  return { trust: entries };
}

function isProxyAddress(entry: string): boolean {
  return NAMED_RANGES.has(entry) || (entry !== '' && parseCidrs(entry) !== undefined);
}
