import { FALLBACK_LANGUAGE, languages, type Language } from '@cm/contracts/languages.ts';

export { FALLBACK_LANGUAGE, languages };

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
