import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, expectOneBanner } from './support/accessibility.ts';
import { launchBrowser } from './support/browser.ts';
import { demoUsers, startServer } from './support/server.ts';

/*
 * The administration pages against the real server and Chromium. The suite shares one server
 * with the other browser tests, so every object here is new (its own users, location, meters
 * and keys, named with a per-run suffix) and no demo data is changed.
 */

let browser: Browser;
let baseUrl: string;
let stop: () => Promise<void> = async () => {};
const suffix = `${Date.now().toString(36)}`;
/** The demo administrator (apps/server/src/demo/seed.ts). */
const ADMIN_NAME = 'Dana Whitfield';

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

async function withAdminPage(
  run: (page: Page, context: BrowserContext) => Promise<void>,
  viewport = { width: 1280, height: 900 },
) {
  const context = await browser.newContext({ baseURL: baseUrl, viewport });
  const page = await context.newPage();
  try {
    await page.goto('/login');
    await page.locator('input[type="email"]').fill(demoUsers.admin.email);
    await page.locator('input[name="password"]').fill(demoUsers.admin.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/check');
    await run(page, context);
  } catch (error) {
    if (process.env.CM_E2E_SHOTS)
      await page.screenshot({
        path: `${process.env.CM_E2E_SHOTS}/admin-failure-${Date.now()}.png`,
        fullPage: true,
      });
    throw error;
  } finally {
    await context.close();
  }
}

interface Answer<T> {
  status: number;
  body: T;
}

/** A call from inside the page, with the page's API key and the admin's token (as the app sends them). */
async function api<T>(
  page: Page,
  path: string,
  init: { method?: string; body?: unknown; apiKey?: string; withToken?: boolean } = {},
): Promise<Answer<T>> {
  return page.evaluate(
    async ([path, init]) => {
      const key =
        init.apiKey ?? document.querySelector('meta[name="cm-api-key"]')?.getAttribute('content') ?? '';
      const headers: Record<string, string> = { 'X-API-Key': key, Accept: 'application/json' };
      const token = JSON.parse(localStorage.getItem('accessToken') ?? 'null');
      if (init.withToken !== false && token) headers.Authorization = `Bearer ${token}`;
      if (init.body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await fetch(path, {
        method: init.method ?? 'GET',
        headers,
        body: init.body === undefined ? null : JSON.stringify(init.body),
      });
      const text = await response.text();
      return { status: response.status, body: text === '' ? null : JSON.parse(text) };
    },
    [path, init] as const,
  );
}

/** A location and a meter of this run, made through the API (the UI for them is tested elsewhere in this file). */
async function createSite(
  page: Page,
  name: string,
  meterNumber: string,
  site = { timeZone: 'Europe/Berlin', installedAt: '2026-01-01T00:00:00+01:00' },
): Promise<number> {
  const location = await api<{ id: number }>(page, '/api/admin/locations', {
    method: 'POST',
    body: { publicName: name, address: 'e2e', timeZone: site.timeZone },
  });
  expect(location.status).toBe(201);
  const meter = await api(page, '/api/admin/meters', {
    method: 'POST',
    body: { meterNumber, locationId: location.body.id, meterInd: 1, installedAt: site.installedAt },
  });
  expect(meter.status).toBe(201);
  return location.body.id;
}

/** Uploads a CSV through the import page, waits for its preview, imports it and waits for its report. */
async function importCsv(page: Page, fileName: string, csv: string) {
  await page.goto('/admin/import');
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: fileName, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByTestId('import-preview').waitFor();
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.getByTestId('import-report').waitFor({ timeout: 30_000 });
}

/** A new user's first sign-in with the password an administrator set: it chooses its own, then lands on /check. */
async function firstSignIn(page: Page, email: string, temporary: string, own: string) {
  await page.goto('/login');
  await page.locator('input[type="email"]').fill(email);
  await page.locator('input[name="password"]').fill(temporary);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL('**/change-password');
  await page.locator('input[name="currentPassword"]').fill(temporary);
  await page.locator('input[name="newPassword"]').fill(own);
  await page.locator('input[name="confirmPassword"]').fill(own);
  await page.getByRole('button', { name: 'Change password', exact: true }).click();
  await page.waitForURL('**/check');
}

/** With CM_E2E_SHOTS set, a full-page screenshot there, to look at the page as a user does. */
async function shot(page: Page, name: string, fullPage = false) {
  if (process.env.CM_E2E_SHOTS)
    await page.screenshot({ path: `${process.env.CM_E2E_SHOTS}/${name}.png`, fullPage });
}

const countOf = (page: Page, name: string) => page.getByTestId(`count-${name}`).locator('dd').textContent();

describe('administration', () => {
  it('the landing page links every administration page, and the menu has them', async () => {
    await withAdminPage(async (page) => {
      await page.goto('/admin');
      await page.locator('h1').waitFor();
      const main = page.getByRole('navigation', { name: 'Administration' });
      for (const name of [
        'Users',
        'Locations',
        'Devices',
        'API keys',
        'Import readings',
        'Export readings',
        'Prices and carbon',
        'Audit log',
      ]) {
        expect(await main.getByRole('link', { name: new RegExp(`^${name}`) }).count(), name).toBe(1);
        expect(
          await page
            .getByRole('navigation', { name: 'Main menu' })
            .getByRole('link', { name, exact: true })
            .count(),
          name,
        ).toBe(1);
      }
    });
  });

  it('an admin creates a client linked to a location, and the client sees only that location', async () => {
    const email = `client.${suffix}@e2e.cm`;
    const password = 'Client!e2e-2026';
    await withAdminPage(async (page) => {
      await page.goto('/admin/users');
      await page.getByRole('button', { name: 'New user' }).click();
      const drawer = page.getByRole('dialog', { name: 'New user' });
      await drawer.getByRole('textbox', { name: 'Name' }).fill(`E2E Client ${suffix}`);
      await drawer.getByRole('textbox', { name: 'Email' }).fill(email);
      // A too-short password is refused next to its field, before anything is sent.
      await drawer.locator('input[autocomplete="new-password"]').fill('short');
      await drawer.getByRole('button', { name: 'Create user' }).click();
      await drawer.getByText('The password needs at least 10 characters.').waitFor();
      await drawer.locator('input[autocomplete="new-password"]').fill(password);
      const locations = drawer.getByLabel('Locations', { exact: true });
      await locations.click();
      await locations.fill('Harbour');
      await page.getByRole('option', { name: 'Harbour View / Block C' }).click();
      await page.keyboard.press('Escape');
      await drawer.getByRole('button', { name: 'Create user' }).click();
      await drawer.waitFor({ state: 'hidden' });
      const row = page.getByTestId(`user-row-${email}`);
      await row.waitFor();
      expect(await row.textContent()).toContain('Harbour View / Block C');
      expect(await row.textContent()).toContain('Client');

      // The same email again: the server's 409 is said next to the email field.
      await page.getByRole('button', { name: 'New user' }).click();
      await drawer.getByRole('textbox', { name: 'Name' }).fill('Twin');
      await drawer.getByRole('textbox', { name: 'Email' }).fill(email);
      await drawer.locator('input[autocomplete="new-password"]').fill(password);
      await drawer.getByRole('button', { name: 'Create user' }).click();
      await drawer.getByText('Another user already has this email address.').waitFor();
      // The drawer, its close button named, passes axe like the pages.
      await drawer.getByRole('button', { name: 'Close' }).waitFor();
      await expectAccessible(page, 'new user drawer');
      await drawer.getByRole('button', { name: 'Close' }).click();

      // Disabling asks first (cancel changes nothing) and can be undone from its notice (17.12).
      const name = `E2E Client ${suffix}`;
      const disable = async () => {
        await page.getByRole('button', { name: `More actions for ${name}` }).click();
        await page.getByRole('menuitem', { name: 'Disable' }).click();
        return page.getByRole('dialog', { name: `Disable ${name}?` });
      };
      await (await disable()).getByRole('button', { name: 'Cancel' }).click();
      expect(await row.textContent()).toContain('Enabled');
      const ask = await disable();
      // Checked once the menu has closed (expectAccessible waits for the dialog to stop moving in).
      await page.getByRole('menu').waitFor({ state: 'hidden' });
      await expectAccessible(page, 'disable user dialog');
      await ask.getByRole('button', { name: 'Disable' }).click();
      await expect.poll(() => row.textContent()).toContain('Disabled');
      // The notice's Undo shows its whole word and covers no action of the page (issue 34 low:
      // "Und", over "New user").
      const undo = page.getByRole('button', { name: 'Undo' });
      await undo.waitFor();
      await expect
        .poll(() => undo.evaluate((button) => button.getBoundingClientRect().width >= button.scrollWidth))
        .toBe(true);
      expect(
        await undo.evaluate((button) => {
          const label = button.querySelector('.mantine-Button-label');
          return label === null || label.scrollWidth <= label.clientWidth;
        }),
      ).toBe(true);
      const newUser = await page.getByRole('button', { name: 'New user' }).boundingBox();
      const notice = await page.locator('.react-hot-toast', { has: undo }).boundingBox();
      expect(newUser && notice).toBeTruthy();
      if (newUser && notice) {
        const overlaps =
          notice.x < newUser.x + newUser.width &&
          newUser.x < notice.x + notice.width &&
          notice.y < newUser.y + newUser.height &&
          newUser.y < notice.y + notice.height;
        expect(overlaps).toBe(false);
      }
      await undo.click();
      await expect.poll(() => row.textContent()).toContain('Enabled');

      // The audit log says it in sentences with names, filtered by action (17.13).
      await page.goto('/admin/audit');
      await page.getByLabel('Action', { exact: true }).first().click();
      await page.getByRole('option', { name: 'User disabled' }).click();
      const sentence = page.getByTestId('audit-sentence').first();
      await expect.poll(() => sentence.textContent()).toBe(`${ADMIN_NAME} disabled ${name}`);
      await expectAccessible(page, 'audit log');
    });

    const context = await browser.newContext({ baseURL: baseUrl });
    try {
      const page = await context.newPage();
      // The administrator chose that password: the client chooses its own first (17.11).
      await firstSignIn(page, email, password, 'Mine!own-e2e-2026');
      const mine = await api(
        page,
        `/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=${encodeURIComponent('Harbour View / Block C')}&From=2026-01-01&To=2026-01-02`,
      );
      expect(mine.status).toBe(200);
      const other = await api(
        page,
        `/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=${encodeURIComponent('Marina Quay / Pier 4')}&From=2026-01-01&To=2026-01-02`,
      );
      expect(other.status).toBe(404);
    } finally {
      await context.close();
    }
  });

  it('imports a CSV with a bad line and shows the line; exchanges the meter and /check shows continuous consumption with the exchange', async () => {
    const meterNumber = `E2E-${suffix}`;
    const newMeterNumber = `E2E-${suffix}-N`;
    const siteName = `E2E Exchange ${suffix}`;
    await withAdminPage(async (page) => {
      const locationId = await createSite(page, siteName, meterNumber);

      // Header = line 1; line 5 is not a number.
      const csv = [
        'meter_number,timestamp,register_kwh',
        `${meterNumber},2026-10-01T00:00:00+02:00,100`,
        `${meterNumber},2026-10-02T00:00:00+02:00,110`,
        `${meterNumber},2026-10-03T00:00:00+02:00,120`,
        `${meterNumber},2026-10-04T00:00:00+02:00,abc`,
        `${meterNumber},2026-10-05T00:00:00+02:00,140`,
      ].join('\n');
      await importCsv(page, 'readings.csv', csv);
      expect(await countOf(page, 'rowsRead')).toBe('5');
      expect(await countOf(page, 'inserted')).toBe('4');
      expect(await countOf(page, 'rejected')).toBe('1');
      const rejected = page.getByTestId('rejected-lines').locator('tbody tr');
      expect(await rejected.count()).toBe(1);
      expect(await rejected.locator('td').first().textContent()).toBe('5');
      expect(await rejected.locator('td').nth(1).textContent()).toMatch(/abc/);

      // Exchange on 6 October 12:00 in Berlin: the old meter ends at 150, the new one starts at 0.
      await page.goto(`/admin/devices?location=${locationId}`);
      await page.getByTestId(`tree-${meterNumber}`).waitFor();
      // First marked as the site's main supply (17.5), which its replacement keeps.
      await page
        .getByRole('button', { name: `Edit ${meterNumber}` })
        .first()
        .click();
      const editor = page.getByRole('dialog', { name: `Edit ${meterNumber}` });
      // The drawer slides in: on a loaded machine a click during the slide once missed the box
      // ("did not change its state"). Its transition ends first, as a person's eyes would wait.
      await editor.waitFor();
      await page.waitForFunction(() =>
        document
          .getAnimations()
          .every(
            (animation) =>
              animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
          ),
      );
      await editor.getByRole('checkbox', { name: 'Main supply' }).check();
      await editor.getByRole('button', { name: 'Save' }).click();
      await editor.waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: `More actions for ${meterNumber}` }).click();
      await page.getByRole('menuitem', { name: 'Exchange meter' }).click();
      const drawer = page.getByRole('dialog', { name: `Exchange ${meterNumber}` });
      await drawer.getByLabel('Instant of the exchange').fill('2026-10-06T12:00');
      await drawer.getByLabel(`Final register of ${meterNumber}`).fill('150');
      await drawer.getByLabel('New meter number').fill(newMeterNumber);
      await drawer.getByLabel('Start register of the new meter').fill('0');
      await drawer.getByRole('button', { name: 'Exchange meter' }).click();
      await drawer.waitFor({ state: 'hidden' });
      await page.getByTestId(`tree-${newMeterNumber}`).waitFor();
      // The list refetches after the tree: its row says Removed once it has (a loaded machine is slow).
      await expect
        .poll(() => page.getByTestId(`device-row-${meterNumber}`).textContent())
        .toContain('Removed');
      const replacement = await api<{ mainSupply: boolean }>(
        page,
        `/api/CheckMeter/GetMeterInfo?meterNumber=${encodeURIComponent(newMeterNumber)}`,
      );
      expect(replacement.body.mainSupply).toBe(true);

      // Readings of the new meter, then the check page for the whole range.
      await importCsv(
        page,
        'new-meter.csv',
        [
          'meter_number,timestamp,register_kwh',
          `${newMeterNumber},2026-10-07T00:00:00+02:00,5`,
          `${newMeterNumber},2026-10-08T00:00:00+02:00,15`,
        ].join('\n'),
      );
      expect(await countOf(page, 'rejected')).toBe('0');

      await page.goto(
        `/check?location=${encodeURIComponent(siteName)}&meterInd=1&from=2026-10-01&to=2026-10-07`,
      );
      const total = page.getByTestId('total-consumption').locator('[data-value]');
      // 100 → 150 on the old meter, 0 → 15 on the new one: 65 kWh, no spike from the register restarting at 0.
      await expect.poll(() => total.textContent(), { timeout: 20_000 }).toBe('65.000\u00a0kWh');
      await page.getByText(`${meterNumber} → ${newMeterNumber}`, { exact: false }).first().waitFor();
    });
  });

  it('creates an API key shown once, revokes it, and the key is then refused with 401', async () => {
    const name = `e2e-key-${suffix}`;
    await withAdminPage(async (page) => {
      await page.goto('/admin/api-keys');
      // The key this page itself runs on is marked and offers no Revoke: revoking it would sign everyone out.
      const webAppRow = page.getByRole('row').filter({ hasText: 'This web app' });
      await webAppRow.waitFor();
      expect(await webAppRow.getByRole('button', { name: /Revoke/ }).count()).toBe(0);
      await page.getByRole('textbox', { name: 'Name' }).fill(name);
      await page.getByRole('checkbox', { name: /^Read/ }).uncheck();
      await page.getByRole('checkbox', { name: /^Device ingestion/ }).check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const dialog = page.getByRole('dialog', { name: `Key “${name}” created` });
      await dialog.getByText('Shown only this once').waitFor();
      const key = (await dialog.getByTestId('secret-value').textContent()) ?? '';
      expect(key.length).toBeGreaterThan(20);
      await dialog.getByRole('button', { name: 'I have saved it' }).click();
      await dialog.waitFor({ state: 'hidden' });
      // Gone from the page for good: the list shows only its first characters.
      expect(await page.content()).not.toContain(key);
      const row = page.getByTestId(`api-key-${name}`);
      await row.waitFor();

      const reading = {
        readings: [{ meterNumber: `NO-SUCH-${suffix}`, readAt: '2026-10-01T00:00:00Z', register: 1 }],
      };
      const before = await api(page, '/api/ingest/readings', {
        method: 'POST',
        body: reading,
        apiKey: key,
        withToken: false,
      });
      expect(before.status).toBe(200);

      await row.getByRole('button', { name: `Revoke ${name}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Revoke this key?' });
      await confirm.getByRole('button', { name: 'Revoke' }).click();
      await confirm.waitFor({ state: 'hidden' });
      await expect.poll(() => row.textContent()).toContain('Revoked');

      const after = await api(page, '/api/ingest/readings', {
        method: 'POST',
        body: reading,
        apiKey: key,
        withToken: false,
      });
      expect(after.status).toBe(401);
    });
  });

  it('drops a real ESB file with import and export on the import page; /check shows import, export and net', async () => {
    // ESB Networks' half-hourly file (fixtures/real/esb-hdf-ireland, SOURCE.md), cut to 14–16 June
    // 2023 as it is (its header, then its own lines: the file is not rewritten). The expected
    // day totals come from fixtures/real/expected/esb-kwh.json (compute_expected.py sums the file
    // independently of CM).
    const file = readFileSync(
      new URL('../fixtures/real/esb-hdf-ireland/HDF_kWh_variant_2022-12_to_2024-10.csv', import.meta.url),
      'utf8',
    );
    const [head = '', ...lines] = file.split(/\r?\n/);
    const days = ['14-06-2023', '15-06-2023', '16-06-2023'];
    const csv = [head, ...lines.filter((line) => days.some((day) => line.includes(`,${day} `)))].join('\n');
    const expected = JSON.parse(
      readFileSync(new URL('../fixtures/real/expected/esb-kwh.json', import.meta.url), 'utf8'),
    ) as Record<'import' | 'export', { days: Record<string, { kWh: string; missing: number }> }>;
    const day = '2023-06-15';
    const imported = expected.import.days[day];
    const exported = expected.export.days[day];
    expect(imported?.missing).toBe(0);
    expect(exported?.missing).toBe(0);
    const kwh = (value: string) =>
      `${Number(value).toLocaleString('en', { minimumFractionDigits: 3, maximumFractionDigits: 3 })}\u00a0kWh`;
    const tenThousandths = (value: string | undefined) => Math.round(Number(value) * 10_000);
    const net = ((tenThousandths(imported?.kWh) - tenThousandths(exported?.kWh)) / 10_000).toString();

    const meterNumber = `ESB-${suffix}`;
    const siteName = `Solar house ${suffix}`;
    await withAdminPage(async (page) => {
      await createSite(page, siteName, meterNumber, {
        timeZone: 'Europe/Dublin',
        installedAt: '2023-01-01T00:00:00Z',
      });

      await page.goto('/admin/import');
      // A real drop: the file arrives in a DataTransfer, as from the desktop.
      const dataTransfer = await page.evaluateHandle(
        ([text, name]) => {
          const transfer = new DataTransfer();
          transfer.items.add(new File([text], name, { type: 'text/csv' }));
          return transfer;
        },
        [csv, 'HDF_kWh_june.csv'] as const,
      );
      await page.getByTestId('import-drop-zone').dispatchEvent('drop', { dataTransfer });
      await page.getByTestId('import-preview').waitFor();
      expect(await page.getByTestId('import-detected').textContent()).toMatch(/ESB/);
      await page.getByRole('textbox', { name: 'Meter number' }).fill(meterNumber);
      const meters = page.getByTestId('import-preview-meters');
      await meters.getByText(siteName).waitFor();
      expect(await meters.textContent()).toMatch(/Import.*Export|Export.*Import/);
      await shot(page, 'import-preview');
      await expectAccessible(page, 'import preview');
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByTestId('import-report').waitFor({ timeout: 30_000 });
      expect(await countOf(page, 'rejected')).toBe('0');
      await page.getByTestId('import-report').scrollIntoViewIfNeeded();
      await shot(page, 'import-report');
      await expectAccessible(page, 'import report');

      await page.goto(
        `/check?meter=${encodeURIComponent(meterNumber)}&from=${day}&to=${day}&granularity=hour`,
      );
      await page.getByTestId('total-export').waitFor();
      const value = (testId: string) => page.getByTestId(testId).locator('[data-value]').textContent();
      expect(await value('total-consumption')).toBe(kwh(imported?.kWh ?? ''));
      expect(await value('total-export')).toBe(kwh(exported?.kWh ?? ''));
      expect(await value('total-net')).toBe(kwh(net));
      // The table has import, export and net columns; the chart's legend names all three.
      const table = page.getByTestId('readings-table');
      await table.locator('tbody tr[data-kind]').first().waitFor();
      const headers = await table.locator('thead th').allTextContents();
      expect(headers.join('|')).toMatch(/Import \(kWh\).*\|Export \(kWh\)\|Net \(kWh\)/);
      const legend = await page.getByRole('list', { name: 'Legend' }).textContent();
      expect(legend).toContain('Export (kWh)');
      expect(legend).toContain('Net (kWh)');
      await shot(page, 'check-export-light', true);
      await expectAccessible(page, '/check with export, light');
      await page.getByRole('button', { name: 'Switch to dark skin' }).click();
      await page.waitForFunction(
        () =>
          document.documentElement.getAttribute('data-mantine-color-scheme') === 'dark' &&
          document.getAnimations().every((animation) => animation.playState !== 'running'),
      );
      await shot(page, 'check-export-dark', true);
      await expectAccessible(page, '/check with export, dark');
      // On a phone, in French: export and net under the import, nothing scrolls sideways.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(
        `/check?meter=${encodeURIComponent(meterNumber)}&from=${day}&to=${day}&granularity=hour&lng=fr`,
      );
      await page.getByTestId('total-export').waitFor();
      await table.locator('tbody tr[data-kind]').first().waitFor();
      expect(await page.getByTestId('total-export').textContent()).toMatch(/Injecté/);
      // Each on a line of its own (issue 34.11): "injection 0,642", then "net −0,223".
      expect(await table.locator('tbody').textContent()).toMatch(/injection −?\d+,\d{3}net −?\d+,\d{3}/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await shot(page, 'check-export-phone-fr', true);
    });
  });

  it('an admin sets a time-of-use tariff and a billing day; a client sees the cost and the bill so far', async () => {
    const meterNumber = `E2E-T-${suffix}`;
    const siteName = `E2E Tariff ${suffix}`;
    const email = `tariff.${suffix}@e2e.cm`;
    const password = 'Client!tariff-2026';
    const hour = 3_600_000;
    // The bill started three days ago: its day of the month (at most 28) at the site (Berlin).
    const berlinDate = (ms: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', dateStyle: 'short' }).format(ms);
    const startDay = Number(berlinDate(Date.now() - 3 * 24 * hour).slice(8, 10));
    const billingDay = Math.min(startDay, 28);
    await withAdminPage(async (page) => {
      const locationId = await createSite(page, siteName, meterNumber);
      // 0.25 kWh a quarter hour (1 kWh an hour) over Sunday 2026-10-25 in Berlin (25 hours: the
      // clocks go back), and over the last four days up to now.
      const quarter = hour / 4;
      const lines = ['meter_number,timestamp,register_kwh'];
      let register = 1000;
      const read = (from: number, to: number) => {
        for (let at = from; at <= to; at += quarter) {
          lines.push(`${meterNumber},${new Date(at).toISOString()},${register.toFixed(2)}`);
          register += 0.25;
        }
      };
      read(Date.parse('2026-10-24T22:00:00Z'), Date.parse('2026-10-25T23:00:00Z'));
      const lastQuarter = Math.floor(Date.now() / quarter) * quarter;
      read(lastQuarter - 96 * hour, lastQuarter);
      await importCsv(page, 'tariff.csv', lines.join('\n'));
      expect(await countOf(page, 'rejected')).toBe('0');

      // The billing day, in the location's form.
      await page.goto('/admin/locations');
      await page.getByLabel('Search').fill(siteName);
      await page.getByRole('button', { name: `Edit ${siteName}` }).click();
      const form = page.getByRole('dialog', { name: 'Edit location' });
      await form.getByTestId('billing-day').selectOption(String(billingDay));
      await form.getByRole('button', { name: 'Save' }).click();
      await form.waitFor({ state: 'hidden' });

      // The tariff: 0.30 a kWh, 0.10 from 00:00 to 07:00 at weekends, 0.50 a day, 20 % tax.
      await page.getByRole('button', { name: /^1 meter/ }).click();
      const drawer = page.getByRole('dialog', { name: siteName });
      await drawer.getByTestId('tariffs-tab').click();
      await drawer.getByTestId('add-tariff').click();
      const tariff = drawer.getByTestId('tariff-form');
      expect(await tariff.getByLabel('From').first().inputValue()).toMatch(/^\d{4}-01-01$/);
      await tariff.getByLabel('From').first().fill('2026-01-01');
      await tariff.getByLabel(/^Energy price/).fill('0.30');
      await tariff.getByLabel(/^Standing charge per day/).fill('0.50');
      await tariff.getByLabel('Tax (%)').fill('20');
      await tariff.getByRole('button', { name: 'Add a window' }).click();
      const window = tariff.getByTestId('tariff-window');
      await window.getByLabel(/^Price/).fill('0.10');
      await window.getByLabel('From').fill('00:00');
      await window.getByLabel('To', { exact: true }).fill('07:00');
      for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'])
        await window.getByText(day, { exact: true }).click();
      // Mon–Fri were on and are now off; Sat and Sun on.
      await tariff.getByRole('button', { name: 'Add version' }).click();
      await drawer.getByTestId('tariff-row').first().waitFor();
      expect(await drawer.getByTestId('tariff-row').first().getAttribute('data-status')).toBe('current');
      // The drawer itself: the page behind its overlay is not read.
      await expectAccessible(page, 'tariffs tab', '[role="dialog"]');
      const saved = await api<{ billingDay: number }>(page, `/api/admin/locations/${locationId}`);
      expect(saved.body.billingDay).toBe(billingDay);

      const client = await api(page, '/api/admin/users', {
        method: 'POST',
        body: { email, fullName: `Tariff client ${suffix}`, password, role: 2, locationIds: [locationId] },
      });
      expect(client.status).toBe(201);
    });

    const context = await browser.newContext({ baseURL: baseUrl });
    try {
      const page = await context.newPage();
      await firstSignIn(page, email, password, 'Mine!tariff-e2e-2026');

      // Sunday 2026-10-25: 8 night hours (02:00 twice) × 0.10 = 0.80 and 17 day hours × 0.30 = 5.10;
      // 5.90 energy + 0.50 standing = 6.40, tax 20 % = 1.28, total 7.68.
      await page.goto(`/check?location=${encodeURIComponent(siteName)}&from=2026-10-25&to=2026-10-25`);
      const total = page.getByTestId('bill-total').locator('[data-value]');
      await expect.poll(() => total.textContent(), { timeout: 20_000 }).toBe('€7.68');
      expect(await page.getByTestId('bill-energy').locator('[data-value]').textContent()).toBe('€5.90');
      expect(await page.getByTestId('bill-tax').locator('[data-value]').textContent()).toBe('€1.28');

      // This bill so far: from the billing day, with its projection to the period's end.
      await page.locator('select[name="preset"]').selectOption('thisBill');
      await page.getByTestId('bill-projection').waitFor({ timeout: 20_000 });
      expect(await page.getByTestId('bill-projection').textContent()).toMatch(
        /^Projected to the period's end, [A-Z][a-z]{2} \d{1,2}, \d{4}: €[\d,.]+If the rest of the period uses energy like the average of the [\d.]+ days so far/,
      );
      // The bill card (issue 34, the bill first): above the range, whatever range is shown, this
      // bill so far is the bill of "This bill so far", with its projection and the last bill.
      const card = page.getByTestId('bill-card');
      expect(
        await card.evaluate(
          (element) =>
            !!(
              element.compareDocumentPosition(document.querySelector('select[name="preset"]')!) &
              Node.DOCUMENT_POSITION_FOLLOWING
            ),
        ),
      ).toBe(true);
      expect(await card.getByTestId('bill-card-so-far').locator('[data-value]').textContent()).toBe(
        await page.getByTestId('bill-total').locator('[data-value]').textContent(),
      );
      await card.getByTestId('bill-card-projected').waitFor();
      expect(await card.getByTestId('bill-card-last').textContent()).toMatch(/^Last bill(€[\d,.]+|None)/);
      // The table's cost column and the chart's cost bars.
      const costs = await page.getByTestId('row-cost').allTextContents();
      expect(
        costs.filter((text) => /^€\d+\.\d\d$/.test(text)).length,
        costs.join('|'),
      ).toBeGreaterThanOrEqual(3);
      await page.getByTestId('chart-measure').getByText('Cost').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('cost')).toBe('1');
      await expectAccessible(page, 'check page with a bill');
    } finally {
      await context.close();
    }
  });

  it('an admin imports a day-ahead price file and a carbon series, and the check page uses them', async () => {
    const meterNumber = `E2E-S-${suffix}`;
    const siteName = `E2E Series ${suffix}`;
    const priceName = `E2E day-ahead ${suffix}`;
    const carbonName = `E2E grid ${suffix}`;
    await withAdminPage(async (page) => {
      const locationId = await createSite(page, siteName, meterNumber);
      // 0.25 kWh a quarter hour, 1 kWh an hour, from 00:00 to 04:00 on 2026-01-05 in Berlin (UTC+1).
      const quarter = 900_000;
      const lines = ['meter_number,timestamp,register_kwh'];
      for (let k = 0; k <= 16; k++)
        lines.push(
          `${meterNumber},${new Date(Date.parse('2026-01-04T23:00:00Z') + k * quarter).toISOString()},${(100 + k * 0.25).toFixed(2)}`,
        );
      await importCsv(page, 'series-site.csv', lines.join('\n'));
      expect(await countOf(page, 'rejected')).toBe('0');

      await page.goto('/admin/series');
      const form = page.getByRole('region', { name: 'Import a file' });
      const pick = async (label: RegExp, option: string, typed?: string) => {
        const field = form.getByRole('combobox', { name: label });
        await field.click();
        if (typed) await field.fill(typed);
        await page.getByRole('option', { name: option, exact: true }).click();
      };
      const file = (name: string, text: string) =>
        form
          .locator('input[type="file"]')
          .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
      const newSeries = async (name: string) => {
        await form.getByRole('textbox', { name: /^Name/ }).fill(name);
        await pick(/^Interval/, '60 min');
        await pick(/^Clock/, 'Europe/Berlin', 'Europe/Berl');
      };

      // Day-ahead prices in EUR/MWh for 00:00 to 03:00; 03:00 is left out (unpriced).
      await newSeries(priceName);
      await form.getByRole('textbox', { name: /^Market zone/ }).fill('DE-LU');
      // A line between two hours: refused whole, the line named, and no series created.
      await file('bad.csv', 'start;EUR/MWh\n2026-01-05 00:00;100\n2026-01-05 00:30;90\n');
      await form.getByRole('button', { name: 'Import', exact: true }).click();
      await expect.poll(() => form.getByRole('alert').textContent()).toMatch(/Nothing was stored: Line 3: /);
      expect(await page.getByTestId(`price-series-${priceName}`).count()).toBe(0);
      await file(
        'day-ahead.csv',
        'start;EUR/MWh\n2026-01-05 00:00;100\n2026-01-05 01:00;80\n2026-01-05 02:00;60\n',
      );
      await form.getByRole('button', { name: 'Import', exact: true }).click();
      const prices = page.getByTestId(`price-series-${priceName}`);
      await prices.waitFor();
      expect(await prices.locator('td').allTextContents()).toEqual([
        priceName,
        'EUR per MWh',
        'DE-LU',
        '60 min',
        expect.stringMatching(/Jan 5, 2026.*00:00/),
        expect.stringMatching(/Jan 5, 2026.*03:00/),
        '3',
        '0',
      ]);

      // Intensities for 00:00, 01:00 and 03:00: 02:00 is unknown.
      await form.getByText('Carbon intensity', { exact: true }).click();
      await newSeries(carbonName);
      await form.getByRole('textbox', { name: /^Grid region/ }).fill('DE');
      await file('grid.csv', '2026-01-05 00:00,300\n2026-01-05 01:00,200\n2026-01-05 03:00,100\n');
      await form.getByRole('button', { name: 'Import', exact: true }).click();
      const carbon = page.getByTestId(`carbon-series-${carbonName}`);
      await carbon.waitFor();
      expect((await carbon.locator('td').allTextContents()).slice(5)).toEqual(['3', '1']);
      if (process.env.CM_E2E_SHOTS)
        await page.screenshot({ path: `${process.env.CM_E2E_SHOTS}/series-admin.png`, fullPage: true });
      await expectAccessible(page, '/admin/series with series');

      // The location's carbon series.
      const assign = page.getByRole('region', { name: 'Carbon of a location' });
      await assign.getByRole('combobox', { name: 'Location' }).fill(siteName);
      await page.getByRole('option', { name: siteName }).click();
      await assign.getByRole('combobox', { name: 'Carbon series' }).click();
      await page.getByRole('option', { name: `${carbonName} (DE)` }).click();
      await assign.getByRole('button', { name: 'Save' }).click();
      await expect
        .poll(
          async () =>
            (await api<{ seriesId: number | null }>(page, `/api/admin/locations/${locationId}/carbon-series`))
              .body.seriesId,
        )
        .not.toBeNull();
      const audit = await api<{ items: unknown[] }>(page, '/api/admin/audit?action=series.import');
      expect(audit.body.items.length).toBeGreaterThanOrEqual(2);

      // A dynamic tariff from the series in the location's tariff form: 0.02 a kWh on top, no tax.
      await page.goto('/admin/locations');
      await page.getByLabel('Search').fill(siteName);
      // The site's own row: other tests' sites have one meter too, and the search applies after a pause.
      await page
        .getByRole('row')
        .filter({ hasText: siteName })
        .getByRole('button', { name: /^1 meter/ })
        .click();
      const drawer = page.getByRole('dialog', { name: siteName });
      await drawer.getByTestId('tariffs-tab').click();
      await drawer.getByTestId('add-tariff').click();
      const tariff = drawer.getByTestId('tariff-form');
      await tariff.getByLabel('From').first().fill('2026-01-01');
      await tariff.getByLabel(/^Energy price/).fill('0.30');
      await tariff.getByLabel('Import priced from').selectOption({ label: `${priceName} (EUR per MWh)` });
      await tariff.getByLabel(/^Margin/).fill('0.02');
      await tariff.getByLabel(/^Tax on the market price/).fill('0');
      await tariff.getByRole('button', { name: 'Add version' }).click();
      await drawer.getByTestId('tariff-row').first().waitFor();
      const tariffs = await api<{ items: { importSeries: { margin: string } | null }[] }>(
        page,
        `/api/admin/locations/${locationId}/tariffs`,
      );
      expect(tariffs.body.items.map((item) => item.importSeries?.margin)).toEqual(['0.02']);

      // Per kWh 0.10 + 0.02, 0.08 + 0.02, 0.06 + 0.02: 0.30 for the three hours; 03:00 unpriced.
      await page.goto(`/check?location=${encodeURIComponent(siteName)}&from=2026-01-05&to=2026-01-05`);
      const energy = page.getByTestId('bill-energy').locator('[data-value]');
      await expect.poll(() => energy.textContent(), { timeout: 20_000 }).toBe('€0.30');
      expect(await page.getByTestId('bill-unpriced').textContent()).toContain('1.000\u00a0kWh');
      // 300 + 200 + 100 g for the hours with an intensity; 02:00's four quarter hours unknown.
      expect(await page.getByTestId('carbon-emissions').textContent()).toBe(
        'Emissionsat least 0.6 kg CO2eUnknown for 4 intervals (1.000\u00a0kWh): no intensity',
      );
      expect(await page.getByTestId('carbon-intensity').locator('[data-value]').textContent()).toBe(
        '200 g/kWh',
      );
      // As the register switch (check.e2e.ts): a click event, then the address says it.
      await page.getByRole('switch', { name: 'Show price' }).dispatchEvent('click');
      await page.waitForURL(/price=1/);
      await page.getByRole('list', { name: 'Legend' }).getByText('Price (EUR/kWh)').waitFor();
      if (process.env.CM_E2E_SHOTS)
        await page.screenshot({ path: `${process.env.CM_E2E_SHOTS}/series-check.png`, fullPage: true });
      await expectAccessible(page, 'check page with prices and carbon');
    });
  });

  it('drops a zipped NEM12 file, creates its meter from the preview, imports, exports CSV and ESPI, and the ESPI gives another meter the same totals', async () => {
    // fixtures/nem12 (SOURCE.md): AEMO's MDFF written from the public specification; the expected
    // totals are expected.json, which sum_mdff.py computes from the file alone. NMI VABC000003 has
    // five-minute import (E1) and export (B1) on 2024-01-02 (AEST). The suite's database is fresh,
    // so the file's NMIs are on no site yet.
    const zip = readFileSync(new URL('../fixtures/nem12/nem12-three-nmis.zip', import.meta.url));
    const expected = JSON.parse(
      readFileSync(new URL('../fixtures/nem12/expected.json', import.meta.url), 'utf8'),
    ) as Record<string, Record<string, { total: string }>>;
    const want = expected['nem12-three-nmis.zip'] ?? {};
    const micro = (kwh: string | number | undefined) => Math.round(Number(kwh) * 1e6);
    const day = '2024-01-02';
    const siteName = `NEM site ${suffix}`;
    const otherSite = `ESPI copy ${suffix}`;
    const otherMeter = `ESPI-${suffix}`;
    await withAdminPage(async (page) => {
      const location = await api<{ id: number }>(page, '/api/admin/locations', {
        method: 'POST',
        body: { publicName: siteName, address: 'e2e', timeZone: 'Australia/Brisbane' },
      });
      expect(location.status).toBe(201);
      // The other meter: five-minute, as the file's.
      const other = await api<{ id: number }>(page, '/api/admin/locations', {
        method: 'POST',
        body: { publicName: otherSite, address: 'e2e', timeZone: 'Australia/Brisbane' },
      });
      expect(other.status).toBe(201);
      const created = await api(page, '/api/admin/meters', {
        method: 'POST',
        body: {
          meterNumber: otherMeter,
          locationId: other.body.id,
          meterInd: 1,
          intervalMinutes: 5,
          installedAt: '2023-01-01T00:00:00+10:00',
        },
      });
      expect(created.status).toBe(201);

      // Dropped as from the desktop, zipped as AEMO files are sent.
      await page.goto('/admin/import');
      const dataTransfer = await page.evaluateHandle(
        ([bytes, name]) => {
          const transfer = new DataTransfer();
          transfer.items.add(new File([new Uint8Array(bytes)], name, { type: 'application/zip' }));
          return transfer;
        },
        [[...zip], 'nem12-three-nmis.zip'] as const,
      );
      await page.getByTestId('import-drop-zone').dispatchEvent('drop', { dataTransfer });
      await page.getByTestId('import-preview').waitFor();
      expect(await page.getByTestId('import-detected').textContent()).toMatch(/NEM12/);
      // Its NMIs and channels, before any meter is chosen.
      const nmis = page.getByTestId('import-preview-nmis');
      await nmis.getByText('VABC000003').first().waitFor();
      expect(await nmis.textContent()).toMatch(/VABC000003.*Export|Export.*VABC000003/s);

      // The meter is created from the preview: a location, then one confirmed step.
      const panel = page.getByTestId('import-new-meters');
      await panel.getByRole('combobox', { name: 'Location for VABC000003' }).click();
      await page.getByRole('option', { name: siteName }).click();
      await panel.getByRole('button', { name: 'Create 1 meter…' }).click();
      await panel.getByRole('button', { name: 'Create the meter' }).click();
      const meters = page.getByTestId('import-preview-meters');
      await meters.getByText(siteName).waitFor();
      await expectAccessible(page, 'import preview with new meters');
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByTestId('import-report').waitFor({ timeout: 30_000 });

      // Downloaded as CSV: the file's five-minute energies, per channel, to the watt-hour.
      const download = async (format: 'CSV' | 'Green Button XML') => {
        await page.goto('/admin/export');
        await page.getByRole('combobox', { name: 'Meter number' }).fill('VABC000003');
        await page.getByLabel('From (first day)').fill(day);
        await page.getByLabel('To (last day)').fill(day);
        await page.getByText(format, { exact: true }).click();
        const [file] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Download' }).click(),
        ]);
        return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
      };
      const csv = await download('CSV');
      const sums = { import: 0, export: 0 };
      for (const line of csv.text
        .replace(/^\uFEFF/, '')
        .split(/\r?\n/)
        .slice(1)) {
        const [, channel, kind, , , value] = line.split(',');
        if (kind === 'interval' && (channel === 'import' || channel === 'export'))
          sums[channel] += micro(value);
      }
      expect(sums.import).toBe(micro(want['VABC000003/E1']?.total));
      expect(sums.export).toBe(micro(want['VABC000003/B1']?.total));

      // Downloaded as Green Button ESPI and imported into another meter: the same totals.
      const espi = await download('Green Button XML');
      await page.goto('/admin/import');
      await page
        .locator('input[type="file"]')
        .setInputFiles({ name: espi.name, mimeType: 'application/atom+xml', buffer: Buffer.from(espi.text) });
      await page.getByTestId('import-preview').waitFor();
      await page.getByRole('textbox', { name: 'Meter number' }).fill(otherMeter);
      await page.getByTestId('import-preview-meters').getByText(otherSite).waitFor();
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByTestId('import-report').waitFor({ timeout: 30_000 });
      expect(await countOf(page, 'rejected')).toBe('0');
      const totals = async (name: string) => {
        const query = new URLSearchParams({ name, From: day, To: day, granularity: 'day' });
        const answer = await api<{
          meters: Array<{ totals: { consumption: number | null; other?: { consumption: number | null } } }>;
        }>(page, `/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?${query.toString()}`);
        expect(answer.status).toBe(200);
        const meter = answer.body.meters[0];
        return {
          import: micro(meter?.totals.consumption ?? 0),
          export: micro(meter?.totals.other?.consumption ?? 0),
        };
      };
      const original = await totals(siteName);
      expect(original).toEqual({ import: sums.import, export: sums.export });
      expect(await totals(otherSite)).toEqual(original);
    });
  });

  it('axe passes every administration page the router has; a dialog adds no second banner (issue 34)', async () => {
    // The pages are read from the router itself, so that a new page is checked the day it is added.
    const router = readFileSync(
      new URL('../apps/web/src/features/admin/admin-page.tsx', import.meta.url),
      'utf8',
    );
    const paths = [
      '/admin',
      ...[...router.matchAll(/<Route path="([a-z-]+)"/g)].map((m) => `/admin/${m[1]}`),
    ];
    expect(paths).toEqual([
      '/admin',
      '/admin/users',
      '/admin/locations',
      '/admin/devices',
      '/admin/api-keys',
      '/admin/connect',
      '/admin/import',
      '/admin/export',
      '/admin/series',
      '/admin/audit',
    ]);
    await withAdminPage(async (page) => {
      for (const path of paths) {
        await page.goto(path);
        await page.locator('h1').waitFor();
        await page.waitForLoadState('networkidle');
        await expectAccessible(page, path);
        await expectOneBanner(page, path);
      }
      // A modal (the search), a drawer (a new user), each open over a page with its own banner.
      await page.goto('/admin/users');
      await page.locator('h1').waitFor();
      await page.getByRole('button', { name: 'New user' }).click();
      await page.getByRole('dialog', { name: 'New user' }).getByRole('button', { name: 'Close' }).waitFor();
      await expectAccessible(page, 'new user drawer');
      await expectOneBanner(page, 'new user drawer');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
      await page.locator('body').press('/');
      await page.getByRole('dialog').waitFor();
      await expectAccessible(page, 'search dialog');
      await expectOneBanner(page, 'search dialog');
    });
    // Eight pages and two dialogs through axe: minutes on a loaded machine.
  }, 600_000);

  it('works at 390 px without sideways scrolling', async () => {
    await withAdminPage(
      async (page) => {
        for (const path of [
          '/admin',
          '/admin/users',
          '/admin/locations',
          '/admin/devices?location=1',
          '/admin/api-keys',
          '/admin/import',
          '/admin/export',
          '/admin/series',
          '/admin/audit',
        ]) {
          await page.goto(path);
          await page.locator('h1').waitFor();
          await page.waitForLoadState('networkidle');
          expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(
            390,
          );
          // No badge cut short ("MEDI…", "ADMINISTRA…", "ENA…": issue 34 low).
          const cut = await page.evaluate(() =>
            [...document.querySelectorAll<HTMLElement>('.mantine-Badge-label, [data-tone]')]
              .filter((label) => label.scrollWidth > label.clientWidth + 1)
              .map((label) => label.textContent),
          );
          expect(cut, path).toEqual([]);
        }
      },
      { width: 390, height: 844 },
    );
  });
});
