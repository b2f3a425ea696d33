/** Interface languages (spec §9). The first is the initial and fallback language. */
export const languages = ['en', 'fr', 'de', 'pt'] as const;
/** A supported language code. */
export type Language = (typeof languages)[number];
export const FALLBACK_LANGUAGE: Language = 'en';

/** Each language's name in itself: shown as-is in every interface language, as is customary. */
export const nativeLanguageNames: Record<Language, string> = {
  en: 'English',
  fr: 'Français',
  de: 'Deutsch',
  pt: 'Português',
};

/** Narrows any code (`pt-BR`, `fr`) to a supported language, or the fallback. */
export function toLanguage(code: string | null | undefined): Language {
  const base = (code ?? '').toLowerCase().split('-')[0];
  return languages.find((lng) => lng === base) ?? FALLBACK_LANGUAGE;
}
