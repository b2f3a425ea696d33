import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { ConsentDone, CreatedConnectApp } from '@cm/contracts/connect.ts';
import type { TestApp } from './test-app.ts';

// A third-party app in the server's tests (issue 37): the OAuth authorization code flow with PKCE
// driven through fastify.inject, the customer's browser played by a cookie jar.

export const REDIRECT_URI = 'http://127.0.0.1:8765/cb';

/** The cookies a browser would send back (paths ignored: every call here is to the OAuth server). */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: LightMyRequestResponse): void {
    for (const cookie of response.cookies) this.cookies.set(cookie.name, cookie.value);
  }
  get header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export interface TestOauthApp {
  id: number;
  name: string;
  clientId: string;
  clientSecret: string;
}

export async function registerApp(
  t: TestApp,
  admin: string,
  name: string,
  dataKinds: string[] = ['intervals', 'registers', 'details'],
  notificationUri: string | null = null,
): Promise<TestOauthApp> {
  const response = await t.call('POST', '/api/admin/connect/apps', {
    token: admin,
    body: { name, contact: 'dev@app.example', redirectUris: [REDIRECT_URI], dataKinds, notificationUri },
  });
  if (response.statusCode !== 201) throw new Error(`register app: ${response.statusCode} ${response.body}`);
  const { app, clientSecret } = response.json<CreatedConnectApp>();
  return { id: app.id, name: app.name, clientId: app.clientId, clientSecret };
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** The authorization request's query (PKCE S256 and state), with `change` applied. */
export function authorizeQuery(app: TestOauthApp, change: Record<string, string | undefined> = {}) {
  const verifier = randomBytes(32).toString('base64url');
  const params: Record<string, string | undefined> = {
    client_id: app.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'intervals registers',
    state: 'state-123',
    code_challenge: s256(verifier),
    code_challenge_method: 'S256',
    ...change,
  };
  const query = new URLSearchParams(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return { query: query.toString(), verifier };
}

/** Starts an authorization: answers the interaction's uid (the consent page's) and the browser's jar. */
export async function startAuthorization(
  t: TestApp,
  app: TestOauthApp,
  change: Record<string, string | undefined> = {},
) {
  const jar = new CookieJar();
  const { query, verifier } = authorizeQuery(app, change);
  const start = await t.app.inject({ method: 'GET', url: `/oauth/auth?${query}` });
  jar.take(start);
  const location = String(start.headers.location ?? '');
  const uid = /^\/connect\/consent\/([\w-]+)$/.exec(location)?.[1];
  return { start, uid, jar, verifier };
}

/** Follows the consent's answer back through the OAuth server: answers the app's callback URL. */
export async function finishAuthorization(t: TestApp, jar: CookieJar, done: ConsentDone): Promise<URL> {
  const resumed = await t.app.inject({
    method: 'GET',
    url: new URL(done.redirectTo).pathname,
    headers: { cookie: jar.header },
  });
  jar.take(resumed);
  const location = String(resumed.headers.location ?? '');
  if (!location.startsWith(REDIRECT_URI))
    throw new Error(`no callback: ${resumed.statusCode} ${location} ${resumed.body}`);
  return new URL(location);
}

/** The token endpoint, the app authenticated with HTTP Basic (client_secret_basic). */
export function tokenRequest(t: TestApp, app: TestOauthApp, form: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams(form).toString(),
  });
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  scope: string;
  token_type: string;
  /** ESPI: the Batch URI of the grant's subscription. */
  resourceURI: string;
}

/** The whole flow: the customer consents to `allow`; answers the app's tokens. */
export async function authorize(
  t: TestApp,
  app: TestOauthApp,
  customer: string,
  allow: { meterNumbers: string[]; from: string; months: number },
  scope = 'intervals registers',
): Promise<Tokens> {
  const { uid, jar, verifier } = await startAuthorization(t, app, { scope });
  if (!uid) throw new Error('no consent page');
  const consent = await t.call('POST', `/api/connect/consent/${uid}/allow`, { token: customer, body: allow });
  if (consent.statusCode !== 200) throw new Error(`consent: ${consent.statusCode} ${consent.body}`);
  const callback = await finishAuthorization(t, jar, consent.json<ConsentDone>());
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code: ${callback.href}`);
  const tokens = await tokenRequest(t, app, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
  });
  if (tokens.statusCode !== 200) throw new Error(`token: ${tokens.statusCode} ${tokens.body}`);
  return tokens.json<Tokens>();
}
