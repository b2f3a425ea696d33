import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { API_KEY_HEADER } from '@cm/contracts/enums.ts';
import { forbidden, unauthorized } from '../http-error.ts';
import type { ApiKeyIdentity } from '../modules/access/index.ts';
import { apiRouteOf, isApiRequest } from './api-route.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKeyIdentity | null;
  }
}

// Only liveness/readiness may be asked without a key (issue 2), so that probes need no secret.
const OPEN_ROUTES = new Set(['/api/health']);
// The API's own description holds no data; a browser showing it cannot send a header.
const isDocsRoute = (route: string) => route === '/api/docs' || route.startsWith('/api/docs/');
const headerName = API_KEY_HEADER.toLowerCase();
const UNROUTED = '/api/*';

function isIngestRoute(route: string) {
  return route.startsWith('/api/ingest/');
}

/**
 * Every request that runs an /api route must carry a valid, unrevoked API key; an ingest-only key
 * may only ingest, a read-only key only read. Decided on the route the request runs (apiRouteOf).
 */
/** What the guard needs of the API keys module (its ApiKeyVerifier, handed in by app.ts). */
interface ApiKeyChecker {
  verify(key: string): Promise<ApiKeyIdentity | null>;
}

export const apiKeyGuard = fp(async (app: FastifyInstance, options: { verifier: ApiKeyChecker }) => {
  app.decorateRequest('apiKey', null);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const route = apiRouteOf(request);
    // A path no route answers still needs a key when it looks like the API's: without one, the
    // answer is 401 wherever the caller knocks, so that it cannot map the API either.
    const path = route ?? (isApiRequest(request) ? UNROUTED : undefined);
    if (path === undefined) return;
    if (OPEN_ROUTES.has(path) || isDocsRoute(path)) return;
    const header = request.headers[headerName];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) throw unauthorized(`Missing API key: send it in the ${API_KEY_HEADER} header.`);
    if (key.length > 200) throw unauthorized(`The API key in the ${API_KEY_HEADER} header is not valid.`);
    const identity = await options.verifier.verify(key);
    if (!identity)
      throw unauthorized(`The API key in the ${API_KEY_HEADER} header is not valid or has been revoked.`);
    request.apiKey = identity;
    if (path === UNROUTED) return;
    const isIngest = isIngestRoute(path);
    if (isIngest && !identity.scopes.includes('ingest'))
      throw forbidden('This API key may not ingest readings (scope ingest needed).');
    if (!isIngest && !identity.scopes.some((scope) => scope === 'web' || scope === 'read')) {
      throw forbidden('This API key may only ingest readings.');
    }
    if (
      identity.scopes.every((scope) => scope !== 'web') &&
      request.method !== 'GET' &&
      !isIngest &&
      path !== '/api/auth/login' &&
      path !== '/api/auth/logout' &&
      path !== '/api/auth/refresh'
    ) {
      throw forbidden('This API key is read-only.');
    }
  });
});
