import type { FastifyRequest } from 'fastify';

/**
 * The API route a request will run (`/api/admin/users/:id`), or undefined when it runs none. The
 * router decodes and matches the path, so this is what the request reaches however its URL is
 * spelled (`/%61pi/…` runs `/api/…`): every decision about the API — key, scopes, load shedding —
 * is taken on it, never on the raw URL.
 */
export function apiRouteOf(request: FastifyRequest): string | undefined {
  const route = request.routeOptions.url;
  return route !== undefined && (route === '/api' || route.startsWith('/api/')) ? route : undefined;
}

/** True when a path no route answered looks like the API's however it is spelled (case, slashes, escapes). */
export function looksLikeApiPath(pathname: string): boolean {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A malformed escape: judged as written.
  }
  return /^\/+api(\/|$)/i.test(decoded.replace(/\/\.(?=\/)/g, ''));
}

/** Whether a request is the API's: it runs an API route, or its path looks like one that none answers. */
export function isApiRequest(request: FastifyRequest): boolean {
  return apiRouteOf(request) !== undefined || looksLikeApiPath(request.url.split('?')[0] ?? '');
}
