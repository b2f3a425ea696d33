import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('defaults to the embedded PostgreSQL in ./data on port 3000, with the statement time limit', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toMatchObject({ kind: 'embedded', statementTimeoutMs: 10_000 });
    expect(config.sessionIdleSeconds).toBe(1800);
    expect(config.sessionMaxSeconds).toBe(43_200);
    expect(config.importMaxBytes).toBe(2 * 1024 ** 3);
    // Probe N59: SMTP credentials never go in clear unless a setting says so.
    expect(config.alerts.allowPlainAuth).toBe(false);
  });

  it('evaluates alert rules every 300 s by default, only when asked with 0, never more often than 10 s', () => {
    expect(loadConfig({}).alerts.everySeconds).toBe(300);
    expect(loadConfig({ CM_ALERT_EVERY_SECONDS: '0' }).alerts.everySeconds).toBe(0);
    expect(() => loadConfig({ CM_ALERT_EVERY_SECONDS: '5' })).toThrow(ConfigError);
  });

  it('listens on loopback unless HOST says otherwise (probe 2026-11-27, finding 7)', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('ends slow bodies and caps connections per address, with no cap by default behind a proxy', () => {
    expect(loadConfig({}).slowClients).toEqual({
      bodyTimeoutMs: 60_000,
      minBodyBytesPerSecond: 1024,
      maxConnectionsPerAddress: 256,
    });
    expect(loadConfig({ CM_TRUST_PROXY: '1' }).slowClients.maxConnectionsPerAddress).toBe(0);
    expect(loadConfig({ CM_CONNECTIONS_PER_ADDRESS: '8' }).slowClients.maxConnectionsPerAddress).toBe(8);
    expect(() => loadConfig({ CM_BODY_TIMEOUT_SECONDS: '0' })).toThrow(/CM_BODY_TIMEOUT_SECONDS/);
    expect(loadConfig({}).heavyPerUser).toEqual({ active: 2, queued: 16 });
    expect(loadConfig({ CM_HEAVY_PER_USER: '3' }).heavyPerUser).toEqual({ active: 3, queued: 24 });
  });

  it('turns shedding for event-loop delay off with 0, and takes a bound from 10 ms to 60 s', () => {
    expect(loadConfig({}).maxEventLoopDelayMs).toBe(1000);
    expect(loadConfig({ CM_MAX_EVENT_LOOP_DELAY_MS: '0' }).maxEventLoopDelayMs).toBe(0);
    expect(loadConfig({ CM_MAX_EVENT_LOOP_DELAY_MS: '10' }).maxEventLoopDelayMs).toBe(10);
    expect(() => loadConfig({ CM_MAX_EVENT_LOOP_DELAY_MS: '5' })).toThrow(/CM_MAX_EVENT_LOOP_DELAY_MS/);
    expect(() => loadConfig({ CM_MAX_EVENT_LOOP_DELAY_MS: '60001' })).toThrow(/CM_MAX_EVENT_LOOP_DELAY_MS/);
  });

  it('takes the import size limit from CM_IMPORT_MAX_BYTES, at least 1 KiB', () => {
    expect(loadConfig({ CM_IMPORT_MAX_BYTES: '5000' }).importMaxBytes).toBe(5000);
    expect(() => loadConfig({ CM_IMPORT_MAX_BYTES: '10' })).toThrow(/CM_IMPORT_MAX_BYTES/);
    expect(() => loadConfig({ CM_IMPORT_MAX_BYTES: '2GB' })).toThrow(/CM_IMPORT_MAX_BYTES/);
  });

  it('takes the secrets key from CM_SECRETS_KEY: 32 bytes in base64, nothing else', () => {
    const key = Buffer.alloc(32, 9).toString('base64');
    expect(loadConfig({ CM_SECRETS_KEY: key }).secretsKey).toBe(key);
    expect(loadConfig({}).secretsKey).toBeUndefined();
    expect(() => loadConfig({ CM_SECRETS_KEY: Buffer.alloc(16).toString('base64') })).toThrow(
      /CM_SECRETS_KEY: must be 32 bytes in base64/,
    );
    expect(() => loadConfig({ CM_SECRETS_KEY: 'not base64 at all!' })).toThrow(/CM_SECRETS_KEY/);
  });

  it('uses a PostgreSQL server when DATABASE_URL is set', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://root@127.0.0.1:5432/cm', DATABASE_POOL_SIZE: '4' });
    expect(config.database).toMatchObject({ kind: 'postgres', poolSize: 4 });
  });

  it('lists every invalid variable at once', () => {
    let caught: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', CM_JWT_SECRET: 'short' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems.join('\n');
    expect(problems).toMatch(/PORT/);
    expect(problems).toMatch(/DATABASE_URL: must start with postgres/);
    expect(problems).toMatch(/CM_JWT_SECRET: must be at least 32/);
  });

  it('trusts no proxy by default, a hop count or a list of addresses and ranges, and refuses true', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ CM_TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ CM_TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8 ,fd00::/8,loopback' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      'fd00::/8',
      'loopback',
    ]);
    expect(() => loadConfig({ CM_TRUST_PROXY: 'true' })).toThrow(
      /CM_TRUST_PROXY: true would believe any X-Forwarded-For header/,
    );
    expect(() => loadConfig({ CM_TRUST_PROXY: '0' })).toThrow(
      /CM_TRUST_PROXY: a hop count must be between 1 and 10/,
    );
    expect(() => loadConfig({ CM_TRUST_PROXY: '10.0.0.0/33,proxy.local' })).toThrow(
      /CM_TRUST_PROXY: "10.0.0.0\/33", "proxy.local": not an IP address/,
    );
  });
});
