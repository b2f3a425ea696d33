import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { demoUsers, startServer } from './support/server.ts';

/*
 * index.html's first paint of a signed-in meter view (its script at the end of <body>,
 * lib/first-paint.ts): before any of the app's scripts has run, the layout's frame with the check
 * page's title and intro in the stored language, where and how the page draws them; gone in the
 * commit that draws the page; never where the app would show anything else.
 */

let browser: Browser;
let baseUrl: string;
/** Client A's stored session (local storage after a login through the page). */
let session: Record<string, string>;

beforeAll(async () => {
  browser = await launchBrowser();
  baseUrl = (await startServer()).url;
  const context = await browser.newContext({ baseURL: baseUrl });
  const page = await context.newPage();
  await page.goto('/login');
  await page.locator('input[type="email"]').fill(demoUsers.clientA.email);
  await page.locator('input[name="password"]').fill(demoUsers.clientA.password);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL('**/check');
  session = await page.evaluate(() => ({
    userData: localStorage.getItem('userData') ?? '',
    accessToken: localStorage.getItem('accessToken') ?? '',
  }));
  await context.close();
});
afterAll(() => browser?.close());

const METER_VIEW = '/check?meter=EM-10001';

/** A context whose local storage holds `stored` (strings as stored; `null` leaves a key out). */
async function contextWith(
  viewport: { width: number; height: number },
  stored: Record<string, string | null>,
): Promise<BrowserContext> {
  const items = Object.entries(stored)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([name, value]) => ({ name, value }));
  return browser.newContext({
    baseURL: baseUrl,
    viewport,
    storageState: { cookies: [], origins: [{ origin: baseUrl, localStorage: items }] },
  });
}

/** The page as index.html alone paints it: none of the app's scripts is allowed to load. */
async function withoutAppScripts(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  await page.route('**/assets/**', (route) =>
    route.request().url().endsWith('.js') ? route.abort() : route.continue(),
  );
  await page.goto(path);
  return page;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  color: string;
  background: string;
  text: string;
}

async function boxOf(page: Page, selector: string): Promise<Box> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const rect = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return {
        x: rect.x,
        y: rect.y,
        width: rect.width,
        height: rect.height,
        color: style.color,
        background: style.backgroundColor,
        text: element.textContent ?? '',
      };
    });
}

/**
 * How much a channel of a text's pixel may differ: the stand-in is a layer of its own (fixed),
 * which antialiases a few edge pixels a shade differently; a word or a full stop out of place
 * differs in hundreds of pixels by far more.
 */
const TEXT_TOLERANCE = 64;

/**
 * The share of pixels of which a channel differs by more than `tolerance` between two screenshots
 * of one size, compared in a canvas of the page.
 */
async function differingPixels(
  page: Page,
  first: Buffer,
  second: Buffer,
  tolerance: number,
): Promise<number> {
  return page.evaluate(
    async ([a, b, most]) => {
      const pixels = async (base64: string) => {
        const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
        const image = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const canvas = new OffscreenCanvas(image.width, image.height);
        const context = canvas.getContext('2d');
        if (!context) throw new Error('no 2d context');
        context.drawImage(image, 0, 0);
        return context.getImageData(0, 0, image.width, image.height).data;
      };
      const [one, two] = await Promise.all([pixels(a), pixels(b)]);
      if (one.length !== two.length) return 1;
      let differing = 0;
      for (let i = 0; i < one.length; i += 4) {
        const channel = Math.max(
          Math.abs((one[i] ?? 0) - (two[i] ?? 0)),
          Math.abs((one[i + 1] ?? 0) - (two[i + 1] ?? 0)),
          Math.abs((one[i + 2] ?? 0) - (two[i + 2] ?? 0)),
        );
        if (channel > most) differing += 1;
      }
      return differing / (one.length / 4);
    },
    [first.toString('base64'), second.toString('base64'), tolerance] as const,
  );
}

/** The same place and size, to a pixel (1 px: sub-pixel rounding of the two layouts). */
function expectSamePlace(first: Box, page: Box, what: string) {
  for (const side of ['x', 'y', 'width', 'height'] as const)
    expect(
      Math.abs(first[side] - page[side]),
      `${what}: ${side} ${first[side]} vs ${page[side]}`,
    ).toBeLessThanOrEqual(1);
}

describe('the first paint of a meter view', () => {
  it.each([
    {
      name: 'phone, English, light',
      viewport: { width: 412, height: 823 },
      language: 'en',
      skin: 'light',
      rtl: false,
      collapsed: false,
    },
    {
      name: 'desktop, German, dark, right to left, menu collapsed',
      viewport: { width: 1280, height: 800 },
      language: 'de',
      skin: 'dark',
      rtl: true,
      collapsed: true,
    },
    {
      name: 'wide desktop, Portuguese, semi-dark',
      viewport: { width: 1920, height: 1080 },
      language: 'pt',
      skin: 'semi-dark',
      rtl: false,
      collapsed: false,
    },
    {
      name: 'phone, French, bordered, right to left',
      viewport: { width: 390, height: 844 },
      language: 'fr',
      skin: 'bordered',
      rtl: true,
      collapsed: false,
    },
  ])('is the page’s frame, title and intro where the page draws them ($name)', async (variant) => {
    const context = await contextWith(variant.viewport, {
      ...session,
      i18nextLng: variant.language,
      skin: JSON.stringify(variant.skin),
      isRtl: JSON.stringify(variant.rtl),
      menuCollapsed: JSON.stringify(variant.collapsed),
    });
    try {
      const early = await withoutAppScripts(context, METER_VIEW);
      await early.locator('#cm-first-paint').waitFor();
      expect(await early.locator('#cm-first-paint').getAttribute('lang')).toBe(variant.language);
      expect(await early.locator('.cm-loading').isVisible()).toBe(false);
      const isDesktop = variant.viewport.width >= 768;
      const first = {
        title: await boxOf(early, '.cm-first-paint-title'),
        intro: await boxOf(early, '.cm-first-paint-intro'),
        navbar: await boxOf(early, '.cm-first-paint-navbar'),
        page: await boxOf(early, '#cm-first-paint'),
        menu: isDesktop ? await boxOf(early, '.cm-first-paint-menu') : undefined,
      };

      const page = await context.newPage();
      await page.goto(METER_VIEW);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.getByTestId('meter-label').waitFor();
      expect(await page.locator('#cm-first-paint').count()).toBe(0);
      expect(await page.locator('html[data-first-paint]').count()).toBe(0);
      const title = await boxOf(page, '[data-testid="check-page"] h1');
      const intro = await boxOf(page, '[data-testid="check-page"] h1 + p');
      expect(first.title.text).toBe(title.text);
      expect(first.intro.text).toBe(intro.text);
      expectSamePlace(first.title, title, 'title');
      expectSamePlace(first.intro, intro, 'intro');
      expect([first.title.color, first.intro.color]).toEqual([title.color, intro.color]);
      const navbar = await boxOf(page, 'header');
      // Drawn the same: the texts' font, weight, colour and direction (where a full stop goes), and
      // the band above the navbar (the layout's page colour fading out behind it).
      for (const [what, box, tolerance] of [
        [title.text, title, TEXT_TOLERANCE],
        [intro.text, intro, TEXT_TOLERANCE],
        ['the band above the navbar', { ...navbar, y: 0, height: navbar.y }, 2],
      ] as const) {
        const clip = { x: box.x, y: box.y, width: box.width, height: box.height };
        const differing = await differingPixels(
          page,
          await early.screenshot({ clip }),
          await page.screenshot({ clip }),
          tolerance,
        );
        expect(differing, `pixels of ${what} that differ`).toBeLessThanOrEqual(0.01);
      }
      expectSamePlace(first.navbar, navbar, 'navbar');
      expect(first.navbar.background).toBe(navbar.background);
      expect(first.page.background).toBe(
        await page.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor),
      );
      if (first.menu) {
        const menu = await boxOf(page, 'aside');
        expectSamePlace(first.menu, menu, 'menu');
        expect(first.menu.background).toBe(menu.background);
      }
    } finally {
      await context.close();
    }
  });

  it.each([
    { name: 'no session', path: METER_VIEW, stored: { i18nextLng: 'en' } },
    {
      name: 'a language asked for in the address',
      path: `${METER_VIEW}&lng=fr`,
      stored: { i18nextLng: 'en' },
    },
    {
      name: 'no stored language (detected from the browser)',
      path: METER_VIEW,
      stored: { i18nextLng: null },
    },
    { name: 'a language the app does not have', path: METER_VIEW, stored: { i18nextLng: 'es' } },
    { name: 'another page', path: '/connected-apps', stored: { i18nextLng: 'en' } },
  ])('is the placeholder where the app could show something else ($name)', async (variant) => {
    const stored = variant.name === 'no session' ? variant.stored : { ...session, ...variant.stored };
    const context = await contextWith({ width: 412, height: 823 }, stored);
    try {
      const early = await withoutAppScripts(context, variant.path);
      await early.locator('.cm-loading').waitFor();
      expect(await early.locator('#cm-first-paint').isVisible()).toBe(false);
      expect(await early.locator('html[data-first-paint]').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('goes when the app sends the user elsewhere (a stored session it does not accept: to the login page)', async () => {
    const record = JSON.parse(session.userData ?? '{}') as Record<string, unknown>;
    const context = await contextWith(
      { width: 412, height: 823 },
      {
        ...session,
        userData: JSON.stringify({ ...record, role: 99 }),
        i18nextLng: 'en',
      },
    );
    try {
      const early = await withoutAppScripts(context, METER_VIEW);
      await early.locator('#cm-first-paint').waitFor();
      const page = await context.newPage();
      await page.goto(METER_VIEW);
      await page.waitForURL('**/login**');
      await page.locator('input[type="email"]').waitFor();
      expect(await page.locator('#cm-first-paint').count()).toBe(0);
      expect(await page.locator('input[type="email"]').isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
