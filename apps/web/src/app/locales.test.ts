import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { suggestionKinds } from '@cm/contracts/bookmarks.ts';
import { granularities, readingEventTypes } from '@cm/contracts/check.ts';
import { channels, readingQualities } from '@cm/contracts/check-limits.ts';
import { importPhases } from '@cm/contracts/import-jobs.ts';
import { dateLayouts, importPresets, valueUnits } from '@cm/contracts/import-mapping.ts';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { contentWidths, footerTypes, navbarTypes, skins } from '@/layout/layout-slice.ts';
import { menuSections } from '@/layout/menu-items.ts';
import { languages } from '@/lib/languages.ts';

const webRoot = resolve(import.meta.dirname, '../..');
const PLURAL = /_(zero|one|two|few|many|other)$/;

function load(lng: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(readFileSync(join(webRoot, 'public/locales', `${lng}.json`), 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`${lng}.json is not an object`);
  return Object.fromEntries(Object.entries(parsed));
}

const files = Object.fromEntries(languages.map((lng) => [lng, load(lng)]));
const en = files.en ?? {};
const baseKeys = (file: Record<string, unknown>) =>
  new Set(Object.keys(file).map((key) => key.replace(PLURAL, '')));
const variables = (text: unknown) =>
  [...String(text).matchAll(/\{\{\s*(\w+)\s*(?:,[^}]*)?\}\}/g)].map((m) => m[1]).sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [full] : [];
  });
}

describe('translations', () => {
  it('has one file per language and nothing else', () => {
    expect(readdirSync(join(webRoot, 'public/locales')).sort()).toEqual(
      languages.map((lng) => `${lng}.json`).sort(),
    );
  });

  it.each(languages)('%s: flat keys with non-empty text values', (lng) => {
    for (const [key, value] of Object.entries(files[lng] ?? {})) {
      expect(typeof value, key).toBe('string');
      expect(String(value).trim(), key).not.toBe('');
      expect(key, key).toMatch(/^[a-z][a-zA-Z]*(\.[a-zA-Z][\w-]*)+$/);
    }
  });

  it.each(languages)('%s: has every key of every other language, and no extra one', (lng) => {
    expect([...baseKeys(files[lng] ?? {})].sort()).toEqual([...baseKeys(en)].sort());
  });

  it.each(languages)('%s: has every plural form the language needs', (lng) => {
    const categories = new Intl.PluralRules(lng).resolvedOptions().pluralCategories;
    const plurals = new Set(
      Object.keys(en)
        .filter((key) => PLURAL.test(key))
        .map((key) => key.replace(PLURAL, '')),
    );
    for (const base of plurals) {
      for (const category of categories) {
        if (category === 'zero' || category === 'two' || category === 'few') continue;
        expect(files[lng], `${base}_${category}`).toHaveProperty([`${base}_${category}`]);
      }
    }
  });

  it.each(languages.filter((lng) => lng !== 'en'))(
    '%s: keeps the interpolation variables and is a translation, not a copy',
    (lng) => {
      const file = files[lng] ?? {};
      let copies = 0;
      for (const [key, value] of Object.entries(en)) {
        const translated = file[key] ?? file[key.replace(PLURAL, '_other')];
        expect(variables(translated), key).toEqual(variables(value));
        if (translated === value) copies += 1;
      }
      // Some words are the same in both languages ("Administration", "Client"), most are not.
      expect(copies / Object.keys(en).length).toBeLessThan(0.1);
    },
  );

  it('keeps the spec messages word for word in English', () => {
    expect(en['session.network']).toBe('Network Error! Please login again.');
    expect(en['session.expired']).toBe('Session Expired! Please login again.');
  });

  it('has every key the code asks for', () => {
    const keys = new Set(Object.keys(en).map((key) => key.replace(PLURAL, '')));
    const namespaces = new Set([...keys].map((key) => key.split('.')[0]));
    const used = new Set<string>();
    for (const file of sourceFiles(join(webRoot, 'src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(
        /['"`]([a-z][a-zA-Z]*(?:\.[a-zA-Z][\w-]*)+)['"`]/g,
      )) {
        const key = match[1] ?? '';
        if (namespaces.has(key.split('.')[0]) && !/\.(ts|tsx|css|json)$/.test(key)) used.add(key);
      }
    }
    // Keys built at run time.
    for (const kind of suggestionKinds) used.add(`search.kind.${kind}`);
    for (const skin of skins) used.add(`customizer.skin.${skin}`);
    for (const dir of ['ltr', 'rtl']) used.add(`customizer.direction.${dir}`);
    for (const width of contentWidths) used.add(`customizer.contentWidth.${width}`);
    for (const type of navbarTypes) used.add(`customizer.navbar.${type}`);
    for (const type of footerTypes) used.add(`customizer.footer.${type}`);
    for (const reason of ['network', 'expired']) used.add(`session.${reason}`);
    for (const type of readingEventTypes)
      if (!['estimated', 'substituted', 'corrected'].includes(type)) used.add(`check.table.event.${type}`);
    for (const channel of channels) {
      used.add(`check.corrections.channel.${channel}`);
      used.add(`check.notes.period.${channel}`);
    }
    for (const quality of readingQualities) used.add(`check.corrections.quality.${quality}`);
    for (const source of ['device', 'import']) used.add(`check.corrections.source.${source}`);
    for (const granularity of granularities)
      if (granularity !== 'raw') used.add(`check.table.inBucket.${granularity}`);
    for (const layout of dateLayouts) used.add(`admin.import.mapping.layouts.${layout}`);
    for (const unit of valueUnits) used.add(`admin.import.mapping.units.${unit}`);
    for (const preset of importPresets) used.add(`admin.import.presets.${preset}`);
    for (const channel of channels) used.add(`admin.import.preview.channels.${channel}`);
    for (const quality of readingQualities) used.add(`admin.import.preview.qualities.${quality}`);
    for (const phase of importPhases) used.add(`admin.import.job.${phase}`);
    for (const section of menuSections) {
      used.add(section.titleKey);
      for (const item of section.items) used.add(item.labelKey);
    }
    expect(used.size).toBeGreaterThan(50);
    expect([...used].filter((key) => !keys.has(key))).toEqual([]);
  });

  it('writes counts with the language’s digit grouping, as the rest of the numbers', async () => {
    // Issue 17.9: "28524 intervals" beside "2,051.301 kWh".
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: 'en',
      resources: Object.fromEntries(languages.map((lng) => [lng, { translation: files[lng] ?? {} }])),
      interpolation: { escapeValue: false },
    });
    expect(i18n.t('check.table.missing', { count: 28_524 })).toBe('28,524 missing');
    expect(i18n.t('check.table.missing', { count: 28_524, lng: 'de' })).toBe('28.524 fehlen');
    // Every count placeholder of the check page and the administration is formatted.
    for (const [key, value] of Object.entries(en))
      if (/^(check|admin)\./.test(key)) expect(String(value), key).not.toContain('{{count}}');
  });
});
