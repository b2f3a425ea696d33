import { tariffDays, type TariffDay } from '@cm/contracts/tariff-days.ts';
import {
  DEFAULT_CAPACITY_FLOOR,
  tariffBodySchema,
  type Tariff,
  type TariffBody,
} from '@cm/contracts/tariffs.ts';

/** One time-of-use window as the form holds it. */
export interface WindowValues {
  label: string;
  price: string;
  days: TariffDay[];
  from: string;
  to: string;
  /** Months as text ('1' … '12'), none for the whole year. */
  months: string[];
}

/** The tariff version form's fields. */
export interface TariffFormValues {
  effectiveFrom: string;
  currency: string;
  energyPrice: string;
  standingChargePerDay: string;
  taxPercent: string;
  /** '' when export is not paid. */
  feedInPrice: string;
  /** The price series import is priced from (its id as text); '' for the energy price and windows. */
  importSeriesId: string;
  /** Per kWh on top of the series price, and the percent on both (a dynamic tariff only). */
  importMargin: string;
  importTaxPercent: string;
  /** The price series export is paid from ('' for the feed-in price), its margin and percent. */
  exportSeriesId: string;
  exportMargin: string;
  exportTaxPercent: string;
  windows: WindowValues[];
  /** Public holidays, one date per line (or separated by commas or spaces). */
  holidays: string;
  /** Demand charge per kW of the billing period's peak; '' for none. */
  demandPricePerKw: string;
  /** '15', '30' or '60'. */
  demandIntervalMinutes: string;
  /** On-peak window: '' and '' for every hour. */
  demandWindowFrom: string;
  demandWindowTo: string;
  demandWindowDays: TariffDay[];
  /** '' for no ratchet. */
  demandRatchetPercent: string;
  /** Capacity charge per kW-year of the rolling 12-month average; '' for none. */
  capacityPricePerKwYear: string;
  capacityFloorKw: string;
}

export type TariffFormErrors = Partial<Record<keyof TariffFormValues, string>>;

/** The form's demand fields of a version (none: empty, 15 minutes, the Flemish floor). */
function demandValues(demand: Tariff['demand'] | undefined) {
  return {
    demandPricePerKw: demand?.pricePerKw ?? '',
    demandIntervalMinutes: String(demand?.intervalMinutes ?? 15),
    demandWindowFrom: demand?.window?.from ?? '',
    demandWindowTo: demand?.window?.to ?? '',
    demandWindowDays: demand?.window ? [...demand.window.days] : [...WEEKDAYS],
    demandRatchetPercent: demand?.ratchetPercent ?? '',
    capacityPricePerKwYear: demand?.capacityPricePerKwYear ?? '',
    capacityFloorKw: demand?.capacityFloorKw ?? DEFAULT_CAPACITY_FLOOR,
  };
}

const WEEKDAYS: TariffDay[] = ['mon', 'tue', 'wed', 'thu', 'fri'];

/** The form's dynamic price fields of a version (none: the energy price and the feed-in price). */
function seriesValues(tariff: Pick<Tariff, 'importSeries' | 'exportSeries'> | undefined) {
  const { importSeries, exportSeries } = tariff ?? { importSeries: null, exportSeries: null };
  return {
    importSeriesId: importSeries ? String(importSeries.seriesId) : '',
    importMargin: importSeries?.margin ?? '0',
    importTaxPercent: importSeries?.taxPercent ?? '0',
    exportSeriesId: exportSeries ? String(exportSeries.seriesId) : '',
    exportMargin: exportSeries?.margin ?? '0',
    exportTaxPercent: exportSeries?.taxPercent ?? '0',
  };
}

/** A series price of the body from the form's fields ('' for none). */
function seriesPrice(seriesId: string, margin: string, taxPercent: string): TariffBody['importSeries'] {
  return seriesId === ''
    ? null
    : { seriesId: Number(seriesId), margin: decimal(margin), taxPercent: decimal(taxPercent) };
}

/** A new window: weekday evenings, the usual peak. */
export const newWindow = (): WindowValues => ({
  label: '',
  price: '',
  days: [...WEEKDAYS],
  from: '17:00',
  to: '20:00',
  months: [],
});

/**
 * The form for a new version: the latest version's prices to change from (its currency stays), from
 * today on; the first version of a location starts at the beginning of this year, so the history
 * already stored is priced.
 */
export function tariffFormFrom(latest: Tariff | undefined, today: string): TariffFormValues {
  if (!latest)
    return {
      effectiveFrom: `${today.slice(0, 4)}-01-01`,
      currency: 'EUR',
      energyPrice: '',
      standingChargePerDay: '0',
      taxPercent: '0',
      feedInPrice: '',
      ...seriesValues(undefined),
      windows: [],
      holidays: '',
      ...demandValues(undefined),
    };
  return {
    effectiveFrom: today,
    currency: latest.currency,
    energyPrice: latest.energyPrice,
    standingChargePerDay: latest.standingChargePerDay,
    taxPercent: latest.taxPercent,
    feedInPrice: latest.feedInPrice ?? '',
    // A new version keeps the latest one's series, as it keeps its prices.
    ...seriesValues(latest),
    windows: latest.windows.map((window) => ({
      label: window.label,
      price: window.price,
      days: [...window.days],
      from: window.from,
      to: window.to,
      months: (window.months ?? []).map(String),
    })),
    holidays: latest.holidays.join('\n'),
    ...demandValues(latest.demand),
  };
}

/** A decimal as typed: a comma works as the point, spaces are dropped. */
const decimal = (text: string) => text.trim().replace(/\s/g, '').replace(',', '.');

/** The demand part of the body: null when no demand setting is typed. */
function toDemand(values: TariffFormValues): TariffBody['demand'] {
  const pricePerKw = decimal(values.demandPricePerKw);
  const capacity = decimal(values.capacityPricePerKwYear);
  const ratchet = decimal(values.demandRatchetPercent);
  const from = values.demandWindowFrom.trim();
  const to = values.demandWindowTo.trim();
  // Any demand setting typed is sent, so that one missing its price is named, not dropped.
  if ([pricePerKw, capacity, ratchet, from, to].every((text) => text === '')) return null;
  return {
    intervalMinutes: Number(values.demandIntervalMinutes),
    pricePerKw: pricePerKw === '' ? null : pricePerKw,
    window:
      from === '' && to === ''
        ? null
        : { days: tariffDays.filter((day) => values.demandWindowDays.includes(day)), from, to },
    ratchetPercent: ratchet === '' ? null : ratchet,
    capacityPricePerKwYear: capacity === '' ? null : capacity,
    capacityFloorKw: decimal(values.capacityFloorKw) || DEFAULT_CAPACITY_FLOOR,
  };
}

/** Form fields of the demand settings, by the contract's names. */
const DEMAND_FIELDS: Record<string, keyof TariffFormValues> = {
  intervalMinutes: 'demandIntervalMinutes',
  pricePerKw: 'demandPricePerKw',
  window: 'demandWindowFrom',
  ratchetPercent: 'demandRatchetPercent',
  capacityPricePerKwYear: 'capacityPricePerKwYear',
  capacityFloorKw: 'capacityFloorKw',
};

/** The request body from the form. */
export function toTariffBody(values: TariffFormValues): TariffBody {
  const feedIn = decimal(values.feedInPrice);
  return {
    effectiveFrom: values.effectiveFrom.trim(),
    currency: values.currency.trim().toUpperCase(),
    energyPrice: decimal(values.energyPrice),
    standingChargePerDay: decimal(values.standingChargePerDay),
    taxPercent: decimal(values.taxPercent),
    feedInPrice: feedIn === '' ? null : feedIn,
    importSeries: seriesPrice(values.importSeriesId, values.importMargin, values.importTaxPercent),
    exportSeries: seriesPrice(values.exportSeriesId, values.exportMargin, values.exportTaxPercent),
    windows: values.windows.map((window) => ({
      label: window.label.trim(),
      price: decimal(window.price),
      days: tariffDays.filter((day) => window.days.includes(day)),
      from: window.from.trim(),
      to: window.to.trim(),
      ...(window.months.length > 0 ? { months: window.months.map(Number).sort((a, b) => a - b) } : {}),
    })),
    holidays: values.holidays
      .split(/[\s,;]+/)
      .map((date) => date.trim())
      .filter((date) => date !== ''),
    demand: toDemand(values),
  };
}

/** The form's fields, in order (a server refusal names one of them). */
export const TARIFF_FIELDS = [
  'effectiveFrom',
  'currency',
  'energyPrice',
  'standingChargePerDay',
  'taxPercent',
  'feedInPrice',
  'importSeriesId',
  'importMargin',
  'importTaxPercent',
  'exportSeriesId',
  'exportMargin',
  'exportTaxPercent',
  'windows',
  'holidays',
  'demandPricePerKw',
  'demandIntervalMinutes',
  'demandWindowFrom',
  'demandRatchetPercent',
  'capacityPricePerKwYear',
  'capacityFloorKw',
] as const;

/** What is wrong, as i18n keys by field (the contract's checks). */
export function validateTariffForm(values: TariffFormValues): TariffFormErrors {
  const parsed = tariffBodySchema.safeParse(toTariffBody(values));
  const errors: TariffFormErrors = {};
  if (parsed.success) return errors;
  // A dynamic version has no windows: said as such, not as an overlap.
  if (values.importSeriesId !== '' && values.windows.length > 0)
    errors.windows = 'admin.tariffs.form.invalid.windowsWithSeries';
  for (const issue of parsed.error.issues) {
    if (issue.path[0] === 'importSeries' || issue.path[0] === 'exportSeries') {
      const side = issue.path[0] === 'importSeries' ? 'import' : 'export';
      const part =
        issue.path[1] === 'margin' ? 'Margin' : issue.path[1] === 'taxPercent' ? 'TaxPercent' : 'SeriesId';
      // One message per part for both sides: the field it sits under says which side.
      errors[`${side}${part}`] ??= `admin.tariffs.form.invalid.import${part}`;
      continue;
    }
    if (issue.path[0] === 'demand') {
      const field = DEMAND_FIELDS[String(issue.path[1])] ?? 'demandPricePerKw';
      // The rules between settings: a demand or capacity price, and a window or ratchet needs a demand price.
      const needsPrice =
        issue.code === 'custom' &&
        (field !== 'demandRatchetPercent' || decimal(values.demandPricePerKw) === '');
      const needs = field === 'demandPricePerKw' ? 'demandNeedsPrice' : 'demandNeedsPricePerKw';
      errors[field] ??= `admin.tariffs.form.invalid.${needsPrice ? needs : field}`;
      continue;
    }
    const field = TARIFF_FIELDS.find((name) => name === issue.path[0]);
    if (!field || errors[field] !== undefined) continue;
    // A window's own field (a price, a time) or two windows pricing the same minute.
    if (field === 'windows')
      errors.windows =
        typeof issue.path[1] === 'number'
          ? 'admin.tariffs.form.invalid.windows'
          : 'admin.tariffs.form.invalid.overlap';
    else errors[field] = `admin.tariffs.form.invalid.${field}`;
  }
  return errors;
}
