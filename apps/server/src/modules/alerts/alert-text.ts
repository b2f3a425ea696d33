// An alert in words, for e-mails, in the recipient's language (the web app words alerts itself
// from kind and detail). Times are the location's, with their offset; numbers and money are
// formatted as the language writes them.

import type { AlertDetail, AlertKind } from '@cm/contracts/alerts.ts';
import type { Language } from '@cm/contracts/languages.ts';
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

/** The pieces filled in a sentence, already formatted. */
interface Filled {
  hours: string;
  last: string | null;
  chain: string[];
  energy: string;
  limit: string;
  day: string;
  factor: string;
  usual: string;
  amount: string;
  /** priceAbove: the price per kWh. */
  price: string;
  from: string;
  to: string;
  at: string;
  power: string;
  peak: string;
  percent: string;
}

interface Catalog {
  meter: (number: string, location: string) => string;
  what: Record<AlertKind, (f: Filled) => string>;
  chain: { cubeSilent: string; cubeReports: string; accessPointSilent: string; accessPointReports: string };
  headline: Record<AlertKind, string>;
  cleared: string;
  clearedAt: (at: string, sentence: string) => string;
  began: (at: string) => string;
  since: (at: string, zone: string) => string;
}

const catalogs: Record<Language, Catalog> = {
  en: {
    meter: (number, location) => `Meter ${number} at ${location}`,
    what: {
      silent: (f) =>
        `has sent nothing for more than ${f.hours} hours (${f.last ? `last data ${f.last}` : 'no data yet'})${f.chain.length > 0 ? `; ${f.chain.join(', ')}` : ''}`,
      dailyAbove: (f) => `used ${f.energy} on ${f.day}, above the ${f.limit} set`,
      usualAbove: (f) =>
        `used ${f.energy} on ${f.day}, more than ${f.factor} × the usual ${f.usual} of that weekday`,
      billAbove: (f) => `has a bill of ${f.amount} since ${f.from}, above the ${f.limit} set`,
      priceAbove: (f) => `will pay ${f.price} per kWh from ${f.at}, above the ${f.limit} set`,
      peakNear: (f) =>
        `drew ${f.power} in the interval from ${f.at}, above ${f.percent} % of this month's peak so far (${f.peak})`,
      registerDecrease: (f) =>
        `register went down from ${f.from} to ${f.to} at ${f.at} (a rollover, an exchange or a fault)`,
    },
    chain: {
      cubeSilent: 'its Cube is silent too',
      cubeReports: 'its Cube reports',
      accessPointSilent: 'its AccessPoint is silent too',
      accessPointReports: 'its AccessPoint reports',
    },
    headline: {
      silent: 'no data',
      dailyAbove: 'high consumption',
      usualAbove: 'high consumption',
      billAbove: 'bill above the amount set',
      priceAbove: 'price above the amount set',
      peakNear: "near this month's peak",
      registerDecrease: 'register went down',
    },
    cleared: 'Cleared',
    clearedAt: (at, sentence) => `Cleared at ${at}: ${sentence}`,
    began: (at) => `It began ${at}.`,
    since: (at, zone) =>
      `Since ${at} (${zone}). You get this because you chose e-mails for this kind of alert in Check Meter.`,
  },
  fr: {
    meter: (number, location) => `Le compteur ${number} à ${location}`,
    what: {
      silent: (f) =>
        `n'a rien envoyé depuis plus de ${f.hours} heures (${f.last ? `dernières données ${f.last}` : 'aucune donnée encore'})${f.chain.length > 0 ? ` ; ${f.chain.join(', ')}` : ''}`,
      dailyAbove: (f) => `a consommé ${f.energy} le ${f.day}, au-dessus des ${f.limit} fixés`,
      usualAbove: (f) =>
        `a consommé ${f.energy} le ${f.day}, plus de ${f.factor} × ses ${f.usual} habituels ce jour de la semaine`,
      billAbove: (f) => `a une facture de ${f.amount} depuis le ${f.from}, au-dessus des ${f.limit} fixés`,
      priceAbove: (f) => `paiera ${f.price} par kWh à partir du ${f.at}, au-dessus des ${f.limit} fixés`,
      peakNear: (f) =>
        `a appelé ${f.power} dans l'intervalle commençant à ${f.at}, au-dessus de ${f.percent} % de la pointe du mois jusqu'ici (${f.peak})`,
      registerDecrease: (f) =>
        `a vu son index descendre de ${f.from} à ${f.to} le ${f.at} (un passage à zéro, un échange ou une panne)`,
    },
    chain: {
      cubeSilent: 'son Cube est muet aussi',
      cubeReports: 'son Cube transmet',
      accessPointSilent: "son point d'accès est muet aussi",
      accessPointReports: "son point d'accès transmet",
    },
    headline: {
      silent: 'pas de données',
      dailyAbove: 'consommation élevée',
      usualAbove: 'consommation élevée',
      billAbove: 'facture au-dessus du montant fixé',
      priceAbove: 'prix au-dessus du montant fixé',
      peakNear: 'proche de la pointe du mois',
      registerDecrease: 'index en baisse',
    },
    cleared: 'Terminée',
    clearedAt: (at, sentence) => `Terminée le ${at} : ${sentence}`,
    began: (at) => `Elle avait commencé le ${at}.`,
    since: (at, zone) =>
      `Depuis le ${at} (${zone}). Vous recevez ce message parce que vous avez choisi les e-mails pour ce type d'alerte dans Check Meter.`,
  },
  de: {
    meter: (number, location) => `Zähler ${number} am Standort ${location}`,
    what: {
      silent: (f) =>
        `hat seit mehr als ${f.hours} Stunden nichts gesendet (${f.last ? `letzte Daten ${f.last}` : 'noch keine Daten'})${f.chain.length > 0 ? `; ${f.chain.join(', ')}` : ''}`,
      dailyAbove: (f) => `hat am ${f.day} ${f.energy} verbraucht, über den festgelegten ${f.limit}`,
      usualAbove: (f) =>
        `hat am ${f.day} ${f.energy} verbraucht, mehr als ${f.factor} × die üblichen ${f.usual} an diesem Wochentag`,
      billAbove: (f) => `hat seit ${f.from} eine Rechnung von ${f.amount}, über den festgelegten ${f.limit}`,
      priceAbove: (f) => `zahlt ab ${f.at} ${f.price} je kWh, über den festgelegten ${f.limit}`,
      peakNear: (f) =>
        `hat im Intervall ab ${f.at} ${f.power} bezogen, über ${f.percent} % der bisherigen Monatsspitze (${f.peak})`,
      registerDecrease: (f) =>
        `Zählerstand ging am ${f.at} von ${f.from} auf ${f.to} zurück (Überlauf, Zählerwechsel oder Fehler)`,
    },
    chain: {
      cubeSilent: 'sein Cube schweigt auch',
      cubeReports: 'sein Cube sendet',
      accessPointSilent: 'sein Access Point schweigt auch',
      accessPointReports: 'sein Access Point sendet',
    },
    headline: {
      silent: 'keine Daten',
      dailyAbove: 'hoher Verbrauch',
      usualAbove: 'hoher Verbrauch',
      billAbove: 'Rechnung über dem Betrag',
      priceAbove: 'Preis über dem Betrag',
      peakNear: 'nahe der Monatsspitze',
      registerDecrease: 'Zählerstand gesunken',
    },
    cleared: 'Behoben',
    clearedAt: (at, sentence) => `Behoben am ${at}: ${sentence}`,
    began: (at) => `Begonnen am ${at}.`,
    since: (at, zone) =>
      `Seit ${at} (${zone}). Sie erhalten diese Nachricht, weil Sie in Check Meter E-Mails für diese Art von Alarm gewählt haben.`,
  },
  pt: {
    meter: (number, location) => `O contador ${number} em ${location}`,
    what: {
      silent: (f) =>
        `não envia nada há mais de ${f.hours} horas (${f.last ? `últimos dados ${f.last}` : 'ainda sem dados'})${f.chain.length > 0 ? `; ${f.chain.join(', ')}` : ''}`,
      dailyAbove: (f) => `consumiu ${f.energy} em ${f.day}, acima dos ${f.limit} definidos`,
      usualAbove: (f) =>
        `consumiu ${f.energy} em ${f.day}, mais de ${f.factor} × os ${f.usual} habituais nesse dia da semana`,
      billAbove: (f) => `tem uma fatura de ${f.amount} desde ${f.from}, acima dos ${f.limit} definidos`,
      priceAbove: (f) => `pagará ${f.price} por kWh a partir de ${f.at}, acima dos ${f.limit} definidos`,
      peakNear: (f) =>
        `consumiu ${f.power} no intervalo a partir de ${f.at}, acima de ${f.percent} % da ponta do mês até agora (${f.peak})`,
      registerDecrease: (f) =>
        `viu o índice descer de ${f.from} para ${f.to} em ${f.at} (uma volta a zero, uma troca ou uma avaria)`,
    },
    chain: {
      cubeSilent: 'o seu Cube também está em silêncio',
      cubeReports: 'o seu Cube transmite',
      accessPointSilent: 'o seu ponto de acesso também está em silêncio',
      accessPointReports: 'o seu ponto de acesso transmite',
    },
    headline: {
      silent: 'sem dados',
      dailyAbove: 'consumo elevado',
      usualAbove: 'consumo elevado',
      billAbove: 'fatura acima do montante',
      priceAbove: 'preço acima do montante',
      peakNear: 'perto da ponta do mês',
      registerDecrease: 'índice desceu',
    },
    cleared: 'Resolvido',
    clearedAt: (at, sentence) => `Resolvido em ${at}: ${sentence}`,
    began: (at) => `Começou em ${at}.`,
    since: (at, zone) =>
      `Desde ${at} (${zone}). Recebe esta mensagem porque escolheu e-mails para este tipo de alerta no Check Meter.`,
  },
};

const local = (at: Date | string, timeZone: string) =>
  isoInZone(new Date(at).getTime(), timeZone).replace('T', ' ');

function fill(alert: AlertWords, language: Language, words: Catalog): Filled {
  const { detail, timeZone } = alert;
  const number = (value: number | null | undefined, digits = 3) =>
    value === null || value === undefined
      ? '?'
      : value.toLocaleString(language, { maximumFractionDigits: digits });
  const kwh = (value: number | null | undefined) =>
    value === null || value === undefined ? '?' : `${number(value)} kWh`;
  const money = (amount: number | null | undefined) =>
    amount === null || amount === undefined
      ? '?'
      : amount.toLocaleString(language, { style: 'currency', currency: detail.currency ?? 'EUR' });
  // A price per kWh keeps up to 4 decimals (0.1452 €), which a bill's 2 would round away.
  const price = (amount: number | null | undefined) =>
    amount === null || amount === undefined
      ? '?'
      : amount.toLocaleString(language, {
          style: 'currency',
          currency: detail.currency ?? 'EUR',
          maximumFractionDigits: 4,
        });
  const said = (silent: boolean | null | undefined, silentToo: string, reports: string) =>
    silent === true ? silentToo : silent === false ? reports : null;
  const chain = [
    said(detail.cubeSilent, words.chain.cubeSilent, words.chain.cubeReports),
    said(detail.accessPointSilent, words.chain.accessPointSilent, words.chain.accessPointReports),
  ].filter((part) => part !== null);
  const registerKind = alert.kind === 'registerDecrease';
  return {
    hours: number(alert.threshold),
    last: detail.lastSeenAt ? local(detail.lastSeenAt, timeZone) : null,
    chain,
    energy: kwh(detail.consumption),
    limit:
      alert.kind === 'billAbove'
        ? money(alert.threshold)
        : alert.kind === 'priceAbove'
          ? price(alert.threshold)
          : kwh(alert.threshold),
    price: price(detail.amount),
    day: detail.day ?? '?',
    factor: number(alert.threshold),
    usual: kwh(detail.usual),
    amount: money(detail.amount),
    from: registerKind ? number(detail.from, 6) : (detail.periodFrom ?? '?'),
    to: number(detail.to, 6),
    at: detail.at ? local(detail.at, timeZone) : '?',
    power: `${number(detail.power)} kW`,
    peak: `${number(detail.peak)} kW`,
    percent: number(alert.threshold),
  };
}

/** Subject and text of an alert's e-mail, in `language`. */
export function alertEmail(language: Language, alert: AlertWords): { subject: string; text: string } {
  const words = catalogs[language];
  const meter = words.meter(alert.meterNumber, alert.locationName);
  const sentence = `${meter} ${words.what[alert.kind](fill(alert, language, words))}.`;
  const started = local(alert.startedAt, alert.timeZone);
  if (alert.event === 'cleared')
    return {
      subject: `[Check Meter] ${words.cleared}: ${meter}`,
      text: `${words.clearedAt(alert.clearedAt ? local(alert.clearedAt, alert.timeZone) : '?', sentence)}\n\n${words.began(started)}\n`,
    };
  return {
    subject: `[Check Meter] ${meter}: ${words.headline[alert.kind]}`,
    text: `${sentence}\n\n${words.since(started, alert.timeZone)}\n`,
  };
}
