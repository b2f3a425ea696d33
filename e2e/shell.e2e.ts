import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { demoUsers, startServer } from './support/server.ts';

/*
 * The web app shell against the real server and Chromium: login and landing, session loss
 * (401 and network), language, skin and direction persistence, bookmarks, permissions, axe.
 */

let browser: Browser;
let baseUrl: string;
let stop: () => Promise<void> = async () => {};

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

interface DemoUser {
  email: string;
  password: string;
}

async function withPage(
  run: (page: Page, context: BrowserContext) => Promise<void>,
  viewport = { width: 1280, height: 800 },
) {
  const context = await browser.newContext({ baseURL: baseUrl, viewport });
  const page = await context.newPage();
  try {
    await run(page, context);
  } finally {
    await context.close();
  }
}

async function logIn(page: Page, user: DemoUser) {
  await page.locator('input[type="email"]').fill(user.email);
  await page.locator('input[name="password"]').fill(user.password);
  await page.locator('button[type="submit"]').click();
}

async function openLoginPage(page: Page, path = '/login') {
  await page.goto(path);
  await page.locator('input[type="email"]').waitFor();
}

/** Logs in from the login page and waits for the landing on /check. */
async function logInToCheck(page: Page, user: DemoUser) {
  await openLoginPage(page);
  await logIn(page, user);
  await page.waitForURL('**/check');
}

/** Opens the navbar search with the keyboard and types, which calls /api/search. */
async function searchFor(page: Page, text: string) {
  await page.locator('body').press('Control+k');
  const input = page.getByRole('combobox', { name: 'Search pages, meters and locations' });
  await input.waitFor();
  await input.fill(text);
}

function visitedPaths(page: Page): string[] {
  const paths: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) paths.push(new URL(frame.url()).pathname);
  });
  return paths;
}

describe('web app shell', () => {
  it('admin and client log in and land on /check; only the admin sees Administration', async () => {
    for (const [user, seesAdmin] of [
      [demoUsers.admin, true],
      [demoUsers.clientA, false],
    ] as const) {
      await withPage(async (page) => {
        await openLoginPage(page, '/');
        expect(new URL(page.url()).pathname).toBe('/login');
        await logIn(page, user);
        await page.waitForURL('**/check');
        await page.getByRole('navigation', { name: 'Main menu' }).waitFor();
        const adminLinks = await page.getByRole('link', { name: 'Administration' }).count();
        expect(adminLinks > 0).toBe(seesAdmin);
        const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('userData') ?? 'null'));
        expect(stored).toMatchObject({ isLoggedIn: true, user: { email: user.email } });
        expect(Array.isArray(stored.ability)).toBe(true);
      });
    }
  });

  it('a wrong password gets a clear message and no demo hint is shown', async () => {
    await withPage(async (page) => {
      await openLoginPage(page);
      expect(await page.content()).not.toContain(demoUsers.admin.password);
      await logIn(page, { ...demoUsers.admin, password: 'wrong-password' });
      await page.getByRole('alert').getByText('The email address or password is incorrect.').waitFor();
      expect(new URL(page.url()).pathname).toBe('/login');
    });
  });

  it('an invalid token mid-session goes to / and the login page says the session expired, then returns to the page', async () => {
    await withPage(async (page) => {
      await logInToCheck(page, demoUsers.clientA);
      await page.goto('/check?meter=EM-10001');
      await page.getByRole('navigation', { name: 'Main menu' }).waitFor();
      const paths = visitedPaths(page);

      await page.evaluate(() => localStorage.setItem('accessToken', JSON.stringify('not-a-valid-token')));
      // The next API call — the page's own background refresh, or this reload's lookups — meets the bad token.
      await page.reload();

      await page.getByRole('status').filter({ hasText: 'Session Expired! Please login again.' }).waitFor();
      await page.waitForURL('**/login');
      expect(paths).toContain('/');
      expect(await page.evaluate(() => localStorage.getItem('userData'))).toBeNull();
      expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
      // One toast, not one per failed call; and the login page keeps saying it after the toast
      // has gone (17.9), until the next sign-in.
      const message = 'Session Expired! Please login again.';
      expect(await page.getByRole('status').filter({ hasText: message }).count()).toBe(1);
      expect(await page.getByTestId('session-lost').textContent()).toBe(message);

      await logIn(page, demoUsers.clientA);
      await page.waitForURL('**/check?meter=EM-10001');
    });
  });

  it('the keys typed right after / go into the search while it opens, and typing goes on after them', async () => {
    await withPage(async (page) => {
      await logInToCheck(page, demoUsers.clientA);
      await page.getByRole('navigation', { name: 'Main menu' }).waitFor();
      // The dialog's code loads on first open: nothing typed meanwhile may be lost.
      await page.locator('body').press('/');
      await page.keyboard.type('Harbour');
      const input = page.getByRole('combobox', { name: 'Search pages, meters and locations' });
      await input.waitFor();
      await expect.poll(() => input.inputValue()).toBe('Harbour');
      // The location itself (its meters, which say where they are, are listed too).
      await page.getByRole('option', { name: /^Harbour View \/ Block C/ }).waitFor();
      await page.keyboard.type(' View');
      expect(await input.inputValue()).toBe('Harbour View');
    });
  });

  it('the server going away ends the session with "Network Error! Please login again."', async () => {
    await withPage(async (page) => {
      await logInToCheck(page, demoUsers.clientA);
      await page.getByRole('navigation', { name: 'Main menu' }).waitFor();

      await page.route('**/api/**', (route) => route.abort('connectionrefused'));
      await searchFor(page, 'EM');
      const networkToast = page.getByRole('status').filter({ hasText: 'Network Error! Please login again.' });
      await networkToast.waitFor();
      await page.waitForURL('**/login');
      expect(await networkToast.count()).toBe(1);
      expect(await page.getByTestId('session-lost').textContent()).toBe('Network Error! Please login again.');

      await page.unroute('**/api/**');
      await logIn(page, demoUsers.clientA);
      await page.waitForURL('**/check');
    });
  });

  it('the language choice persists across reloads, and ?lng= wins', async () => {
    await withPage(async (page) => {
      await openLoginPage(page);
      await page.getByRole('heading', { name: 'Welcome to Check Meter' }).waitFor();
      const expected = {
        fr: 'Bienvenue sur Check Meter',
        de: 'Willkommen bei Check Meter',
        pt: 'Bem-vindo ao Check Meter',
      };
      for (const [lng, heading] of Object.entries(expected)) {
        await page.locator('select').selectOption(lng);
        await page.getByRole('heading', { name: heading }).waitFor();
        await page.reload();
        await page.getByRole('heading', { name: heading }).waitFor();
        expect(await page.getAttribute('html', 'lang')).toBe(lng);
      }
      await page.locator('select').selectOption('de');
      await page.getByRole('heading', { name: expected.de }).waitFor();
      await page.goto('/login?lng=pt');
      await page.getByRole('heading', { name: expected.pt }).waitFor();
      expect(await page.getAttribute('html', 'lang')).toBe('pt');
    });
  });

  it('right-to-left and the dark skin persist across reloads', async () => {
    await withPage(async (page) => {
      await logInToCheck(page, demoUsers.admin);
      await page.getByRole('button', { name: 'Customize layout' }).click();
      await page.getByRole('radio', { name: 'Dark', exact: true }).check();
      await page.getByRole('radio', { name: 'Right to left' }).check();
      await page.keyboard.press('Escape');

      await page.reload();
      await page.getByRole('navigation', { name: 'Main menu' }).waitFor();
      expect(await page.getAttribute('html', 'dir')).toBe('rtl');
      expect(await page.getAttribute('html', 'data-mantine-color-scheme')).toBe('dark');
      expect(
        await page.evaluate(() => [localStorage.getItem('skin'), localStorage.getItem('isRtl')]),
      ).toEqual(['"dark"', 'true']);
    });
  });

  it('on a phone the menu is a drawer, the customizer opens from the user menu, and neither offers what a phone cannot use', async () => {
    await withPage(
      async (page) => {
        await openLoginPage(page);
        await logIn(page, demoUsers.clientA);
        await page.waitForURL('**/check');
        // No floating customizer button over the page's content on a phone.
        expect(await page.getByRole('button', { name: 'Customize layout' }).count()).toBe(0);
        await page.getByRole('button', { name: /^Account menu for/ }).click();
        await page.getByRole('menuitem', { name: 'Customize layout' }).click();
        const customizer = page.getByRole('dialog', { name: 'Layout' });
        await customizer.waitFor();
        await customizer.getByRole('radio', { name: 'Dark', exact: true }).check();
        // The phone's menu is a drawer: collapsing it would do nothing, so it is not offered.
        expect(await customizer.getByRole('switch', { name: 'Collapse the menu' }).count()).toBe(0);
        await page.keyboard.press('Escape');
        await page.getByRole('button', { name: 'Open menu' }).click();
        await page
          .getByRole('dialog', { name: 'Main menu' })
          .getByRole('link', { name: 'Check a meter' })
          .waitFor();
        expect(await page.getAttribute('html', 'data-mantine-color-scheme')).toBe('dark');
      },
      { width: 390, height: 844 },
    );
  });

  it('a bookmark starred in the navbar survives a reload', async () => {
    await withPage(async (page) => {
      await logInToCheck(page, demoUsers.clientB);
      await page.getByRole('button', { name: 'Bookmarks' }).click();
      const dialog = page.getByRole('dialog', { name: 'Bookmarks' });
      const star = dialog.getByRole('button', { name: /^Add .* to bookmarks$/ }).first();
      const label = (await star.getAttribute('aria-label')) ?? '';
      const title = label.replace(/^Add /, '').replace(/ to bookmarks$/, '');
      const saved = page.waitForResponse((r) => r.url().endsWith('/api/bookmarks/update') && r.ok());
      await star.click();
      await saved;
      const quickLinks = page.getByRole('navigation', { name: 'Bookmarked pages' });
      await quickLinks.getByRole('link', { name: title }).waitFor();

      await page.reload();
      await page
        .getByRole('navigation', { name: 'Bookmarked pages' })
        .getByRole('link', { name: title })
        .waitFor();
      await page.getByRole('button', { name: 'Bookmarks' }).click();
      const pressed = page
        .getByRole('dialog', { name: 'Bookmarks' })
        .getByRole('button', { name: `Remove ${title} from bookmarks` });
      expect(await pressed.getAttribute('aria-pressed')).toBe('true');
      // Leave the demo data as it was.
      await pressed.click();
      await page.getByRole('dialog', { name: 'Bookmarks' }).getByRole('button', { name: label }).waitFor();
    });
  });

  it('a client cannot open /admin by its address', async () => {
    await withPage(async (page) => {
      await logInToCheck(page, demoUsers.clientA);
      await page.goto('/admin');
      await page.waitForURL('**/not-authorized');
      await page.getByRole('heading', { name: 'Not authorized' }).waitFor();
    });
  });

  it('axe finds no serious or critical problem on /login and /check, light and dark', async () => {
    await withPage(async (page) => {
      const check = async (where: string) => {
        const results = await new AxeBuilder({ page }).analyze();
        const bad = results.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${where}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        expect(bad).toEqual([]);
      };
      await openLoginPage(page);
      await page.getByRole('heading', { name: 'Welcome to Check Meter' }).waitFor();
      await check('/login');
      await page.locator('button[type="submit"]').click();
      await page.getByText('Enter your email address.').waitFor();
      await check('/login with field errors');
      await logIn(page, demoUsers.admin);
      await page.waitForURL('**/check');
      await page.getByRole('navigation', { name: 'Main menu' }).waitFor();
      // Axe checks the page at rest: the welcome toast has come and gone (it leaves the page a
      // second after its two seconds), and after the skin change no transition is still running.
      await page.getByText('Welcome, ').waitFor();
      await page.waitForFunction(() => document.querySelector('.react-hot-toast') === null);
      await check('/check light');
      await page.getByRole('button', { name: 'Switch to dark skin' }).click();
      await page.waitForFunction(
        () =>
          document.documentElement.getAttribute('data-mantine-color-scheme') === 'dark' &&
          document.getAnimations().every((animation) => animation.playState !== 'running'),
      );
      await check('/check dark');
    });
  });
});
