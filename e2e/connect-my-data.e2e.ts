import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/accessibility.ts';
import { launchBrowser } from './support/browser.ts';
import { demoUsers, startServer } from './support/server.ts';

/*
 * Green Button Connect My Data end to end (issue 37): a third-party app on its own port, a real
 * OAuth client (openid-client), CM and Chromium. An administrator registers the app; client A
 * consents to one of their meters; the app reads a month of interval data through the ESPI API;
 * an import into that meter sends the app a signed ESPI notification naming the batch to fetch;
 * client A sees the reads in "Who read my data", revokes, and the app's next call answers 401.
 */

let browser: Browser;
let baseUrl: string;
let stop: () => Promise<void> = async () => {};
const appName = `SunSizer ${Date.now().toString(36)}`;

/** An ESPI notification as the app's server received it. */
interface Notification {
  signature: string;
  body: string;
}

/**
 * The third party: its callback exchanges the code (PKCE) and keeps the tokens; its notification
 * URI keeps what CM POSTs there.
 */
class ThirdPartyApp {
  readonly server = http.createServer((request, response) => void this.handle(request, response));
  config: oauth.Configuration | undefined;
  tokens: oauth.TokenEndpointResponse | undefined;
  readonly notifications: Notification[] = [];
  private verifier = '';
  private state = '';

  get redirectUri(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/cb`;
  }

  get notificationUri(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/notify`;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  async connect(clientId: string, clientSecret: string): Promise<void> {
    // Plain http on loopback in the test; a real app talks to CM over https.
    this.config = await oauth.discovery(
      new URL(`${baseUrl}/oauth`),
      clientId,
      undefined,
      oauth.ClientSecretBasic(clientSecret),
      { execute: [oauth.allowInsecureRequests] },
    );
  }

  async authorizationUrl(): Promise<string> {
    if (!this.config) throw new Error('not connected');
    this.verifier = oauth.randomPKCECodeVerifier();
    this.state = oauth.randomState();
    return oauth.buildAuthorizationUrl(this.config, {
      redirect_uri: this.redirectUri,
      scope: 'intervals registers',
      code_challenge: await oauth.calculatePKCECodeChallenge(this.verifier),
      code_challenge_method: 'S256',
      state: this.state,
    }).href;
  }

  /** GET of an ESPI resource with the access token. */
  async read(url: string): Promise<Response> {
    if (!this.config || !this.tokens) throw new Error('no token');
    return oauth.fetchProtectedResource(this.config, this.tokens.access_token, new URL(url), 'GET');
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse) {
    if (request.method === 'POST' && request.url === '/notify') {
      let body = '';
      request.setEncoding('utf8');
      for await (const chunk of request) body += String(chunk);
      this.notifications.push({ signature: String(request.headers['x-cm-signature']), body });
      response.writeHead(204).end();
      return;
    }
    try {
      if (!this.config) throw new Error('not connected');
      this.tokens = await oauth.authorizationCodeGrant(
        this.config,
        new URL(request.url ?? '/', this.redirectUri),
        { pkceCodeVerifier: this.verifier, expectedState: this.state },
      );
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Connected</title><h1>Connected</h1>');
    } catch (error) {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    }
  }
}

const app = new ThirdPartyApp();

beforeAll(async () => {
  browser = await launchBrowser();
  const server = await startServer();
  baseUrl = server.url;
  stop = () => server.stop();
  await app.listen();
});
afterAll(async () => {
  await browser?.close();
  await stop();
  app.server.close();
});

async function signedIn(user: { email: string; password: string }, run: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  try {
    await page.goto('/login');
    await page.locator('input[type="email"]').fill(user.email);
    await page.locator('input[name="password"]').fill(user.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/check');
    await run(page);
  } finally {
    await context.close();
  }
}

/** The first and last instant of last month (UTC), as ESPI's published-min/max. */
function lastMonth(): { min: string; max: string } {
  const now = new Date();
  const max = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const min = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return { min: min.toISOString().replace('.000', ''), max: max.toISOString().replace('.000', '') };
}

describe('Connect My Data', () => {
  it('a customer connects an app to one meter; it reads a month of ESPI; the customer sees it and revokes', async () => {
    // The administrator registers the app: its client secret is shown once.
    let clientId = '';
    let clientSecret = '';
    await signedIn(demoUsers.admin, async (page) => {
      await page.goto('/admin/connect');
      await page.getByRole('textbox', { name: /^Name/ }).fill(appName);
      await page.getByRole('textbox', { name: /^Contact/ }).fill('support@sunsizer.example');
      await page.getByRole('textbox', { name: /^Redirect URIs/ }).fill(app.redirectUri);
      await page.getByRole('checkbox', { name: 'register readings' }).check();
      await page.getByRole('textbox', { name: /^Notification URI/ }).fill(app.notificationUri);
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `${appName} is registered` });
      await dialog.waitFor();
      clientSecret = (await dialog.getByTestId('secret-value').textContent()) ?? '';
      clientId = /cmapp_[0-9a-f]+/.exec((await dialog.textContent()) ?? '')?.[0] ?? '';
      await dialog.getByRole('button', { name: 'I have saved it' }).click();
    });
    expect(clientId).toMatch(/^cmapp_/);
    await app.connect(clientId, clientSecret);

    let meterNumber = '';
    await signedIn(demoUsers.clientA, async (page) => {
      // The app sends the customer to CM; CM asks them.
      const consent = await page.goto(await app.authorizationUrl());
      await page.waitForURL('**/connect/consent/**');
      expect(consent?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      await page.getByRole('heading', { level: 1, name: `${appName} asks to read your data` }).waitFor();
      const meters = page.getByRole('checkbox');
      expect(await meters.count()).toBeGreaterThanOrEqual(2);
      await expectAccessible(page, 'consent page');
      meterNumber = ((await meters.first().getAttribute('value')) ?? '').trim();
      await meters.first().check();
      await page.getByTestId('consent-allow').click();
      await page.waitForURL(`${app.redirectUri}?**`);
      await page.getByRole('heading', { name: 'Connected' }).waitFor();
    });
    expect(app.tokens?.refresh_token).toEqual(expect.any(String));
    const batch = String(app.tokens?.resourceURI);
    expect(batch).toMatch(new RegExp(`^${baseUrl}/espi/1_1/resource/Batch/Subscription/\\d+$`));

    // A month of interval data of the one meter consented to.
    const month = lastMonth();
    const read = await app.read(`${batch}?published-min=${month.min}&published-max=${month.max}`);
    expect(read.status).toBe(200);
    const xml = await read.text();
    expect(xml.match(/<espi:UsagePoint>/g)).toHaveLength(1);
    expect(xml).toContain(`<title>${meterNumber}</title>`);
    expect((xml.match(/<espi:IntervalReading>/g) ?? []).length).toBeGreaterThan(27 * 24);

    // New data of the meter (an administrator's import): CM notifies the app, signed with its client
    // secret's SHA-256, which names the batch to fetch.
    await signedIn(demoUsers.admin, async (page) => {
      const end = new Date(Math.floor(Date.now() / 900_000) * 900_000).toISOString();
      const csv = `meter_number,timestamp,interval_kwh\n${meterNumber},${end},0.125\n`;
      const report = await page.evaluate(async (body) => {
        const key = document.querySelector('meta[name="cm-api-key"]')?.getAttribute('content') ?? '';
        const token = JSON.parse(localStorage.getItem('accessToken') ?? 'null') as string;
        const response = await fetch('/api/admin/imports?format=csv', {
          method: 'POST',
          headers: { 'X-API-Key': key, Authorization: `Bearer ${token}`, 'Content-Type': 'text/csv' },
          body,
        });
        return (await response.json()) as { committed: boolean; inserted: number };
      }, csv);
      expect(report).toMatchObject({ committed: true, inserted: 1 });
    });
    for (let i = 0; i < 100 && app.notifications.length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(app.notifications).toHaveLength(1);
    const [notification] = app.notifications;
    expect(notification?.body).toContain(`<espi:resources>${batch}</espi:resources>`);
    const [, sentAt, mac] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(notification?.signature ?? '') ?? [];
    const key = createHash('sha256').update(clientSecret).digest('hex');
    expect(mac).toBe(createHmac('sha256', key).update(`${sentAt}.${notification?.body}`).digest('hex'));
    const notified = /<espi:resources>([^<]+)<\/espi:resources>/.exec(notification?.body ?? '')?.[1] ?? '';
    expect(
      (await app.read(`${notified}?published-min=${new Date(Date.now() - 3_600_000).toISOString()}`)).status,
    ).toBe(200);

    await signedIn(demoUsers.clientA, async (page) => {
      // The reads are in the meter's log, under the app's name.
      await page.goto(`/who-read/${encodeURIComponent(meterNumber)}`);
      const row = page.getByTestId('access-log-row').filter({ hasText: appName }).first();
      await row.waitFor();
      expect(await row.textContent()).toContain('Connected app');
      // Revoked at once: the app's next call is refused.
      await page.goto('/connected-apps');
      const grant = page.getByTestId('connected-app-row').filter({ hasText: appName });
      await grant.waitFor();
      await expectAccessible(page, 'connected apps');
      await grant.getByRole('button', { name: `Revoke ${appName}` }).click();
      await page.getByTestId('confirm-revoke').click();
      await grant.getByText(/^Ended/).waitFor();
    });
    // openid-client turns the 401 and its RFC 6750 challenge into an error.
    await expect(app.read(batch)).rejects.toMatchObject({
      status: 401,
      cause: [
        expect.objectContaining({
          scheme: 'bearer',
          parameters: expect.objectContaining({ error: 'invalid_token' }),
        }),
      ],
    });
  });
});
