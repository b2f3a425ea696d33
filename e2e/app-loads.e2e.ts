import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { startServer } from './support/server.ts';

let browser: Browser;
let url: string;
beforeAll(async () => {
  browser = await launchBrowser();
  url = (await startServer()).url;
});
afterAll(() => browser?.close());

describe('the built app', () => {
  it('loads in Chromium from the same server as the API, with its API key injected at run time', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${url}/login`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    const key = await page.locator('meta[name="cm-api-key"]').getAttribute('content');
    expect(key).toMatch(/^cm_/);
    await page.waitForSelector('input[type="email"], input[name="email"]', { timeout: 20_000 });
    const health = await page.request.get(`${url}/api/health`);
    expect(await health.json()).toMatchObject({ status: 'ok', database: { kind: 'embedded', ready: true } });
    const asset = await page.evaluate(() =>
      [...document.scripts].map((s) => s.src).find((src) => src.includes('/assets/')),
    );
    expect(asset).toBeTruthy();
    const assetResponse = await page.request.get(String(asset));
    expect(assetResponse.headers()['cache-control']).toContain('immutable');
    await page.close();
  });
});
