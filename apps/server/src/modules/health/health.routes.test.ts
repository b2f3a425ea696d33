import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ CM_MAX_EVENT_LOOP_DELAY_MS: '50' });
});
afterAll(() => t.close());

/** Keeps the event loop from turning for `ms`, as a CPU-bound request would. */
function blockEventLoop(ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // Busy on purpose.
  }
}

describe('health', () => {
  it('answers its own body without a key', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'ok',
      database: { kind: 'postgres', ready: true },
      load: 'ok',
    });
  });

  it('keeps answering its own body, 200 "degraded", while other API requests are shed for event-loop delay', async () => {
    // The finding: under pressure, health answered 500 (the overload body failed its schema).
    let shed: { statusCode: number; headers: Record<string, unknown> } | undefined;
    let health: { statusCode: number; body: string } | undefined;
    for (let round = 0; round < 5 && shed?.statusCode !== 503; round += 1) {
      blockEventLoop(400);
      // The delay is read every 50 ms: ask until it has been, or the next reading has cleared it.
      for (let poll = 0; poll < 20 && shed?.statusCode !== 503; poll += 1) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        [shed, health] = await Promise.all([
          t.call('GET', '/api/auth/me'),
          t.app.inject({ method: 'GET', url: '/api/health' }),
        ]);
      }
    }
    expect(shed?.statusCode).toBe(503);
    expect(shed?.headers['retry-after']).toBe('5');
    expect(health?.statusCode).toBe(200);
    // Security probe 2026-11-27, finding 1: health said "ok" while every other request was shed.
    expect(JSON.parse(health?.body ?? '{}')).toMatchObject({
      status: 'degraded',
      load: 'shedding',
      database: { ready: true },
    });
  });
});

describe('health reports what would fail next (probe 2026-11-27, finding 6)', () => {
  // An app of its own: the shedding above leaves the first one "degraded" for a few seconds.
  let calm: TestApp;
  beforeAll(async () => {
    calm = await createTestApp();
  });
  afterAll(() => calm.close());

  it('says "disk space low" and degraded below CM_DISK_LOW_BYTES free where the data folder is', async () => {
    // No file system has 2^50 bytes (1 PiB) free: the bound is above any free space.
    const nearlyFull = await createTestApp({ CM_DISK_LOW_BYTES: String(2 ** 50) });
    try {
      const response = await nearlyFull.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        status: 'degraded',
        disk: 'low',
        problems: ['disk space low'],
      });
    } finally {
      await nearlyFull.close();
    }
    expect((await calm.app.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({
      status: 'ok',
      disk: 'ok',
      problems: [],
    });
  });

  it('counts webhook deliveries overdue by 15 minutes, not a retry waiting for its time', async () => {
    const [hook] = await calm.db.query<{ id: number }>(
      "INSERT INTO webhooks (url, secret) VALUES ('https://hooks.example.org/cm', 'x') RETURNING id",
    );
    await calm.db.query(
      `INSERT INTO webhook_deliveries (webhook_id, event, payload, next_attempt_at)
       VALUES ($1, 'alert.fired', '{}', now() - interval '20 minutes'),
              ($1, 'alert.fired', '{}', now() - interval '14 minutes'),
              ($1, 'alert.fired', '{}', now() + interval '1 hour')`,
      [hook?.id],
    );
    try {
      const response = await calm.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.json()).toMatchObject({
        status: 'degraded',
        queues: { emailsOverdue: 0, webhooksOverdue: 1, importsRunning: 0, importsWaiting: 0 },
        problems: ['webhook deliveries overdue'],
      });
    } finally {
      await calm.db.query('DELETE FROM webhooks WHERE id = $1', [hook?.id]);
    }
  });
});

describe('health with a read replica down', () => {
  it('names no address, role or driver message to its anonymous callers (probe 2026-11-27, finding 11)', async () => {
    const withReplica = await createTestApp({
      DATABASE_URL: 'postgres://root@127.0.0.1:5432/unused',
      // Nothing listens on port 1: the replica is down with "connect ECONNREFUSED 127.0.0.1:1".
      DATABASE_REPLICA_URLS: 'postgres://nosuchrole@127.0.0.1:1/cm',
    });
    try {
      const response = await withReplica.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.json()).toMatchObject({
        database: { replicas: [{ name: 'replica-1', state: 'down', lagMs: null, reads: 0 }] },
      });
      expect(response.body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|nosuchrole|"problem"/);
    } finally {
      await withReplica.close();
    }
  });
});
