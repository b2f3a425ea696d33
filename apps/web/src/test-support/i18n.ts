import i18next, { type i18n, type Resource } from 'i18next';

/** An i18next instance set up as the app's (flat keys, no escaping: React escapes), for tests. */
export async function testI18n(lng: string, files: Record<string, Record<string, string>>): Promise<i18n> {
  const instance = i18next.createInstance();
  const resources: Resource = Object.fromEntries(
    Object.entries(files).map(([language, translation]) => [language, { translation }]),
  );
  await instance.init({
    lng,
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    resources,
  });
  return instance;
}
