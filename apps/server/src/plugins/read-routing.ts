import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  formatWalPosition,
  parseWalPosition,
  runWithReadIntent,
  type ReadIntent,
  type ReplicaSet,
} from '../db/replicas.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The answer may show writes made in the background (an import job's state): its caller then reads its own writes. */
    showsWrites?: boolean;
    /** A read of the check page's (a client's view), which a replica within the lag bound may answer. */
    replicaReads?: boolean;
  }
  interface FastifyRequest {
    readIntent: ReadIntent | null;
  }
}

/** The cookie and headers that carry a caller's last write (a WAL position) to its next reads. */
export const WAL_COOKIE = 'cm_wal';
export const WAL_POSITION_HEADER = 'x-cm-wal-position';
export const READ_AFTER_HEADER = 'x-cm-read-after';
export const READ_FROM_HEADER = 'x-cm-read-from';

// Long enough for any replica within the lag bound to have replayed the write.
const WAL_COOKIE_SECONDS = 600;
const WAL_COOKIE_PATTERN = new RegExp(`(?:^|;\\s*)${WAL_COOKIE}=([0-9A-Fa-f]+/[0-9A-Fa-f]+)`);

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The check page's reads (routes marked `replicaReads`), which replicas may answer. */
const mayUseReplica = (request: FastifyRequest) =>
  request.method === 'GET' && request.routeOptions.config.replicaReads === true;

/** The newest write this caller told us of: the cookie the browser keeps, or the header an integrator sends back. */
function lastWriteSeen(request: FastifyRequest): bigint {
  const fromCookie = parseWalPosition(WAL_COOKIE_PATTERN.exec(request.headers.cookie ?? '')?.[1]) ?? 0n;
  const header = request.headers[READ_AFTER_HEADER];
  const fromHeader = parseWalPosition(typeof header === 'string' ? header : undefined) ?? 0n;
  return fromCookie > fromHeader ? fromCookie : fromHeader;
}

const wrote = (request: FastifyRequest, reply: FastifyReply) =>
  reply.statusCode < 400 &&
  (!READ_METHODS.has(request.method) || request.routeOptions.config.showsWrites === true);

/**
 * With replicas (DATABASE_REPLICA_URLS): the check page's reads may go to a replica that has
 * caught up with the caller's own last write, which every answer to a write (and to a route that
 * shows background writes) names in a cookie and the `X-CM-Wal-Position` header; API clients send
 * it back as `X-CM-Read-After`. Answers say in `X-CM-Read-From` where their reads went.
 */
export const readRouting = fp(async (app: FastifyInstance, options: { replicas: ReplicaSet }) => {
  const { replicas } = options;
  app.decorateRequest('readIntent', null);
  if (replicas.size === 0) return;
  app.addHook('onRequest', (request, _reply, done) => {
    const intent: ReadIntent = { replicaAllowed: mayUseReplica(request), after: lastWriteSeen(request) };
    request.readIntent = intent;
    runWithReadIntent(intent, done);
  });
  app.addHook('onSend', async (request, reply) => {
    const servedBy = request.readIntent?.servedBy;
    if (servedBy) reply.header(READ_FROM_HEADER, servedBy);
    if (!wrote(request, reply)) return;
    const position = await replicas.walPosition().catch(() => null);
    if (position === null) return;
    const text = formatWalPosition(position);
    reply.header(WAL_POSITION_HEADER, text);
    reply.header(
      'set-cookie',
      `${WAL_COOKIE}=${text}; Path=/api; Max-Age=${WAL_COOKIE_SECONDS}; HttpOnly; SameSite=Strict${request.protocol === 'https' ? '; Secure' : ''}`,
    );
  });
});
