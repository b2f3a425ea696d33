import type { AlertNotification } from '@cm/contracts/alerts.ts';
import type { i18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { testI18n } from '@/test-support/i18n.ts';
import en from '../../public/locales/en.json';
import pt from '../../public/locales/pt.json';
import { alertSentence } from './alert-text.ts';

const item = (alert: Partial<AlertNotification['alert']>): AlertNotification => ({
  id: 1,
  event: 'fired',
  createdAt: '2026-11-27T06:00:00.000Z',
  readAt: null,
  alert: {
    id: 5,
    kind: 'billAbove',
    threshold: 10,
    meterNumber: 'EM-10002',
    locationName: 'Harbour View / Block C',
    timeZone: 'Europe/Lisbon',
    startedAt: '2026-11-27T05:00:00.000Z',
    clearedAt: null,
    detail: {},
    ...alert,
  },
});

let i18n: i18n;
beforeAll(async () => {
  i18n = await testI18n('en', { en, pt });
});

describe('alertSentence: dates in words, as the rest of the page (issue 34 low)', () => {
  it('writes the first day of a bill in the reader’s language, not as ISO', async () => {
    await i18n.changeLanguage('pt');
    const sentence = alertSentence(
      item({ detail: { amount: 38.92, currency: 'EUR', periodFrom: '2026-11-17' } }),
      i18n.t,
      'pt',
    );
    // Intl's pt date style "medium": "17/11/2026"; what matters is no ISO date.
    expect(sentence).not.toContain('2026-11-17');
    expect(sentence).toContain(
      new Intl.DateTimeFormat('pt', { dateStyle: 'medium' }).format(Date.UTC(2026, 10, 17)),
    );
  });

  it('writes a daily alert’s day as a date of the location, whatever the reader’s zone', async () => {
    await i18n.changeLanguage('en');
    const sentence = alertSentence(
      item({
        kind: 'dailyAbove',
        threshold: 5,
        timeZone: 'Pacific/Kiritimati',
        detail: { day: '2026-11-26', consumption: 12.5 },
      }),
      i18n.t,
      'en',
    );
    expect(sentence).toContain('Nov 26, 2026');
    expect(sentence).not.toContain('2026-11-26');
  });
});
