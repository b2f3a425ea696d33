import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { errorHandler } from './error-handler.ts';
import { LoadGauge, loadShedding } from './load-shedding.ts';

describe('load shedding', () => {
  it('answers 503 with Retry-After past the bound, never for health, and frees a slot when a client goes away', async () => {
    const app = Fastify();
    await app.register(errorHandler);
    const gauge = new LoadGauge();
    await app.register(loadShedding, {
      maxInFlight: 2,
      maxEventLoopDelayMs: 60_000,
      gauge,
      bodyTimeoutMs: 60_000,
      bodyLimit: 1024 * 1024,
      minBodyBytesPerSecond: 1024,
      maxConnectionsPerAddress: 0,
    });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    app.get('/api/slow', async () => {
      await gate;
      return { ok: true };
    });
    app.get('/api/health', async () => ({ status: 'ok' }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    try {
      const first = fetch(`${base}/api/slow`);
      const aborted = new AbortController();
      const second = fetch(`${base}/api/slow`, { signal: aborted.signal }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const shed = await fetch(`${base}/api/slow`);
      expect(shed.status).toBe(503);
      expect(shed.headers.get('retry-after')).toBe('2');
      expect(await shed.json()).toMatchObject({
        statusCode: 503,
        message: expect.stringMatching(/too busy/),
      });
      expect((await fetch(`${base}/api/health`)).status).toBe(200);
      expect(gauge.shedding()).toBe(true);
      aborted.abort();
      await second;
      await new Promise((resolve) => setTimeout(resolve, 100));
      const third = fetch(`${base}/api/slow`);
      release();
      expect((await first).status).toBe(200);
      expect((await third).status).toBe(200);
    } finally {
      release();
      await app.close();
    }
  });
});
