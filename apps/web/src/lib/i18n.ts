import i18next, { type i18n as I18n, type InitOptions, type ReadCallback } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import HttpBackend, { type HttpBackendOptions } from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_LANGUAGE, languages, toLanguage } from './languages.ts';

/**
 * Translation loading retries (spec §8): up to 5 retries, the first after 350 ms, each wait
 * doubling (350, 700, 1400, 2800, 5600 ms). i18next's backend connector runs this schedule
 * whenever the backend reports a failure as retryable.
 */
export const TRANSLATION_RETRY = { maxRetries: 5, retryTimeout: 350 } as const;

/**
 * The http backend, logging a warning for every failed attempt (no message is shown to the
 * user) and marking every failure retryable: the spec retries any failed load, where the stock
 * backend gives up at once on a 4xx (a file briefly missing during a deployment, say).
 */
export class WarningHttpBackend extends HttpBackend {
  override read(language: string, namespace: string, callback: ReadCallback): void {
    super.read(language, namespace, (err, data) => {
      if (!err) return callback(null, data);
      console.warn(`Check Meter: translations for "${language}" failed to load (${String(err)}).`);
      callback(err, true);
    });
  }
}

/** Where the translation files live (apps/web/public/locales/<lng>.json). */
export const LOCALES_PATH = '/locales/{{lng}}.json';

/** The i18next options (spec §4, §9). */
export function buildI18nOptions(): InitOptions<HttpBackendOptions> {
  return {
    supportedLngs: [...languages],
    fallbackLng: FALLBACK_LANGUAGE,
    load: 'languageOnly',
    ns: ['translation'],
    defaultNS: 'translation',
    // Keys are flat: `auth.login.title` is one key, not a path.
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false, maxReplaces: 1000 },
    react: { useSuspense: false },
    maxParallelReads: 10,
    ...TRANSLATION_RETRY,
    backend: { loadPath: LOCALES_PATH },
    detection: {
      order: ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'],
      lookupQuerystring: 'lng',
      lookupLocalStorage: 'i18nextLng',
      caches: ['localStorage'],
      convertDetectedLanguage: (lng: string) => toLanguage(lng),
    },
  };
}

function syncHtmlLang(lng: string): void {
  document.documentElement.setAttribute('lang', toLanguage(lng));
}

/**
 * Initialises an i18next instance with the translation backend and the spec options (tests
 * pass overrides and skip the browser plugins). A final failure after the retries is warned
 * about too: i18next itself only says so in debug mode.
 */
export function initI18n(
  instance: I18n,
  overrides: InitOptions<HttpBackendOptions> = {},
  withBrowserPlugins = true,
): Promise<unknown> {
  instance.on('failedLoading', (lng: string, ns: string, message: string) => {
    console.warn(`Check Meter: gave up loading translations "${ns}" for "${lng}" (${message}).`);
  });
  instance.use(WarningHttpBackend);
  if (withBrowserPlugins) instance.use(LanguageDetector).use(initReactI18next);
  return instance.init({ ...buildI18nOptions(), ...overrides });
}

/** Starts i18next once; translations load in the background and never hold back rendering. */
export function startI18n(instance: I18n = i18next): I18n {
  if (instance.isInitializing || instance.isInitialized) return instance;
  instance.on('languageChanged', syncHtmlLang);
  void initI18n(instance);
  return instance;
}

export { i18next };
