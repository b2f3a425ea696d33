import { importReasonTexts } from '@cm/contracts/import-reasons.ts';
import type { i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { testI18n } from '@/test-support/i18n.ts';
import de from '../../../../public/locales/de.json';
import en from '../../../../public/locales/en.json';
import fr from '../../../../public/locales/fr.json';
import pt from '../../../../public/locales/pt.json';
import { rejectionText } from './rejection-text.ts';

let i18n: I18n;
beforeAll(async () => {
  i18n = await testI18n('de', { en, de });
});

describe('rejectionText', () => {
  it('has words for every refusal the server can give, in every language', () => {
    for (const [language, file] of Object.entries({ en, fr, de, pt })) {
      const keys = new Set(Object.keys(file));
      const missing = Object.keys(importReasonTexts).filter(
        (code) => !keys.has(`admin.import.reasons.${code}`),
      );
      expect(missing, language).toEqual([]);
    }
  });

  it('words a refusal in the reader language with its numbers formatted (17.15)', () => {
    const line = {
      line: 11,
      reason: 'register 277220 is below the previous register 277226.5 (not a rollover).',
      code: 'belowPrevious',
      params: { value: 277_220, previous: 277_226.5 },
    };
    expect(rejectionText(line, i18n.t)).toBe(
      'der Zählerstand 277.220 liegt unter dem vorigen Zählerstand 277.226,5 (kein Überlauf).',
    );
  });

  it('keeps the English sentence of a report without codes, or with a code it does not know', () => {
    const old = { line: 4, reason: 'unknown meter number "NOPE".' };
    expect(rejectionText(old, i18n.t)).toBe('unknown meter number "NOPE".');
    expect(rejectionText({ ...old, code: 'fromTheFuture', params: {} }, i18n.t)).toBe(old.reason);
  });
});
