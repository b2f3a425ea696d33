// An alert in words, for e-mails (the web app words alerts itself from kind and detail, in the
// reader's language). Times are the location's, with their offset.

import type { AlertDetail, AlertKind } from '@cm/contracts/alerts.ts';
import { isoInZone } from '@cm/contracts/zoned-time.ts';

export interface AlertWords {
  event: 'fired' | 'cleared';
  kind: AlertKind;
  threshold: number | null;
  meterNumber: string;
  locationName: string;
  timeZone: string;
  startedAt: Date;
  clearedAt: Date | null;
  detail: AlertDetail;
}

const local = (at: Date | string, timeZone: string) =>
  isoInZone(new Date(at).getTime(), timeZone).replace('T', ' ');
const kwh = (value: number | null | undefined) =>
  value === null || value === undefined
    ? '?'
    : `${value.toLocaleString('en', { maximumFractionDigits: 3 })} kWh`;

const money = (amount: number | null | undefined, currency: string | undefined) =>
  amount === null || amount === undefined
    ? '?'
    : amount.toLocaleString('en', { style: 'currency', currency: currency ?? 'EUR' });

function what(alert: AlertWords): string {
  const { detail } = alert;
  switch (alert.kind) {
    case 'silent': {
      const chain = [
        detail.cubeSilent === true
          ? 'its Cube is silent too'
          : detail.cubeSilent === false
            ? 'its Cube reports'
            : null,
        detail.accessPointSilent === true
          ? 'its AccessPoint is silent too'
          : detail.accessPointSilent === false
            ? 'its AccessPoint reports'
            : null,
      ].filter((part) => part !== null);
      const last = detail.lastSeenAt
        ? `last data ${local(detail.lastSeenAt, alert.timeZone)}`
        : 'no data yet';
      return `has sent nothing for more than ${alert.threshold ?? '?'} hours (${last})${chain.length > 0 ? `; ${chain.join(', ')}` : ''}`;
    }
    case 'dailyAbove':
      return `used ${kwh(detail.consumption)} on ${detail.day ?? '?'}, above the ${kwh(alert.threshold)} set`;
    case 'usualAbove':
      return `used ${kwh(detail.consumption)} on ${detail.day ?? '?'}, more than ${alert.threshold ?? '?'} × the usual ${kwh(detail.usual)} of that weekday`;
    case 'billAbove':
      return `has a bill of ${money(detail.amount, detail.currency)} since ${detail.periodFrom ?? '?'}, above the ${money(alert.threshold, detail.currency)} set`;
    case 'registerDecrease':
      return `register went down from ${detail.from ?? '?'} to ${detail.to ?? '?'} at ${detail.at ? local(detail.at, alert.timeZone) : '?'} (a rollover, an exchange or a fault)`;
  }
}

/** Subject and text of an alert's e-mail. */
export function alertEmail(alert: AlertWords): { subject: string; text: string } {
  const meter = `Meter ${alert.meterNumber} at ${alert.locationName}`;
  const sentence = `${meter} ${what(alert)}.`;
  if (alert.event === 'cleared')
    return {
      subject: `[Check Meter] Cleared: ${meter}`,
      text: `Cleared at ${alert.clearedAt ? local(alert.clearedAt, alert.timeZone) : '?'}: ${sentence}\n\nIt began ${local(alert.startedAt, alert.timeZone)}.\n`,
    };
  return {
    subject: `[Check Meter] ${meter}: ${alert.kind === 'silent' ? 'no data' : alert.kind === 'registerDecrease' ? 'register went down' : 'high consumption'}`,
    text: `${sentence}\n\nSince ${local(alert.startedAt, alert.timeZone)} (${alert.timeZone}). You get this because you chose e-mails for this kind of alert in Check Meter.\n`,
  };
}
