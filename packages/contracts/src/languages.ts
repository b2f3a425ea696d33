import { z } from 'zod';

/** Interface languages (spec §9). The first is the initial and fallback language. */
export const languages = ['en', 'fr', 'de', 'pt'] as const;
/** A supported language code. */
export type Language = (typeof languages)[number];
export const FALLBACK_LANGUAGE: Language = 'en';

/** A language parameter, named in its error message. */
export const languageSchema = z.enum(languages, {
  message: `language must be one of ${languages.join(', ')}.`,
});

/** `PUT /api/auth/language` body. */
export const languageBodySchema = z.object({ language: languageSchema });
