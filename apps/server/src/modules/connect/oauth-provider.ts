import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import type Provider from 'oidc-provider';
import type * as OidcProviderModule from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { connectDataKinds } from '@cm/contracts/connect.ts';
import type { SqlRunner } from '../../db/client.ts';
import { oauthAdapter } from './oauth-adapter.ts';

/** The resource the tokens are for: the ESPI resource API (RFC 8707 resource indicator). */
export const ESPI_RESOURCE = 'urn:check-meter:espi';
/** Where the OAuth server is mounted. */
export const OAUTH_PATH = '/oauth';
/** The consent page of the web app; `:uid` the interaction. */
export const consentPagePath = (uid: string) => `/connect/consent/${uid}`;

const MINUTE = 60;
const DAY = 86_400;
/** Access tokens live 10 minutes; refresh tokens, rotated at each use, 30 days. */
const ACCESS_TOKEN_SECONDS = 10 * MINUTE;
const REFRESH_TOKEN_SECONDS = 30 * DAY;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * oidc-provider 9 warns as it loads that Node 20 is not a runtime it supports; CM runs on Node
 * ≥ 20.19 (package engines) and its whole suite passes there. That one line, in red, would alarm
 * everyone who runs `npm start`, so it is kept out of the output while the module loads; every
 * other warning passes.
 */
async function loadOidcProvider(): Promise<typeof OidcProviderModule> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!(typeof args[0] === 'string' && args[0].includes('Unsupported runtime'))) warn(...args);
  };
  try {
    return await import('oidc-provider');
  } finally {
    console.warn = warn;
  }
}

/**
 * CM's OAuth 2.0 authorization server (oidc-provider) for Green Button Connect My Data: the
 * authorization code flow with PKCE (S256, required of every client), clients from connect_apps,
 * scopes the kinds of data, opaque access tokens for the ESPI resource bound to the grant, refresh
 * tokens rotated (a refresh token used twice ends the grant: ConnectGrantsService hears it). The login and
 * consent interaction is the web app's consent page; nothing else of OpenID Connect is offered.
 */
export async function createOauthProvider(options: {
  db: SqlRunner;
  publicUrl: string;
  /** Signs the provider's cookies (derived: it is never the secret itself). */
  secret: string;
  isBehindProxy: boolean;
  log: { error: (detail: object, message: string) => void };
}): Promise<Provider> {
  // Signing keys for ID tokens, which CM never issues (no `openid` scope): the provider wants one.
  const { default: OidcProvider, errors } = await loadOidcProvider();
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const cookieKey = createHmac('sha256', options.secret).update('cm oauth cookies').digest('base64url');
  const provider = new OidcProvider(`${options.publicUrl}${OAUTH_PATH}`, {
    adapter: oauthAdapter(options.db),
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    scopes: [],
    claims: {},
    responseTypes: ['code'],
    pkce: { required: () => true },
    cookies: { keys: [cookieKey] },
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'ES256', use: 'sig' }] },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => ESPI_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== ESPI_RESOURCE) throw new errors.InvalidTarget();
          return {
            scope: connectDataKinds.join(' '),
            audience: ESPI_RESOURCE,
            accessTokenFormat: 'opaque',
            accessTokenTTL: ACCESS_TOKEN_SECONDS,
          };
        },
      },
    },
    // Every authorization asks the customer (a grant is for the meters and dates picked then): the
    // only grant an authorization finishes with is the one the consent page has just given.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    interactions: { url: (_ctx, interaction) => consentPagePath(interaction.uid) },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    expiresWithSession: async () => false,
    ttl: {
      AccessToken: ACCESS_TOKEN_SECONDS,
      AuthorizationCode: MINUTE,
      RefreshToken: REFRESH_TOKEN_SECONDS,
      Interaction: 30 * MINUTE,
      Session: 30 * MINUTE,
      // The grant's own end is connect_grants.until (at most three years); saved with it.
      Grant: 3 * 366 * DAY,
    },
    renderError: async (ctx: KoaContextWithOIDC, out) => {
      ctx.type = 'application/json';
      ctx.body = out;
    },
  });
  provider.proxy = options.isBehindProxy;
  // Only the secret's SHA-256 is kept (connect-apps.service.ts): the stored `client_secret` is that
  // hash, compared with the hash of what the app sends, in constant time.
  provider.Client.prototype.compareClientSecret = function compareHashed(actual: string) {
    const stored = Buffer.from(this.clientSecret ?? '', 'hex');
    const sent = sha256(actual);
    return stored.length === sent.length && timingSafeEqual(stored, sent);
  };
  provider.on('server_error', (_ctx: unknown, error: unknown) => {
    options.log.error({ err: error }, 'connect: OAuth server error');
  });
  return provider;
}
