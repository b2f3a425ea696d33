import { readFile } from 'node:fs/promises';
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
  const template = await readFile(indexFile, 'utf8').catch(() => undefined);
  const indexHtml = template?.replaceAll(API_KEY_PLACEHOLDER, options.apiKey);

  if (indexHtml) {
    await app.register(fastifyStatic, {
      root: options.distDir,
      index: false,
      wildcard: false,
      setHeaders(res, filePath) {
        const isHashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header(
          'Cache-Control',
          isHashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage = request.method === 'GET' && !pathname.startsWith('/api') && !path.extname(pathname);
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
