import { z } from 'zod';
import { optionalTextParam, textParam } from './text.ts';
import { tariffDays } from './tariff-days.ts';
import { civilFromDays, daysFromCivil } from './zoned-time.ts';

// Tariffs (issue 18): what a location's energy costs, version by version. A version applies from
// its local date (midnight in the location's zone) until the next one starts, so a new version
// never rewrites what an earlier one priced. Prices travel as decimal text and are stored exactly.

/** Most decimals a price, a standing charge or a tax rate may have. */
export const PRICE_DECIMALS = 6;
/** Prices and charges are below this (per kWh, per day). */
export const MAX_PRICE = 1000;
/** Most time-of-use windows one tariff version may have. */
export const MAX_TARIFF_WINDOWS = 48;
/** Most public holidays one tariff version may list. */
export const MAX_TARIFF_HOLIDAYS = 400;

const DECIMAL = /^\d{1,3}(\.\d{1,6})?$/;
const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;
const WALL_TIME = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** A price or charge as decimal text: `0.2456`, at most 6 decimals, below MAX_PRICE. */
export const decimalText = (param: string) =>
  z
    .string({ message: `${param} must be a decimal number written as text, such as "0.2456".` })
    .trim()
    .regex(
      DECIMAL,
      `${param} must be a decimal number such as "0.2456": digits, at most ${PRICE_DECIMALS} decimals, below ${MAX_PRICE}.`,
    );

/** A calendar date `YYYY-MM-DD` that exists. */
export const localDateText = (param: string) =>
  z
    .string({ message: `${param} must be a date such as 2026-01-01.` })
    .regex(LOCAL_DATE, `${param} must be a date such as 2026-01-01.`)
    .refine(isCalendarDate, `${param} must be a date that exists, from 1900 to 2200.`);

/** A wall-clock time `HH:MM` (`24:00` for the end of the day). */
const wallTime = (param: string) =>
  z
    .string({ message: `${param} must be a time such as 07:30.` })
    .regex(WALL_TIME, `${param} must be a time such as 07:30 (24:00 for midnight at the day's end).`);

/** Whole micro-units (millionths) of a decimal text accepted by `decimalText`. */
export function decimalMillionths(text: string): number {
  const [whole = '0', fraction = ''] = text.split('.');
  return Number(whole) * 1_000_000 + Number(fraction.padEnd(PRICE_DECIMALS, '0'));
}

/** A local time `HH:MM` as minutes after midnight (`24:00` is 1440). */
export function wallMinutes(text: string): number {
  const [hours = '0', minutes = '0'] = text.split(':');
  return Number(hours) * 60 + Number(minutes);
}

function isCalendarDate(text: string): boolean {
  if (!LOCAL_DATE.test(text)) return false;
  const [year = 0, month = 0, day = 0] = text.split('-').map(Number);
  if (year < 1900 || year > 2200) return false;
  const back = civilFromDays(daysFromCivil(year, month, day));
  return back.year === year && back.month === month && back.day === day;
}

/**
 * A time-of-use window: on its day types (and months, when given) from `from` to `to` on the
 * location's wall clock, energy costs `price` instead of the base price. `from` after `to` runs
 * over midnight (22:00–06:00 covers the night into the next day's morning on the same day types).
 */
export const tariffWindowSchema = z.object({
  label: optionalTextParam('label', 60),
  price: decimalText('price'),
  days: z
    .array(z.enum(tariffDays, { message: `days must be among ${tariffDays.join(', ')}.` }))
    .min(1, 'days must name at least one day type.')
    .max(tariffDays.length),
  from: wallTime('from'),
  to: wallTime('to'),
  /** Months (1–12) the window applies in; absent or empty for the whole year (seasons). */
  months: z
    .array(z.number().int().min(1, 'months are 1 to 12.').max(12, 'months are 1 to 12.'))
    .max(12)
    .optional(),
});
/** A time-of-use window. */
export type TariffWindow = z.infer<typeof tariffWindowSchema>;

const SIGNED_DECIMAL = /^-?\d{1,3}(\.\d{1,6})?$/;

/**
 * An energy price taken from a price series (issue 36, docs/dynamic-prices.md): each interval's
 * price is (series price + margin) × (1 + taxPercent / 100), per kWh, rounded once to the
 * millionth, half away from zero. An interval without a series price has no price (unpriced energy).
 */
export const seriesPriceSchema = z.object({
  seriesId: z
    .number({ message: 'seriesId must be the id of a price series.' })
    .int('seriesId must be the id of a price series.')
    .positive('seriesId must be the id of a price series.')
    .max(2_147_483_647, 'seriesId is too large.'),
  /** Added per kWh to the series price (negative: deducted, as suppliers do on export). */
  margin: z
    .string({ message: 'margin must be a decimal number written as text, such as "0.02".' })
    .trim()
    .regex(
      SIGNED_DECIMAL,
      'margin must be a decimal number such as "0.02" or "-0.01": at most 6 decimals, within ±1000.',
    )
    .default('0'),
  /** Percent added on series price plus margin (21 for 21 %). */
  taxPercent: decimalText('taxPercent').default('0'),
});
/** A price taken from a series. */
export type SeriesPrice = z.output<typeof seriesPriceSchema>;
/** Demand intervals a tariff may measure its peaks over, in minutes. */
export const DEMAND_INTERVALS = [15, 30, 60] as const;
/** The capacity tariff's floor when a version does not set one (Flanders: 2.5 kW). */
export const DEFAULT_CAPACITY_FLOOR = '2.5';

/**
 * Demand and capacity charges of a tariff version (issue 36; docs/demand.md has the rules):
 * `pricePerKw` per kW of each billing period's peak (only inside `window` when given: on-peak
 * demand), at least `ratchetPercent` % of the highest monthly peak of the 11 months before;
 * `capacityPricePerKwYear` per kW-year of the rolling 12-month average of monthly peaks, each at
 * least `capacityFloorKw`, charged per day. Peaks are the average power over `intervalMinutes`.
 */
export const tariffDemandSchema = z
  .object({
    intervalMinutes: z
      .number({ message: 'demand.intervalMinutes must be 15, 30 or 60.' })
      .refine(
        (minutes) => (DEMAND_INTERVALS as readonly number[]).includes(minutes),
        'demand.intervalMinutes must be 15, 30 or 60.',
      )
      .default(15),
    /** Per kW of the billing period's peak. */
    pricePerKw: decimalText('demand.pricePerKw').nullable().default(null),
    /** Where the peak is taken (on-peak demand); `null`: every hour. */
    window: z
      .object({
        days: tariffWindowSchema.shape.days,
        from: wallTime('demand.window.from'),
        to: wallTime('demand.window.to'),
        months: tariffWindowSchema.shape.months,
      })
      .nullable()
      .default(null),
    /** Charged demand is at least this % of the highest monthly peak of the 11 months before. */
    ratchetPercent: decimalText('demand.ratchetPercent')
      .refine((text) => Number(text) <= 100, 'demand.ratchetPercent must be at most 100.')
      .nullable()
      .default(null),
    /** Per kW-year of the rolling 12-month average of monthly peaks. */
    capacityPricePerKwYear: decimalText('demand.capacityPricePerKwYear').nullable().default(null),
    /** Each monthly peak counts at least this in the rolling average (kW). */
    capacityFloorKw: decimalText('demand.capacityFloorKw').default(DEFAULT_CAPACITY_FLOOR),
  })
  .superRefine((demand, context) => {
    const refuse = (path: string, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    if (demand.pricePerKw === null && demand.capacityPricePerKwYear === null)
      refuse(
        'pricePerKw',
        'demand needs a pricePerKw, a capacityPricePerKwYear or both (or leave demand out).',
      );
    if (demand.pricePerKw === null && demand.window !== null)
      refuse('window', 'demand.window is where a demand charge takes its peak: it needs a pricePerKw.');
    if (demand.pricePerKw === null && demand.ratchetPercent !== null)
      refuse('ratchetPercent', 'demand.ratchetPercent raises the charged demand: it needs a pricePerKw.');
  });
/** A tariff version's demand and capacity charges. */
export type TariffDemand = z.output<typeof tariffDemandSchema>;

/** `POST /api/admin/locations/:id/tariffs` body: a tariff version. */
export const tariffBodySchema = z
  .object({
    /** Local date the version applies from (midnight in the location's time zone). */
    effectiveFrom: localDateText('effectiveFrom'),
    /** ISO 4217 code; every version of a location has the same. */
    currency: z
      .string({ message: 'currency must be an ISO 4217 code such as EUR.' })
      .regex(/^[A-Z]{3}$/, 'currency must be an ISO 4217 code such as EUR.'),
    /** Price per kWh outside every window (the whole time for a flat tariff). */
    energyPrice: decimalText('energyPrice'),
    /** Time-of-use windows, none for a flat tariff. Windows of the same day type and month must not overlap. */
    windows: z
      .array(tariffWindowSchema)
      .max(MAX_TARIFF_WINDOWS, `windows: at most ${MAX_TARIFF_WINDOWS}.`)
      .default([]),
    /** Dates that count as day type `holiday` instead of their weekday. */
    holidays: z
      .array(localDateText('holidays'))
      .max(MAX_TARIFF_HOLIDAYS, `holidays: at most ${MAX_TARIFF_HOLIDAYS}.`)
      .default([]),
    /** Charged per local day, whatever the consumption. */
    standingChargePerDay: decimalText('standingChargePerDay'),
    /** Percent added on energy and standing charges (20 for 20 %). */
    taxPercent: decimalText('taxPercent'),
    /** Price paid per kWh exported, `null` when export is not paid. */
    feedInPrice: decimalText('feedInPrice').nullable().default(null),
    /** Import priced from a price series instead of energyPrice and the windows (dynamic prices). */
    importSeries: seriesPriceSchema.nullable().default(null),
    /** Export paid from a price series instead of feedInPrice. */
    exportSeries: seriesPriceSchema.nullable().default(null),
    /** Demand and capacity charges, `null` for none. */
    demand: tariffDemandSchema.nullable().default(null),
  })
  .superRefine((body, context) => {
    if (body.importSeries && body.windows.length > 0)
      context.addIssue({
        code: 'custom',
        path: ['windows'],
        message: 'windows: a version priced from a series (importSeries) has no time-of-use windows.',
      });
    const overlap = firstOverlap(body.windows);
    if (overlap) context.addIssue({ code: 'custom', path: ['windows'], message: overlap });
  });
/** A new tariff version. */
export type TariffBody = z.input<typeof tariffBodySchema>;
/** A tariff version as validated. */
export type TariffDraft = z.output<typeof tariffBodySchema>;

/** A tariff version as the API shows it. */
export const tariffSchema = z.object({
  id: z.number().int(),
  locationId: z.number().int(),
  effectiveFrom: z.string(),
  currency: z.string(),
  energyPrice: z.string(),
  windows: z.array(tariffWindowSchema),
  holidays: z.array(z.string()),
  standingChargePerDay: z.string(),
  taxPercent: z.string(),
  feedInPrice: z.string().nullable(),
  importSeries: seriesPriceSchema.nullable(),
  exportSeries: seriesPriceSchema.nullable(),
  demand: tariffDemandSchema.nullable(),
  createdAt: z.string(),
});
/** A tariff version. */
export type Tariff = z.infer<typeof tariffSchema>;

/** A location's tariff versions, oldest first. */
export const locationTariffsSchema = z.object({
  locationId: z.number().int(),
  /** The location's local date today: versions from then on are scheduled, earlier ones priced the past. */
  today: z.string(),
  items: z.array(tariffSchema),
});
/** A location's tariffs. */
export type LocationTariffs = z.infer<typeof locationTariffsSchema>;

/** `GET /api/CheckMeter/GetTariffs` query: a location's public name, as the readings call takes it. */
export const tariffsQuerySchema = z.object({ name: textParam('name', 200) });

/** `/api/admin/locations/:id/tariffs/:tariffId` path. */
export const tariffParamsSchema = z.object({
  id: z.coerce.number({ message: 'id must be a positive whole number.' }).int().positive().max(2_147_483_647),
  tariffId: z.coerce
    .number({ message: 'tariffId must be a positive whole number.' })
    .int('tariffId must be a positive whole number.')
    .positive('tariffId must be a positive whole number.')
    .max(2_147_483_647, 'tariffId is too large.'),
});

/** Minutes of the week ranges [start, end) a window covers on one day type, split at midnight. */
export function windowMinutes(window: Pick<TariffWindow, 'from' | 'to'>): [number, number][] {
  const from = wallMinutes(window.from);
  const to = wallMinutes(window.to);
  if (from === to) return [[0, 1440]];
  return from < to
    ? [[from, to]]
    : ([
        [from, 1440],
        [0, to],
      ].filter(([a, b]) => (b ?? 0) > (a ?? 0)) as [number, number][]);
}

/** The first pair of windows that price the same minute of the same day type and month, worded; undefined when none. */
function firstOverlap(windows: readonly TariffWindow[]): string | undefined {
  for (let i = 0; i < windows.length; i++)
    for (let j = i + 1; j < windows.length; j++) {
      const a = windows[i];
      const b = windows[j];
      if (!a || !b) continue;
      const sharesDay = a.days.some((day) => b.days.includes(day));
      const aMonths = a.months?.length ? a.months : null;
      const bMonths = b.months?.length ? b.months : null;
      const sharesMonth = !aMonths || !bMonths || aMonths.some((month) => bMonths.includes(month));
      if (!sharesDay || !sharesMonth) continue;
      const overlaps = windowMinutes(a).some(([a0, a1]) =>
        windowMinutes(b).some(([b0, b1]) => a0 < b1 && b0 < a1),
      );
      if (overlaps)
        return `window ${i + 1} and window ${j + 1} overlap on the same days: each minute has one price.`;
    }
  return undefined;
}
