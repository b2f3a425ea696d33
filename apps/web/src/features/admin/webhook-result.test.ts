import type { i18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { testI18n } from '@/test-support/i18n.ts';
import en from '../../../public/locales/en.json';
import de from '../../../public/locales/de.json';
import fr from '../../../public/locales/fr.json';
import pt from '../../../public/locales/pt.json';
import { deliveryResultText } from './webhook-result.ts';

let i18n: i18n;
beforeAll(async () => {
  i18n = await testI18n('en', { en, de, fr, pt });
});

describe('a webhook delivery’s last answer (issue 34 low)', () => {
  it('is worded in the reader’s language, never "TypeError: fetch failed" nor English for all', async () => {
    await i18n.changeLanguage('de');
    expect(deliveryResultText('could not connect', i18n.t)).toBe('Keine Verbindung möglich');
    expect(deliveryResultText('no answer within 10 s', i18n.t)).toBe('Keine Antwort innerhalb von 10 s');
    await i18n.changeLanguage('en');
    expect(deliveryResultText('host name not found', i18n.t)).toBe('Host name not found');
    expect(deliveryResultText('refused: address not allowed', i18n.t)).toBe(
      'Not sent: this address is not allowed (CM_OUTBOUND_ALLOW_CIDRS)',
    );
    // An HTTP status and anything unknown stay as sent.
    expect(deliveryResultText('HTTP 503', i18n.t)).toBe('HTTP 503');
    expect(deliveryResultText(null, i18n.t)).toBe('—');
  });

  it('has its words in every language', async () => {
    for (const language of ['en', 'de', 'fr', 'pt']) {
      await i18n.changeLanguage(language);
      for (const result of [
        'could not connect',
        'host name not found',
        'secure connection failed',
        'refused: address not allowed',
        'no answer within 10 s',
      ])
        expect(deliveryResultText(result, i18n.t), `${language}: ${result}`).not.toMatch(/admin\.webhooks/);
    }
  });
});
