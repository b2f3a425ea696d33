// Some browsers report a language that is not a BCP 47 tag — Chromium on Linux under LANG=C.UTF-8
// says "en-US@posix" — and Intl throws a RangeError on it. The chart library formats with
// navigator.language when it loads, so the whole meter view would fail to load. Before anything
// else runs, navigator is given the valid part of such a tag instead.

/** The tag itself when Intl accepts it, else its part before "@" or "." with "_" read as "-", else "en". */
export function validLanguageTag(tag: string): string {
  const accepted = (candidate: string) => {
    try {
      return Intl.getCanonicalLocales(candidate)[0];
    } catch {
      return undefined;
    }
  };
  return accepted(tag) ?? accepted(tag.split(/[@.]/)[0]?.replace(/_/g, '-') ?? '') ?? 'en';
}

/** Replaces an invalid navigator.language (and navigator.languages' invalid entries) by valid tags. */
export function repairBrowserLanguage(browser: Navigator = navigator): void {
  const language = validLanguageTag(browser.language);
  if (language !== browser.language) {
    Object.defineProperty(browser, 'language', { value: language, configurable: true });
  }
  const languages = browser.languages.map(validLanguageTag);
  if (languages.some((tag, index) => tag !== browser.languages[index])) {
    Object.defineProperty(browser, 'languages', { value: Object.freeze(languages), configurable: true });
  }
}
