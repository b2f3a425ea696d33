import Fastify, { type FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { errorHandler } from './error-handler.ts';
import { LoadGauge, loadShedding } from './load-shedding.ts';

const options = (maxInFlight: number, gauge = new LoadGauge()) => ({
  maxInFlight,
  maxEventLoopDelayMs: 60_000,
  gauge,
  heavy: { active: 2, queued: 1 },
  bodyTimeoutMs: 60_000,
  bodyLimit: 1024 * 1024,
  minBodyBytesPerSecond: 1024,
  maxConnectionsPerAddress: 0,
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('load shedding', () => {
  it('answers 503 with Retry-After past the bound, never for health, and frees a slot when a client goes away', async () => {
    const app = Fastify();
    await app.register(errorHandler);
    const gauge = new LoadGauge();
    await app.register(loadShedding, options(2, gauge));
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

  it("queues a user's own heavy requests behind each other, without a shared slot, and refuses past the queue with 429", async () => {
    // Security probe 2026-11-27, finding 3: ten parallel downloads of one client filled the slots.
    const app = Fastify();
    await app.register(errorHandler);
    await app.register(loadShedding, options(4));
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const running = new Map<number, number>();
    const most = new Map<number, number>();
    const signedIn = async (request: FastifyRequest) => {
      request.auth = { user: { id: Number(request.headers['x-user']) } } as FastifyRequest['auth'];
    };
    app.get('/api/CheckMeter/DownloadMyData', { preHandler: signedIn }, async (request) => {
      const user = request.auth?.user.id ?? 0;
      running.set(user, (running.get(user) ?? 0) + 1);
      most.set(user, Math.max(most.get(user) ?? 0, running.get(user) ?? 0));
      await gate;
      running.set(user, (running.get(user) ?? 1) - 1);
      return { ok: true };
    });
    app.get('/api/CheckMeter/GetMeterInfo', { preHandler: signedIn }, async () => ({ ok: true }));
    await app.ready();
    const as = (user: number, url: string) =>
      app.inject({ method: 'GET', url, headers: { 'x-user': String(user) } });
    try {
      // User 1: two worked on, one waiting its turn.
      const mine = [1, 2, 3].map(() => as(1, '/api/CheckMeter/DownloadMyData'));
      await settle();
      expect(running.get(1)).toBe(2);
      const refused = await as(1, '/api/CheckMeter/DownloadMyData');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.json()).toMatchObject({
        message: expect.stringMatching(/already have 3 large requests/),
      });
      // Another user is not behind user 1's queue.
      const theirs = as(2, '/api/CheckMeter/DownloadMyData');
      await settle();
      expect(running.get(2)).toBe(1);
      // 4 slots: user 1's two, user 2's one; the waiting request holds none, so a light one gets in.
      expect((await as(1, '/api/CheckMeter/GetMeterInfo')).statusCode).toBe(200);
      release();
      expect((await Promise.all([...mine, theirs])).map((response) => response.statusCode)).toEqual([
        200, 200, 200, 200,
      ]);
      expect(most.get(1)).toBe(2);
    } finally {
      release();
      await app.close();
    }
  });
  it('gives back the turn of a heavy request whose client left before its turn was taken', async () => {
    // A browser aborts the answer it no longer needs (the range changed) while the request is still
    // being authenticated: its turn must not stay taken, or the user's next readings wait forever.
    const app = Fastify();
    await app.register(errorHandler);
    await app.register(loadShedding, options(4));
    let arrived: () => void = () => {};
    const slowSignIn = async (request: FastifyRequest) => {
      arrived();
      await new Promise((resolve) => setTimeout(resolve, 150));
      request.auth = { user: { id: 1 } } as FastifyRequest['auth'];
    };
    app.get('/api/CheckMeter/DownloadMyData', { preHandler: slowSignIn }, async () => ({ ok: true }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    try {
      // More abandoned requests than the user has turns and places in the queue together.
      for (let i = 0; i < 4; i += 1) {
        const authenticating = new Promise<void>((resolve) => (arrived = resolve));
        const aborted = new AbortController();
        const gone = fetch(`${base}/api/CheckMeter/DownloadMyData`, { signal: aborted.signal }).catch(
          () => undefined,
        );
        await authenticating;
        aborted.abort();
        await gone;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const answer = await fetch(`${base}/api/CheckMeter/DownloadMyData`, {
        signal: AbortSignal.timeout(5_000),
      });
      expect(answer.status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
