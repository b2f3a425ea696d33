import { describe, expect, it } from 'vitest';
import { repairBrowserLanguage, validLanguageTag } from './browser-language.ts';

describe('browser language', () => {
  it('keeps a valid tag and repairs the ones Intl refuses', () => {
    expect(validLanguageTag('de-CH')).toBe('de-CH');
    expect(validLanguageTag('en-US@posix')).toBe('en-US');
    expect(validLanguageTag('pt_BR.UTF-8')).toBe('pt-BR');
    expect(validLanguageTag('@@')).toBe('en');
    expect(() => new Intl.NumberFormat('en-US@posix')).toThrow(RangeError);
  });

  it("gives navigator a tag Intl formats with, as Chromium's under LANG=C.UTF-8 is not", () => {
    const browser = { language: 'en-US@posix', languages: ['en-US@posix', 'fr'] } as unknown as Navigator;
    repairBrowserLanguage(browser);
    expect(browser.language).toBe('en-US');
    expect(browser.languages).toEqual(['en-US', 'fr']);
    expect(new Intl.NumberFormat(browser.language).format(1234.5)).toBe('1,234.5');
  });
});
