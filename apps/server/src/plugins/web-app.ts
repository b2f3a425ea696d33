import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const API_KEY_PLACEHOLDER = '__CM_API_KEY__';

/**
 * Serves the built web app from the same process: hashed assets with long-cache headers, and
 * index.html (never cached) for every client route, with the web app's API key written into it
 * at run time so that the key is never baked into the bundle.
 */
export const webApp = fp(async (app: FastifyInstance, options: { distDir: string; apiKey: string }) => {
  const indexFile = path.join(options.distDir, 'index.html');
  // index.html is read again when a new build replaces it, so a redeploy needs no restart.
  let loaded: { mtimeMs: number; html: string } | undefined;
  const currentIndex = async (): Promise<string | undefined> => {
    const info = await stat(indexFile).catch(() => undefined);
    if (!info) return undefined;
    if (loaded?.mtimeMs !== info.mtimeMs) {
      const template = await readFile(indexFile, 'utf8');
      loaded = { mtimeMs: info.mtimeMs, html: template.replaceAll(API_KEY_PLACEHOLDER, options.apiKey) };
    }
    return loaded.html;
  };

  if (await currentIndex()) {
    await app.register(fastifyStatic, {
      root: options.distDir,
      index: false,
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
    const wantsPage = request.method === 'GET' && !pathname.startsWith('/api') && !path.extname(pathname);
    const indexHtml = wantsPage ? await currentIndex() : undefined;
    if (wantsPage && indexHtml) {
      return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(indexHtml);
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
