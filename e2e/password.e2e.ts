import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { demoUsers, startServer } from './support/server.ts';

/*
 * Passwords against the real server and Chromium: an administrator's reset forces the user to
 * change the password before anything else, and a logout in one tab ends the others. The suite
 * shares one server with the other browser tests, so the client here is new (created through the
 * admin API with a per-run email) and no demo user's password changes.
 */

const MARINA = 'Marina Quay / Pier 4';
const suffix = Date.now().toString(36);
const client = {
  email: `reset.${suffix}@e2e.cm`,
  fullName: `E2E Reset ${suffix}`,
  password: 'Initial!e2e-2026',
};
const chosen = 'Chosen!e2e-2026-pw';

let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  browser = await launchBrowser();
  baseUrl = (await startServer()).url;
});
afterAll(async () => {
  await browser?.close();
});

/** A fresh browser context (its own local storage), closed afterwards. */
async function withContext(run: (context: BrowserContext, page: Page) => Promise<void>) {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  try {
    await run(context, page);
  } catch (error) {
    if (process.env.CM_E2E_SHOTS)
      await page.screenshot({ path: `${process.env.CM_E2E_SHOTS}/password-failure-${Date.now()}.png` });
    throw error;
  } finally {
    await context.close();
  }
}

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.locator('input[type="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('button[type="submit"]').click();
}

/** A call from inside the page with its API key and the stored token, as the app sends them. */
async function api<T>(page: Page, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ([path, body]) => {
      const key = document.querySelector('meta[name="cm-api-key"]')?.getAttribute('content') ?? '';
      const token = JSON.parse(localStorage.getItem('accessToken') ?? 'null');
      const response = await fetch(path, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          'X-API-Key': key,
          Authorization: `Bearer ${token}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? null : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text === '' ? null : JSON.parse(text) };
    },
    [path, body] as const,
  );
}

/** The administrator creates the client (API) and resets its password (Users page); answers the temporary password. */
async function createAndReset(page: Page): Promise<string> {
  await logIn(page, demoUsers.admin.email, demoUsers.admin.password);
  await page.waitForURL('**/check');
  const locations = await api<{ items: { id: number; publicName: string }[] }>(
    page,
    `/api/admin/locations?search=${encodeURIComponent('Marina')}`,
  );
  const marina = locations.body.items.find((location) => location.publicName === MARINA);
  if (!marina) throw new Error(`no location ${MARINA}`);
  const created = await api(page, '/api/admin/users', { ...client, role: 2, locationIds: [marina.id] });
  expect(created.status).toBe(201);

  await page.goto('/admin/users');
  await page.getByRole('searchbox', { name: 'Search' }).fill(client.email);
  await page.getByTestId(`user-row-${client.email}`).waitFor();
  await page.getByRole('button', { name: `More actions for ${client.fullName}` }).click();
  await page.getByRole('menuitem', { name: 'Reset password' }).click();
  const confirm = page.getByRole('dialog', { name: 'Reset password' });
  await confirm.getByRole('button', { name: 'Reset password' }).click();
  const shown = page.getByRole('dialog', { name: `New password for ${client.fullName}` });
  const temporary = (await shown.getByTestId('secret-value').textContent())?.trim() ?? '';
  expect(temporary.length).toBeGreaterThanOrEqual(10);
  await shown.getByRole('button', { name: 'I have saved it' }).click();
  return temporary;
}

describe('passwords', () => {
  it('after an administrator resets it, the client must change the password before anything else', async () => {
    let temporary = '';
    await withContext(async (_context, page) => {
      temporary = await createAndReset(page);
    });

    await withContext(async (_context, page) => {
      await logIn(page, client.email, temporary);
      await page.waitForURL('**/change-password');
      await page
        .getByText('An administrator set this password for you. Choose your own to continue.')
        .waitFor();

      // No other page opens, not even by URL.
      const wanted = `/check?location=${encodeURIComponent(MARINA)}&meterInd=1`;
      await page.goto(wanted);
      await page.getByRole('heading', { name: 'Change your password' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/change-password');
      expect((await api(page, '/api/bookmarks/data')).status).toBe(403);

      const { violations } = await new AxeBuilder({ page }).analyze();
      const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

      // An easy password is refused before it is sent, saying why (the server's own policy).
      await page.locator('input[name="currentPassword"]').fill(temporary);
      await page.locator('input[name="newPassword"]').fill('password12');
      await page.locator('input[name="confirmPassword"]').fill('password12');
      await page.getByRole('button', { name: 'Change password', exact: true }).click();
      await page
        .getByText('This is one of the most common passwords, or close to one. Choose another.')
        .waitFor();
      expect(new URL(page.url()).pathname).toBe('/change-password');

      // A wrong current password is said next to its field, and nothing changes.
      await page.locator('input[name="currentPassword"]').fill('not-the-temporary-one');
      await page.locator('input[name="newPassword"]').fill(chosen);
      await page.locator('input[name="confirmPassword"]').fill(chosen);
      await page.getByRole('button', { name: 'Change password', exact: true }).click();
      await page.getByText('This is not your current password.').waitFor();
      expect(new URL(page.url()).pathname).toBe('/change-password');

      await page.locator('input[name="currentPassword"]').fill(temporary);
      await page.getByRole('button', { name: 'Change password', exact: true }).click();
      await page.getByText('Your password has been changed.').waitFor();
      // On to the page that was asked for, which now shows the client's readings.
      await page.waitForURL((url) => url.pathname === '/check' && url.search.includes('meterInd=1'));
      await page.getByTestId('total-consumption').waitFor();
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('userData') ?? 'null'));
      expect(stored.user.mustChangePassword).toBe(false);
      expect((await api(page, '/api/bookmarks/data')).status).toBe(200);
    });
  });

  it('a logout in one tab logs the other tabs out and sends them to /login', async () => {
    await withContext(async (context, first) => {
      await logIn(first, client.email, chosen);
      await first.waitForURL('**/check');
      const second = await context.newPage();
      await second.goto('/check');
      await second.getByRole('navigation', { name: 'Main menu' }).waitFor();

      // The page chosen from the user menu works too, and is left without a change.
      await second.getByRole('button', { name: `Account menu for ${client.fullName}` }).click();
      await second.getByRole('menuitem', { name: 'Change password' }).click();
      await second.getByRole('heading', { name: 'Change your password' }).waitFor();
      expect(await second.getByText('An administrator set this password for you.').count()).toBe(0);
      await second.getByRole('button', { name: 'Cancel' }).click();
      await second.waitForURL('**/check');

      await first.getByRole('button', { name: `Account menu for ${client.fullName}` }).click();
      await first.getByRole('menuitem', { name: 'Log out' }).click();
      await first.waitForURL('**/login');
      await second.waitForURL('**/login');
      await second.locator('input[type="email"]').waitFor();
      expect(await second.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
    });
  });
});
