import type { Socket } from 'node:net';
import { Transform, type Readable } from 'node:stream';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../http-error.ts';
import { apiRouteOf } from './api-route.ts';

const TOO_BUSY = 'The server is too busy right now. Please try again in a few seconds.';

/** How long after the last shed request health still says the server is shedding. */
const SHEDDING_SHOWN_MS = 10_000;

/** Health probes are never shed: an orchestrator must still see the process alive, with its real state. */
const isShed = (request: FastifyRequest) => {
  const route = apiRouteOf(request);
  return route !== undefined && route !== '/api/health';
};

/** What load shedding has seen lately, for /api/health. */
export class LoadGauge {
  private lastShedAt = Number.NEGATIVE_INFINITY;

  shed(now = Date.now()): void {
    this.lastShedAt = now;
  }

  /** Whether a request was shed (503) within the last few seconds. */
  shedding(now = Date.now()): boolean {
    return now - this.lastShedAt < SHEDDING_SHOWN_MS;
  }
}

/**
 * The heavy requests (a long stretch of readings, a whole export, an import answered at once): each
 * user may have `heavy.active` of them worked on at a time and `heavy.queued` more waiting their
 * turn, without a shared slot; past that, 429. One client's ten parallel downloads once pushed
 * everyone else's p99 to 5.9 s (security probe 2026-11-27, finding 3).
 */
export const HEAVY_ROUTES: ReadonlySet<string> = new Set([
  '/api/CheckMeter/GetElectricMeterInformationByLocationPublicName',
  '/api/CheckMeter/GetReadingCorrections',
  '/api/CheckMeter/DownloadMyData',
  '/api/admin/exports/readings',
  '/api/admin/imports',
]);

/** Whether a route (its URL pattern and method) is one of HEAVY_ROUTES. */
const isHeavy = (url: string | undefined, method: string | string[]) =>
  url !== undefined && HEAVY_ROUTES.has(url) && method === (url === '/api/admin/imports' ? 'POST' : 'GET');

export interface LoadSheddingOptions {
  /** Heavy requests (HEAVY_ROUTES) per user: worked on at once, and waiting. */
  heavy: { active: number; queued: number };
  maxInFlight: number;
  maxEventLoopDelayMs: number;
  gauge: LoadGauge;
  /** A body of at most `bodyLimit` bytes (declared) must arrive whole within this. */
  bodyTimeoutMs: number;
  bodyLimit: number;
  /** Every body, however large, must keep arriving at this rate at least (measured per window). */
  minBodyBytesPerSecond: number;
  /** Open connections one client address may hold; 0: no cap (behind a proxy, all come from it). */
  maxConnectionsPerAddress: number;
}

/**
 * Three bounds that answer at once instead of letting every user wait:
 * - requests being worked on: past `maxInFlight`, a newcomer would join a queue in front of the
 *   database pool whose wait grows with every newcomer (the queue-flood drill showed p50 latencies
 *   of 7 s for 300 concurrent heavy readings requests, with the event loop never lagging). A
 *   request holds its slot while it works, not while its body is still arriving: 32 bodies
 *   trickling in once shut the API for everyone (security probe 2026-11-27, finding 1);
 * - the event loop's delay: past `maxEventLoopDelayMs`, the process is too busy to answer in time;
 * - bodies that arrive too slowly are ended with 408 (bodyWatch), and one client address may hold
 *   only so many connections.
 * /api/health is exempt and always answers its own body (it once answered 500 here: the overload
 * body did not match its schema); it says "degraded" while requests are being shed.
 */
export const loadShedding = fp(async (app: FastifyInstance, options: LoadSheddingOptions) => {
  const { gauge } = options;
  const tooBusy = (retryAfter: string) => {
    gauge.shed();
    return new HttpError(503, TOO_BUSY, undefined, { 'Retry-After': retryAfter });
  };
  // Off with 0. A bound, however high, is not "off": a sample in which the loop never turned (a
  // starved process on a busy machine) reads as an infinite delay and sheds everything for a second.
  if (options.maxEventLoopDelayMs > 0)
    await app.register(underPressure, {
      maxEventLoopDelay: options.maxEventLoopDelayMs,
      sampleInterval: Math.min(1000, options.maxEventLoopDelayMs),
      exposeStatusRoute: false,
      // Thrown, the 503 is answered by the error handler in the usual error shape.
      pressureHandler: async (request: FastifyRequest) => {
        if (isShed(request)) throw tooBusy('5');
      },
    });

  let inFlight = 0;
  // Requests holding a slot; a request waiting for its body gives its slot back until it is in.
  const holding = new WeakSet<FastifyRequest>();
  const waiting = new WeakSet<FastifyRequest>();
  // A slot is given back on the answer's 'close' (onRequest): a request whose client has already
  // left (while it waited for its body or its turn) takes none, as it would keep it for good.
  const take = (request: FastifyRequest, reply: FastifyReply) => {
    if (reply.raw.closed) throw abandoned();
    if (inFlight >= options.maxInFlight) throw tooBusy('2');
    inFlight += 1;
    holding.add(request);
  };
  const giveBack = (request: FastifyRequest) => {
    if (!holding.delete(request)) return;
    inFlight -= 1;
  };

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isShed(request)) return;
    // 'close' fires once whether the answer was sent or the client went away.
    reply.raw.once('close', () => giveBack(request));
    // A heavy request takes its slot only when its user's lane lets it work (heavyTurn): forty sent
    // at once by one client must not fill the slots while they wait to be told who sent them.
    if (!isHeavy(request.routeOptions.url, request.method)) take(request, reply);
  });
  const watch = bodyWatch(options);
  app.addHook('preParsing', async (request: FastifyRequest, _reply: FastifyReply, payload: Readable) => {
    if (!bodyStillArriving(request)) return payload;
    if (holding.has(request)) {
      giveBack(request);
      waiting.add(request);
    }
    return watch(request, payload);
  });
  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    if (waiting.delete(request)) take(request, reply);
  });
  app.addHook('onClose', async () => watch.stop());

  // Runs after the route's own preHandlers, which tell who the caller is; then takes the slot.
  const heavyTurn = userLanes(options.heavy, take);
  app.addHook('onRoute', (route) => {
    if (!isHeavy(route.url, route.method)) return;
    const own = route.preHandler === undefined ? [] : [route.preHandler].flat();
    route.preHandler = [...own, heavyTurn];
  });

  if (options.maxConnectionsPerAddress > 0) capConnections(app, options.maxConnectionsPerAddress);
});

/**
 * A preHandler giving each user's heavy requests turns: `active` at once, `queued` waiting (holding
 * no shared slot), 429 with Retry-After past that; a request whose turn has come takes its shared
 * slot with `takeSlot` (which answers 503 when the server is full).
 */
const abandoned = () => new HttpError(408, 'The request was abandoned while it waited its turn.');

function userLanes(
  limits: { active: number; queued: number },
  takeSlot: (request: FastifyRequest, reply: FastifyReply) => void,
) {
  const lanes = new Map<number, { active: number; waiting: (() => void)[] }>();
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const user = request.auth?.user.id;
    if (user === undefined) return takeSlot(request, reply);
    // The client may have left while an earlier preHandler (authentication) awaited: 'close' has
    // then been emitted already, and a turn taken now would never be given back.
    if (reply.raw.closed) throw abandoned();
    let lane = lanes.get(user);
    if (!lane) {
      lane = { active: 0, waiting: [] };
      lanes.set(user, lane);
    }
    const own = lane;
    const finished = () => {
      own.active -= 1;
      const next = own.waiting.shift();
      if (next) next();
      else if (own.active === 0) lanes.delete(user);
    };
    if (own.active < limits.active) {
      own.active += 1;
      reply.raw.once('close', finished);
      return takeSlot(request, reply);
    }
    if (own.waiting.length >= limits.queued) {
      throw new HttpError(
        429,
        `You already have ${limits.active + limits.queued} large requests running or waiting. Wait for them to finish, then try again.`,
        undefined,
        { 'Retry-After': '5' },
      );
    }
    await new Promise<void>((resolve, reject) => {
      const gone = () => {
        own.waiting.splice(own.waiting.indexOf(turn), 1);
        if (own.active === 0 && own.waiting.length === 0) lanes.delete(user);
        reject(abandoned());
      };
      const turn = () => {
        reply.raw.off('close', gone);
        own.active += 1;
        reply.raw.once('close', finished);
        resolve();
      };
      own.waiting.push(turn);
      reply.raw.once('close', gone);
    });
    takeSlot(request, reply);
  };
}

function bodyStillArriving(request: FastifyRequest): boolean {
  const { headers } = request;
  const declared = Number(headers['content-length'] ?? 0);
  return (declared > 0 || headers['transfer-encoding'] !== undefined) && !request.raw.complete;
}

interface Watched {
  body: Transform;
  declared: number | undefined;
  started: number;
  bytes: number;
  windowStarted: number;
  bytesAtWindow: number;
}

/**
 * A body is read through a counter checked a few times a second: one that has not arrived whole
 * within `bodyTimeoutMs` (when it declared at most `bodyLimit` bytes), or that brought fewer than
 * `minBodyBytesPerSecond` in the last window (and was not finished), fails with 408, answered with
 * `Connection: close` so that its socket and everything it held are freed.
 */
function bodyWatch(options: LoadSheddingOptions) {
  const windowMs = Math.min(10_000, options.bodyTimeoutMs);
  const perWindow = Math.ceil((options.minBodyBytesPerSecond * windowMs) / 1000);
  const watched = new Set<Watched>();
  let timer: NodeJS.Timeout | undefined;

  const end = (entry: Watched, message: string) => {
    watched.delete(entry);
    entry.body.destroy(new HttpError(408, message, undefined, { Connection: 'close' }));
  };
  const check = () => {
    const now = Date.now();
    for (const entry of watched) {
      const { declared } = entry;
      if (declared !== undefined && declared <= options.bodyLimit) {
        if (now - entry.started >= options.bodyTimeoutMs) {
          end(
            entry,
            `The request body did not arrive within ${Math.round(options.bodyTimeoutMs / 1000)} s, so it was not read.`,
          );
          continue;
        }
      }
      if (now - entry.windowStarted < windowMs) continue;
      const due = Math.min(perWindow, (declared ?? Infinity) - entry.bytesAtWindow);
      if (entry.bytes - entry.bytesAtWindow < due) {
        end(
          entry,
          `The request body arrived too slowly (less than ${options.minBodyBytesPerSecond} bytes a second), so it was not read.`,
        );
        continue;
      }
      entry.windowStarted = now;
      entry.bytesAtWindow = entry.bytes;
    }
    if (watched.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  const watch = (request: FastifyRequest, payload: Readable): Readable => {
    const declaredHeader = request.headers['content-length'];
    const now = Date.now();
    const entry: Watched = {
      body: new Transform({
        transform(chunk: Buffer, _encoding, done) {
          entry.bytes += chunk.length;
          done(null, chunk);
        },
      }),
      declared: declaredHeader === undefined ? undefined : Number(declaredHeader),
      started: now,
      bytes: 0,
      windowStarted: now,
      bytesAtWindow: 0,
    };
    const forget = () => watched.delete(entry);
    payload.once('end', forget);
    entry.body.once('close', forget);
    // A client that goes away ends the watch and the body with it.
    payload.once('error', (error) => entry.body.destroy(error));
    payload.pipe(entry.body);
    watched.add(entry);
    timer ??= setInterval(check, Math.max(50, Math.min(1000, windowMs / 4))).unref();
    return entry.body;
  };
  watch.stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    watched.clear();
  };
  return watch;
}

/** Connections past `max` from one address are closed as they open. */
function capConnections(app: FastifyInstance, max: number) {
  const open = new Map<string, number>();
  app.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
