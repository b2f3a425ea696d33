// Plain data, no zod: the browser's entry reads it (the language switcher), and zod stays out of
// the start-up download. The language schemas are in auth.ts.

/** Interface languages (spec §9). The first is the initial and fallback language. */
export const languages = ['en', 'fr', 'de', 'pt'] as const;
/** A supported language code. */
export type Language = (typeof languages)[number];
export const FALLBACK_LANGUAGE: Language = 'en';
