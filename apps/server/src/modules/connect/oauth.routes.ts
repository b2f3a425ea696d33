import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { OAUTH_PATH } from './oauth-provider.ts';

/**
 * The OAuth server under /oauth: its metadata (/oauth/.well-known/openid-configuration), the
 * authorization endpoint and its resumption after consent, the token and revocation endpoints. The provider reads bodies itself, so this
 * plugin's routes leave them unparsed; the provider sees the path without /oauth and the original
 * in `originalUrl`, which is how it learns its mount path.
 */
export const oauthRoutes: FastifyPluginAsync<{ provider: Provider }> = async (app, { provider }) => {
  const handle = provider.callback();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    const original = request.raw.url ?? OAUTH_PATH;
    Object.assign(request.raw, { originalUrl: original, url: original.slice(OAUTH_PATH.length) || '/' });
    await handle(request.raw, reply.raw);
  };
  // The provider's endpoints CM uses, and no other (no CORS: apps call them from their servers).
  const endpoints: Array<[Array<'GET' | 'POST'>, string]> = [
    [['GET'], '/.well-known/openid-configuration'],
    [['GET'], '/jwks'],
    [['GET'], '/auth'],
    [['GET'], '/auth/:uid'],
    [['POST'], '/token'],
    [['POST'], '/token/revocation'],
  ];
  for (const [method, path] of endpoints)
    app.route({ method, url: `${OAUTH_PATH}${path}`, schema: { hide: true }, handler: forward });
};
