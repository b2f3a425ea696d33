import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { API_KEY_HEADER } from '@cm/contracts/enums.ts';
import { forbidden, unauthorized } from '../http-error.ts';
import type { ApiKeyIdentity, ApiKeyVerifier } from '../modules/api-keys/api-keys.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKeyIdentity | null;
  }
}

// Only liveness/readiness may be asked without a key (issue 2), so that probes need no secret.
const OPEN_PATHS = new Set(['/api/health']);
// The API's own description holds no data; a browser showing it cannot send a header.
const isDocsPath = (path: string) => path === '/api/docs' || path.startsWith('/api/docs/');
const headerName = API_KEY_HEADER.toLowerCase();

function isIngestPath(url: string) {
  return url.startsWith('/api/ingest/');
}

/** Every /api request must carry a valid, unrevoked API key; an ingest-only key may only ingest. */
export const apiKeyGuard = fp(async (app: FastifyInstance, options: { verifier: ApiKeyVerifier }) => {
  app.decorateRequest('apiKey', null);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const path = request.url.split('?')[0] ?? '';
    if (!path.startsWith('/api/') && path !== '/api') return;
    if (OPEN_PATHS.has(path) || isDocsPath(path)) return;
    const header = request.headers[headerName];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) throw unauthorized(`Missing API key: send it in the ${API_KEY_HEADER} header.`);
    if (key.length > 200) throw unauthorized(`The API key in the ${API_KEY_HEADER} header is not valid.`);
    const identity = await options.verifier.verify(key);
    if (!identity)
      throw unauthorized(`The API key in the ${API_KEY_HEADER} header is not valid or has been revoked.`);
    const isIngest = isIngestPath(path);
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
    request.apiKey = identity;
  });
});
