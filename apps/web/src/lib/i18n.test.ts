import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildI18nOptions, initI18n, TRANSLATION_RETRY } from './i18n.ts';

describe('translation loading', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  async function startWith(fetchImpl: (url: string) => Promise<Response>) {
    const attempts: number[] = [];
    const started = Date.now();
    const instance = i18next.createInstance();
    const options = buildI18nOptions();
    void initI18n(
      instance,
      {
        lng: 'en',
        backend: {
          ...options.backend,
          alternateFetch: (url: string) => {
            attempts.push(Date.now() - started);
            return fetchImpl(url);
          },
        },
      },
      false,
    );
    await vi.advanceTimersByTimeAsync(0);
    return { instance, attempts };
  }

  it('retries a failed load 5 times, waiting 350, 700, 1400, 2800 and 5600 ms, then gives up with a warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { instance, attempts } = await startWith(() => Promise.reject(new TypeError('Failed to fetch')));

    await vi.advanceTimersByTimeAsync(60_000);

    expect(TRANSLATION_RETRY).toEqual({ maxRetries: 5, retryTimeout: 350 });
    expect(attempts).toEqual([0, 350, 1050, 2450, 5250, 10850]);
    const gaps = attempts.slice(1).map((at, i) => at - (attempts[i] ?? 0));
    expect(gaps).toEqual([350, 700, 1400, 2800, 5600]);
    // One warning per failed attempt and one when it gives up; nothing is shown to the user.
    const messages = warn.mock.calls.map((call) => call.map(String).join(' '));
    expect(messages.filter((m) => m.includes('failed to load'))).toHaveLength(6);
    expect(messages.filter((m) => m.includes('gave up'))).toHaveLength(1);
    expect(instance.hasResourceBundle('en', 'translation')).toBe(false);
  });

  it('retries a 404 too, and stops retrying once a load succeeds', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let calls = 0;
    const { instance, attempts } = await startWith(() => {
      calls += 1;
      return Promise.resolve(
        calls < 3
          ? new Response('not found', { status: 404 })
          : new Response(JSON.stringify({ 'auth.login.title': 'Welcome' }), { status: 200 }),
      );
    });

    await vi.advanceTimersByTimeAsync(60_000);

    expect(attempts).toEqual([0, 350, 1050]);
    expect(instance.t('auth.login.title')).toBe('Welcome');
  });

  it('uses the spec settings: flat keys, no escaping, no suspense, 10 parallel reads, 1000 replacements', () => {
    const options = buildI18nOptions();
    expect(options.keySeparator).toBe(false);
    expect(options.fallbackLng).toBe('en');
    expect(options.supportedLngs).toEqual(['en', 'fr', 'de', 'pt']);
    expect(options.interpolation).toMatchObject({ escapeValue: false, maxReplaces: 1000 });
    expect(options.react).toMatchObject({ useSuspense: false });
    expect(options.maxParallelReads).toBe(10);
    expect(options.detection).toMatchObject({
      order: ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'],
      lookupQuerystring: 'lng',
      caches: ['localStorage'],
    });
  });
});
