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
    expect(response.json()).toMatchObject({ status: 'ok', database: { kind: 'postgres', ready: true } });
  });

  it('keeps answering its own body while other API requests are shed for event-loop delay', async () => {
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
    expect(JSON.parse(health?.body ?? '{}')).toMatchObject({ status: 'ok', database: { ready: true } });
  });
});
