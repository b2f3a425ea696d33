import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_HEADER, Role } from '@cm/contracts/enums.ts';
import { createTestApp, insertUser, type TestApp } from '../test/test-app.ts';

// Security probe 2026-11-27, finding 1: 32 request bodies trickling in held every load-shedding
// slot, so that every user (sign-in included) got 503 for up to an hour, with health saying "ok".
// Real sockets here: fastify.inject hands the whole body over at once.

const BODY_TIMEOUT_S = 2;
const MIN_RATE = 1000;
const MAX_CONNECTIONS = 50;

let t: TestApp;
let port: number;
let adminToken: string;

beforeAll(async () => {
  t = await createTestApp({
    CM_BODY_TIMEOUT_SECONDS: String(BODY_TIMEOUT_S),
    CM_BODY_MIN_BYTES_PER_SECOND: String(MIN_RATE),
    CM_CONNECTIONS_PER_ADDRESS: String(MAX_CONNECTIONS),
  });
  await insertUser(t.db, { email: 'admin@slow.cm', password: 'Admin!slow-2026', role: Role.Admin });
  adminToken = (await t.login('admin@slow.cm', 'Admin!slow-2026')).token;
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A connection that sent `head` and keeps whatever comes back; `closed` resolves when it ends. */
function openSocket(head: string) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(head);
  return { socket, closed, received: () => received };
}

/** A POST whose body declares `length` bytes and sends only its first one. */
const trickleHead = (path: string, length: number, token?: string) =>
  [
    `POST ${path} HTTP/1.1`,
    'Host: cm.test',
    `${API_KEY_HEADER}: ${t.apiKey}`,
    ...(token ? [`Authorization: Bearer ${token}`] : []),
    'Content-Type: application/json',
    `Content-Length: ${length}`,
    '',
    '{',
  ].join('\r\n');

const api = (path: string, init: RequestInit = {}) =>
  fetch(`http://127.0.0.1:${port}${path}`, {
    ...init,
    headers: { [API_KEY_HEADER]: t.apiKey, 'content-type': 'application/json', ...init.headers },
  });

describe('slow request bodies', () => {
  it('hold no shared slot while they arrive: with 40 trickling sign-ins open, others sign in and read', async () => {
    // 40 > the 32 slots the app has (maxInFlight = max(32, 8 × 4)).
    const slow = Array.from({ length: 40 }, () => openSocket(trickleHead('/api/auth/login', 1000)));
    try {
      await sleep(300);
      const login = await api('/api/auth/login', {
        method: 'POST',
        body: JSON.stringify({ email: 'admin@slow.cm', password: 'Admin!slow-2026' }),
      });
      expect(login.status).toBe(200);
      const me = await api('/api/auth/me', { headers: { authorization: `Bearer ${adminToken}` } });
      expect(me.status).toBe(200);
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(await health.json()).toMatchObject({ status: 'ok', load: 'ok' });
    } finally {
      for (const { socket } of slow) socket.destroy();
    }
  });

  it('ends a small body that has not arrived within the body timeout with 408 and closes its connection', async () => {
    const slow = openSocket(trickleHead('/api/auth/login', 1000));
    // A byte every 100 ms: never silent (the connection timeout), far too slow for the deadline.
    const drip = setInterval(() => slow.socket.write(' '), 100);
    const started = Date.now();
    try {
      await Promise.race([slow.closed, sleep(BODY_TIMEOUT_S * 1000 + 15_000)]);
      expect(slow.socket.destroyed || slow.socket.readableEnded).toBe(true);
      expect(Date.now() - started).toBeLessThan(BODY_TIMEOUT_S * 1000 + 3000);
      expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect(slow.received()).toMatch(/connection: close/i);
      expect(slow.received()).toMatch(/did not arrive within 2 s/);
    } finally {
      clearInterval(drip);
      slow.socket.destroy();
    }
  });

  it('ends a large upload arriving below the minimum rate with 408', async () => {
    // 10 MB declared (past the 1 MiB body limit: no deadline), 100 bytes a second sent: a tenth of the floor.
    const slow = openSocket(
      trickleHead('/api/admin/imports/jobs?fileName=slow.csv', 10_000_000, adminToken).replace(
        'application/json',
        'text/csv',
      ),
    );
    const drip = setInterval(() => slow.socket.write('a'.repeat(10)), 100);
    try {
      await Promise.race([slow.closed, sleep(20_000)]);
      expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect(slow.received()).toMatch(/arrived too slowly \(less than 1000 bytes a second\)/);
    } finally {
      clearInterval(drip);
      slow.socket.destroy();
    }
  });

  it('takes a body arriving in pieces at a fair rate', async () => {
    const body = JSON.stringify({ email: 'admin@slow.cm', password: 'Admin!slow-2026' });
    const head = trickleHead('/api/auth/login', Buffer.byteLength(body)).slice(0, -1);
    const client = openSocket(head);
    for (const piece of body.match(/.{1,10}/g) ?? []) {
      client.socket.write(piece);
      await sleep(50);
    }
    // Answered as soon as the last piece is in; a loaded machine may take seconds to say so.
    await expect.poll(() => client.received(), { timeout: 20_000 }).toMatch(/^HTTP\/1\.1 200 /);
    client.socket.destroy();
  });

  it(`closes connections past ${MAX_CONNECTIONS} from one address as they open`, async () => {
    const held = Array.from({ length: MAX_CONNECTIONS }, () => openSocket(''));
    try {
      // The server has taken the held connections in (a loaded machine is slow to), then the extra.
      await sleep(1000);
      const extra = openSocket('');
      await Promise.race([extra.closed, sleep(10_000)]);
      expect(extra.socket.destroyed).toBe(true);
      expect(extra.received()).toBe('');
      held.pop()?.socket.destroy();
      await sleep(200);
      const again = await api('/api/health');
      expect(again.status).toBe(200);
    } finally {
      for (const { socket } of held) socket.destroy();
    }
  });
});
