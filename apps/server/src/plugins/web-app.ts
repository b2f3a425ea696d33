import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { looksLikeApiPath } from './api-route.ts';
import { pickEncoding, WebIndex, withScriptHashes } from './web-index.ts';

/**
 * Serves the built web app from the same process: hashed assets with long-cache headers, in
 * the brotli or gzip form the build wrote next to each file when the browser accepts it, and
 * index.html (never cached, compressed on the fly) for every client route, with the web app's
 * API key written into it at run time so that the key is never baked into the bundle (and its
 * inline start-up script allowed by its hash in the Content-Security-Policy).
 */
export const webApp = fp(async (app: FastifyInstance, options: { distDir: string; apiKey: string }) => {
  // index.html is read again when a new build replaces it, so a redeploy needs no restart.
  const index = new WebIndex(options.distDir, options.apiKey);

  if (await index.exists()) {
    await app.register(fastifyStatic, {
      root: options.distDir,
      index: false,
      // `x.js.br` / `x.js.gz` written by the build, chosen by Accept-Encoding (with `Vary`).
      preCompressed: true,
      // Files are looked up per request (not listed once at start), so a rebuild's new hashed assets are served.
      wildcard: true,
      // The raw template still holds the key placeholder: index.html is only ever sent filled in; folders
      // (such as `/`) are client routes, not directory listings.
      allowedPath: (pathName) => pathName !== '/index.html' && !pathName.endsWith('/'),
      setHeaders(res, filePath) {
        const isHashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header(
          'Cache-Control',
          isHashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    // A path that looks like the API's in any spelling is a missing API route, not a page.
    const wantsPage = request.method === 'GET' && !looksLikeApiPath(pathname) && !path.extname(pathname);
    const encoding = pickEncoding(request.headers['accept-encoding']);
    const page = wantsPage ? await index.page(pathname, encoding) : undefined;
    if (page !== undefined) {
      if (encoding) reply.header('Content-Encoding', encoding);
      // index.html's own inline script (it must run before the first paint) is allowed by its hash.
      const policy = reply.getHeader('content-security-policy');
      if (typeof policy === 'string')
        reply.header('Content-Security-Policy', withScriptHashes(policy, page.scriptHashes));
      return reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .header('Vary', 'Accept-Encoding')
        .send(page.body);
    }
    if (wantsPage) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built yet: run `npm run build` (npm start does it for you).');
    }
    return reply.status(404).send({
      statusCode: 404,
      error: 'Not Found',
      message: `No route for ${request.method} ${pathname}.`,
    });
  });
});
