import type { TFunction } from 'i18next';

/**
 * A webhook delivery's last answer in the reader's language. The server words its failures in
 * English for every reader ("could not connect", "no answer within 10 s": outbound.ts); an HTTP
 * status stays as it is ("HTTP 503"), and anything else is shown as sent.
 */
export function deliveryResultText(result: string | null, t: TFunction): string {
  if (result === null) return '—';
  const timeout = /^no answer within (\d+) s$/.exec(result);
  if (timeout) return t('admin.webhooks.results.timeout', { seconds: Number(timeout[1]) });
  const key = RESULT_KEYS[result];
  return key ? t(key) : result;
}

const RESULT_KEYS: Record<string, string> = {
  'could not connect': 'admin.webhooks.results.noConnection',
  'host name not found': 'admin.webhooks.results.noHost',
  'secure connection failed': 'admin.webhooks.results.tls',
  'refused: address not allowed': 'admin.webhooks.results.notAllowed',
};
