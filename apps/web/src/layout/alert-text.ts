import type { AlertNotification } from '@cm/contracts/alerts.ts';
import type { TFunction } from 'i18next';
import { formatDate, formatEnergy, formatMoney, formatNumber, formatZonedDateTime } from '@/lib/format.ts';

/** An alert as a sentence in the reader's language; times in the meter's location zone with their offset. */
export function alertSentence(item: AlertNotification, t: TFunction, locale: string): string {
  const { alert } = item;
  const { detail } = alert;
  const at = (iso: string | null | undefined) =>
    iso ? formatZonedDateTime(iso, locale, alert.timeZone) : '—';
  // A local date of the location (YYYY-MM-DD) in words: read as a UTC midnight and written in UTC.
  const date = (day: string | null | undefined) =>
    day ? formatDate(`${day}T00:00:00Z`, locale, 'UTC') : '—';
  const energy = (kwh: number | null | undefined) =>
    kwh === null || kwh === undefined ? '—' : formatEnergy(kwh, locale);
  const values = { meter: alert.meterNumber, location: alert.locationName };
  let sentence: string;
  switch (alert.kind) {
    case 'silent': {
      const chain = [
        detail.cubeSilent === true
          ? t('alerts.chain.cubeSilent')
          : detail.cubeSilent === false
            ? t('alerts.chain.cubeReports')
            : '',
        detail.accessPointSilent === true
          ? t('alerts.chain.accessPointSilent')
          : detail.accessPointSilent === false
            ? t('alerts.chain.accessPointReports')
            : '',
      ].filter((part) => part !== '');
      sentence = [
        t('alerts.text.silent', {
          ...values,
          hours: formatNumber(alert.threshold ?? 0, locale),
          last: detail.lastSeenAt ? at(detail.lastSeenAt) : t('alerts.text.never'),
        }),
        ...chain,
      ].join(' ');
      break;
    }
    case 'dailyAbove':
      sentence = t('alerts.text.dailyAbove', {
        ...values,
        energy: energy(detail.consumption),
        day: date(detail.day),
        // A limit as the person typed it ("5 kWh").
        limit: formatEnergy(alert.threshold ?? 0, locale, 3, 0),
      });
      break;
    case 'usualAbove':
      sentence = t('alerts.text.usualAbove', {
        ...values,
        energy: energy(detail.consumption),
        day: date(detail.day),
        factor: formatNumber(alert.threshold ?? 0, locale),
        usual: energy(detail.usual),
      });
      break;
    case 'billAbove':
      sentence = t('alerts.text.billAbove', {
        ...values,
        amount: formatMoney(detail.amount ?? 0, detail.currency ?? 'EUR', locale),
        limit: formatMoney(alert.threshold ?? 0, detail.currency ?? 'EUR', locale),
        from: date(detail.periodFrom),
      });
      break;
    case 'priceAbove':
      sentence = t('alerts.text.priceAbove', {
        ...values,
        price: formatMoney(detail.amount ?? 0, detail.currency ?? 'EUR', locale, true),
        limit: formatMoney(alert.threshold ?? 0, detail.currency ?? 'EUR', locale, true),
        at: at(detail.at),
      });
      break;
    case 'peakNear':
      sentence = t('alerts.text.peakNear', {
        ...values,
        power: formatNumber(detail.power ?? 0, locale, { maximumFractionDigits: 3 }),
        peak: formatNumber(detail.peak ?? 0, locale, { maximumFractionDigits: 3 }),
        percent: formatNumber(alert.threshold ?? 0, locale),
        at: at(detail.at),
      });
      break;
    case 'registerDecrease':
      sentence = t('alerts.text.registerDecrease', {
        ...values,
        from: formatNumber(detail.from ?? 0, locale, { maximumFractionDigits: 3 }),
        to: formatNumber(detail.to ?? 0, locale, { maximumFractionDigits: 3 }),
        at: at(detail.at),
      });
      break;
  }
  return item.event === 'cleared'
    ? t('alerts.text.cleared', { at: at(alert.clearedAt), sentence })
    : sentence;
}
