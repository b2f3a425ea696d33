import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/accessibility.ts';
import { launchBrowser } from './support/browser.ts';
import { demoUsers, startServer } from './support/server.ts';

/*
 * "Who read my data" and the register of third-party apps (issue 37) against the real server and
 * Chromium: an administrator opens a client's meter and registers an app; the client sees the
 * administrator's read in the meter's log, at a desktop's width and a phone's, light and dark.
 */

let browser: Browser;
let baseUrl: string;
let stop: () => Promise<void> = async () => {};
const suffix = Date.now().toString(36);

beforeAll(async () => {
  browser = await launchBrowser();
  const server = await startServer();
  baseUrl = server.url;
  stop = () => server.stop();
});
afterAll(async () => {
  await browser?.close();
  await stop();
});

async function signedIn(
  user: { email: string; password: string },
  run: (page: Page) => Promise<void>,
  options: { width?: number; colorScheme?: 'light' | 'dark' } = {},
) {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: options.width ?? 1280, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
  });
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

/** Client A's first meter, as its search finds it. */
async function firstMeterOfClientA(page: Page): Promise<string> {
  const titles = await page.evaluate(async () => {
    const key = document.querySelector('meta[name="cm-api-key"]')?.getAttribute('content') ?? '';
    const token = JSON.parse(localStorage.getItem('accessToken') ?? 'null') as string;
    const response = await fetch('/api/search?q=EM', {
      headers: { 'X-API-Key': key, Authorization: `Bearer ${token}` },
    });
    const body = (await response.json()) as { results: { kind: string; title: string }[] };
    return body.results.filter((result) => result.kind === 'meter').map((result) => result.title);
  });
  const first = titles[0];
  if (!first) throw new Error('client A has no meter');
  return first;
}

describe('who read my data', () => {
  it('shows the client an administrator’s read of their meter; the log is accessible on a phone, dark', async () => {
    let meterNumber = '';
    await signedIn(demoUsers.clientA, async (page) => {
      meterNumber = await firstMeterOfClientA(page);
    });
    await signedIn(demoUsers.admin, async (page) => {
      await page.goto(`/check?meter=${encodeURIComponent(meterNumber)}`);
      await page.getByRole('heading', { name: `Meter ${meterNumber}` }).waitFor();
    });
    for (const look of [
      { width: 1280, colorScheme: 'light' as const },
      { width: 390, colorScheme: 'dark' as const },
    ]) {
      await signedIn(
        demoUsers.clientA,
        async (page) => {
          await page.goto(`/check?meter=${encodeURIComponent(meterNumber)}`);
          await page.getByTestId('who-read-link').click();
          await page.waitForURL(`**/who-read/${encodeURIComponent(meterNumber)}`);
          const row = page.getByTestId('access-log-row').filter({ hasText: 'Dana Whitfield' }).first();
          await row.waitFor();
          expect(await row.textContent()).toContain('Administrator');
          await expectAccessible(page, `who read my data, ${look.width} px ${look.colorScheme}`);
          // Nothing sticks out sideways on a phone: the table scrolls inside its box.
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          );
          expect(overflow).toBe(0);
        },
        look,
      );
    }
  });
});

describe('third-party apps', () => {
  it('an administrator registers an app and is shown its client secret once', async () => {
    await signedIn(demoUsers.admin, async (page) => {
      await page.goto('/admin/connect');
      await page.getByRole('heading', { level: 1, name: 'Connected apps (third parties)' }).waitFor();
      await expectAccessible(page, 'third-party apps');
      await page.getByRole('textbox', { name: /^Name/ }).fill(`SunSizer ${suffix}`);
      await page.getByRole('textbox', { name: /^Contact/ }).fill('support@sunsizer.example');
      await page
        .getByRole('textbox', { name: /^Redirect URIs/ })
        .fill('https://sunsizer.example/callback\nhttp://127.0.0.1:8765/cb');
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `SunSizer ${suffix} is registered` });
      await dialog.waitFor();
      expect(await dialog.getByTestId('secret-value').textContent()).toMatch(/^cmcs_/);
      await expectAccessible(page, 'client secret dialog');
      await dialog.getByRole('button', { name: 'I have saved it' }).click();
      const row = page.getByTestId(`connect-app-SunSizer ${suffix}`);
      await row.waitFor();
      await row.getByRole('button', { name: `Suspend SunSizer ${suffix}` }).click();
      await row.getByText('Suspended').waitFor();
    });
  });
});
