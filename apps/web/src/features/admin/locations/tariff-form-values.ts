import {
  tariffBodySchema,
  tariffDays,
  type Tariff,
  type TariffBody,
  type TariffDay,
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
  windows: WindowValues[];
  /** Public holidays, one date per line (or separated by commas or spaces). */
  holidays: string;
}

export type TariffFormErrors = Partial<Record<keyof TariffFormValues, string>>;

const WEEKDAYS: TariffDay[] = ['mon', 'tue', 'wed', 'thu', 'fri'];

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
      windows: [],
      holidays: '',
    };
  return {
    effectiveFrom: today,
    currency: latest.currency,
    energyPrice: latest.energyPrice,
    standingChargePerDay: latest.standingChargePerDay,
    taxPercent: latest.taxPercent,
    feedInPrice: latest.feedInPrice ?? '',
    windows: latest.windows.map((window) => ({
      label: window.label,
      price: window.price,
      days: [...window.days],
      from: window.from,
      to: window.to,
      months: (window.months ?? []).map(String),
    })),
    holidays: latest.holidays.join('\n'),
  };
}

/** A decimal as typed: a comma works as the point, spaces are dropped. */
const decimal = (text: string) => text.trim().replace(/\s/g, '').replace(',', '.');

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
  'windows',
  'holidays',
] as const;

/** What is wrong, as i18n keys by field (the contract's checks). */
export function validateTariffForm(values: TariffFormValues): TariffFormErrors {
  const parsed = tariffBodySchema.safeParse(toTariffBody(values));
  const errors: TariffFormErrors = {};
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
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
