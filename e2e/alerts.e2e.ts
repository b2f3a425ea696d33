import AxeBuilder from '@axe-core/playwright';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectAccessible } from './support/accessibility.ts';
import { launchBrowser } from './support/browser.ts';
import { receivedMails } from './support/mailbox.ts';
import { demoUsers, startServer } from './support/server.ts';

/*
 * Alerts against the real server, its scheduler and a real SMTP server (support/mailbox.ts): the
 * demo's rule "silent for 6 hours" at Elm Street Lofts fires on the Cube that went quiet 30 hours
 * ago, once; its client hears of it by e-mail and in the bell, and the administrator sees the
 * episode going on beside the rule.
 */

let browser: Browser;
let baseUrl: string;
const ELM = 'Elm Street Lofts – Building 2';

beforeAll(async () => {
  browser = await launchBrowser();
  baseUrl = (await startServer()).url;
});
afterAll(async () => {
  await browser?.close();
});

/**
 * Waits until the popover holding `inside` has finished fading in: axe measures the colours on
 * screen, and halfway through the fade a label is lighter than it will be (a run on a loaded
 * machine saw "Mark all as read" at 3.59:1 against 4.5:1).
 */
async function fullyShown(inside: Locator) {
  const popover = inside.page().locator('[role="dialog"]', { has: inside });
  await expect.poll(() => popover.evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
}

async function signIn(page: Page, user: { email: string; password: string }) {
  await page.goto('/login');
  await page.locator('input[type="email"]').fill(user.email);
  await page.locator('input[name="password"]').fill(user.password);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL('**/check');
}

describe('alerts', () => {
  it("fire on the demo's communication gap: an e-mail arrives, the bell says it, the admin sees it", async () => {
    const file = inject('cmMailFile');
    // Evaluated a few seconds after the server starts, then sent.
    await expect
      .poll(() => receivedMails(file).filter((mail) => mail.to === demoUsers.clientB.email).length, {
        timeout: 60_000,
        interval: 500,
      })
      .toBeGreaterThan(0);
    const mail = receivedMails(file).find((candidate) => candidate.to === demoUsers.clientB.email);
    expect(mail?.subject).toMatch(new RegExp(`^\\[Check Meter\\] Meter EM-\\d+ at ${ELM}: no data$`));
    expect(mail?.text).toContain('has sent nothing for more than 6 hours');
    expect(mail?.text).toContain('its Cube is silent too, its AccessPoint reports');
    // Client A's locations have nothing silent: no e-mail to client A.
    expect(receivedMails(file).some((candidate) => candidate.to === demoUsers.clientA.email)).toBe(false);

    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await signIn(page, demoUsers.clientB);
      const bell = page.getByTestId('alerts-bell');
      await expect
        .poll(() => bell.getAttribute('aria-label'), { timeout: 20_000 })
        .toMatch(/^Alerts: \d+ unread$/);
      await bell.click();
      const list = page.getByTestId('alerts-list');
      await list.waitFor();
      const first = (await list.locator('li').first().textContent()) ?? '';
      expect(first).toMatch(new RegExp(`^EM-\\d+ at ${ELM} has sent nothing for more than 6 h`));
      expect(first).toContain('Its Cube is silent too. Its AccessPoint reports.');
      await fullyShown(list);
      const results = await new AxeBuilder({ page }).include('[data-testid="alerts-list"]').analyze();
      expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
      await list.getByRole('button', { name: 'Mark all as read' }).click();
      await expect.poll(() => bell.getAttribute('aria-label')).toBe('Alerts');
      // Reading CM in German: the server is told, and the e-mails follow.
      await page.getByRole('combobox', { name: 'Interface language' }).selectOption('de');
      await expect.poll(() => bell.getAttribute('aria-label'), { timeout: 10_000 }).toBe('Warnungen');
      if (!(await list.isVisible())) await bell.click();
      await list.getByRole('button', { name: 'Wie Sie benachrichtigt werden' }).click();
      await expect
        .poll(() => page.getByTestId('alert-email-language').textContent(), { timeout: 10_000 })
        .toBe('E-Mails werden auf Deutsch geschrieben, der Sprache, in der Sie Check Meter lesen.');
      await fullyShown(list);
      const withPreferences = await new AxeBuilder({ page }).include('[data-testid="alerts-list"]').analyze();
      expect(
        withPreferences.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
      ).toEqual([]);
    } finally {
      await context.close();
    }

    const adminContext = await browser.newContext({
      baseURL: baseUrl,
      viewport: { width: 1280, height: 900 },
    });
    try {
      const page = await adminContext.newPage();
      await signIn(page, demoUsers.admin);
      await page.goto('/admin/locations');
      await page.getByLabel('Search').fill('Elm Street');
      const meters = page.getByRole('button', { name: /^\d+ meters?$/ });
      await expect.poll(() => meters.count()).toBe(1);
      await meters.click();
      const drawer = page.getByRole('dialog', { name: ELM });
      await drawer.getByTestId('alerts-tab').click();
      const open = drawer.getByTestId('alert-rule-open').first();
      await expect.poll(() => open.textContent()).not.toBe('0');
      const results = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
      expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    } finally {
      await adminContext.close();
    }
  });

  it('a client sets their own high-use alert on a meter; it fires in their bell and they remove it (issue 34)', async () => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await signIn(page, demoUsers.clientA);
      // EM-10009 is Riverside's HVAC (demo-content.ts), one of client A's meters; any day of it
      // uses more than 0.001 kWh.
      await page.goto('/check?meter=EM-10009');
      // The meter's always-on power and night share (issue 34), from the server's rule.
      const baseload = page.getByTestId('baseload-kw').locator('[data-value]');
      await expect.poll(() => baseload.textContent(), { timeout: 30_000 }).toMatch(/^[\d.,]+\s?kW$/);
      expect(await page.getByTestId('baseload-night').locator('[data-value]').textContent()).toMatch(
        /^[\d.,]+\s?%$/,
      );
      const panel = page.getByTestId('own-alerts');
      await panel.getByText('No alerts of your own on this meter yet.').waitFor({ timeout: 30_000 });
      await panel.getByLabel('Tell me when').selectOption('dailyAbove');
      await panel.getByLabel('kWh in a day').fill('0.001');
      await panel.getByRole('button', { name: 'Add alert' }).click();
      const row = panel.getByTestId('own-alert-row');
      await expect.poll(() => row.textContent()).toMatch(/^Tell me when a day uses more than 0\.001\s?kWh/);
      await expectAccessible(page, 'check page with own alerts');

      // Evaluated at once (a new rule is looked at within a second): the bell says it, to client A.
      const bell = page.getByTestId('alerts-bell');
      await bell.click();
      const list = page.getByTestId('alerts-list');
      await expect
        .poll(async () => (await list.locator('li').allTextContents()).join('|'), { timeout: 60_000 })
        .toMatch(/EM-10009 at [^|]+ used [^|]+ on [^|]+, above the 0\.001\s?kWh set\./);
      await page.keyboard.press('Escape');

      await panel
        .getByRole('button', { name: /^Remove “Tell me when a day uses more than 0\.001\s?kWh”$/ })
        .click();
      await panel.getByText('No alerts of your own on this meter yet.').waitFor();
    } finally {
      await context.close();
    }
  });
});
