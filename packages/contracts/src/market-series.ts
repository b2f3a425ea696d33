import { z } from 'zod';
import { localDateText } from './tariffs.ts';
import { textParam } from './text.ts';
import { isValidTimeZone } from './zoned-time.ts';

// Price and carbon series (issue 36): one value per interval of 5, 15, 30 or 60 minutes, for a
// market zone (prices) or a grid region (carbon intensity). Values travel as decimal text and are
// stored as integers: prices in millionths of the currency per the series' unit (kWh or MWh),
// intensities in milligrams CO2e per kWh. See docs/dynamic-prices.md and docs/carbon.md.

/** Interval lengths a series may have, in minutes. */
export const SERIES_INTERVALS = [5, 15, 30, 60] as const;
/** What a price is per. */
export const priceUnits = ['kWh', 'MWh'] as const;
/** Most decimals a series value may have. */
export const SERIES_DECIMALS = 6;
/** Prices are within ±this (per kWh or per MWh: a market's cap is a few thousand per MWh). */
export const MAX_SERIES_PRICE = 100_000;
/** Intensities are below this (gCO2e/kWh). */
export const MAX_INTENSITY = 10_000;
/** Values one day may have: 25 hours of 5-minute intervals. */
export const MAX_DAY_VALUES = 300;

const interval = z
  .number({ message: 'intervalMinutes must be 5, 15, 30 or 60.' })
  .refine((value) => (SERIES_INTERVALS as readonly number[]).includes(value), {
    message: 'intervalMinutes must be 5, 15, 30 or 60.',
  });
// The same rule for a query parameter (a new series with its file): the URL's text as a number.
const intervalInUrl = z.coerce
  .number({ message: 'intervalMinutes must be 5, 15, 30 or 60.' })
  .refine((value) => (SERIES_INTERVALS as readonly number[]).includes(value), {
    message: 'intervalMinutes must be 5, 15, 30 or 60.',
  });
const timeZone = textParam('timeZone', 64).refine(isValidTimeZone, {
  message: 'timeZone must be an IANA time zone such as Europe/Amsterdam.',
});

/** `POST /api/admin/price-series` body. */
export const priceSeriesBodySchema = z.object({
  name: textParam('name', 100),
  intervalMinutes: interval,
  unit: z.enum(priceUnits, { message: 'unit must be kWh or MWh.' }),
  currency: z
    .string({ message: 'currency must be an ISO 4217 code such as EUR.' })
    .regex(/^[A-Z]{3}$/, 'currency must be an ISO 4217 code such as EUR.'),
  /** The market zone's clock: local times in files and the days of `PUT …/days/:date` are on it. */
  timeZone,
  /** The market zone (a bidding zone such as NL or DE-LU), a label. */
  zone: textParam('zone', 60),
});
/** A new price series, validated. */
export type PriceSeriesDraft = z.output<typeof priceSeriesBodySchema>;

/** `POST /api/admin/carbon-series` body. */
export const carbonSeriesBodySchema = z.object({
  name: textParam('name', 100),
  intervalMinutes: interval,
  timeZone,
  /** The grid region (such as NL, DE or GB-London), a label. */
  region: textParam('region', 60),
});
/** A new carbon series, validated. */
export type CarbonSeriesDraft = z.output<typeof carbonSeriesBodySchema>;

/**
 * `POST /api/admin/price-series/import` query: a new price series, created only when its file
 * (the body, text/csv) is good.
 */
export const priceSeriesImportQuerySchema = priceSeriesBodySchema.extend({ intervalMinutes: intervalInUrl });

/** `POST /api/admin/carbon-series/import` query: a new carbon series, created only when its file is good. */
export const carbonSeriesImportQuerySchema = carbonSeriesBodySchema.extend({
  intervalMinutes: intervalInUrl,
});

/** Which intervals a series has values for. */
export const coverageSchema = z.object({
  /** Start of the first interval with a value; `null` for an empty series. */
  first: z.string().nullable(),
  /** End of the last interval with a value. */
  last: z.string().nullable(),
  /** Intervals with a value. */
  count: z.number().int(),
  /** Intervals between first and last without one. */
  missing: z.number().int(),
});

/** A price series as the API shows it. */
export const priceSeriesSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  intervalMinutes: z.number().int(),
  unit: z.enum(priceUnits),
  currency: z.string(),
  timeZone: z.string(),
  zone: z.string(),
  createdAt: z.string(),
  coverage: coverageSchema,
});
/** A price series. */
export type PriceSeries = z.infer<typeof priceSeriesSchema>;

/** A carbon series as the API shows it. */
export const carbonSeriesSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  intervalMinutes: z.number().int(),
  timeZone: z.string(),
  region: z.string(),
  createdAt: z.string(),
  coverage: coverageSchema,
});
/** A carbon series. */
export type CarbonSeries = z.infer<typeof carbonSeriesSchema>;

/** `/api/…/price-series/:id/days/:date` path (and carbon's): a local date on the series' clock. */
export const seriesDayParamsSchema = z.object({
  id: z.coerce
    .number({ message: 'id must be a positive whole number.' })
    .int('id must be a positive whole number.')
    .positive('id must be a positive whole number.')
    .max(2_147_483_647, 'id is too large.'),
  date: localDateText('date'),
});

const dayValues = (what: string) =>
  z
    .array(
      z
        .string({ message: `values: each ${what} is decimal text such as "85.37", or null when unknown.` })
        .trim()
        .nullable(),
    )
    .min(1, 'values: at least one.')
    .max(MAX_DAY_VALUES, `values: at most ${MAX_DAY_VALUES}.`);

/**
 * `PUT …/days/:date` body: the values of every interval of that local day in order, `null` where
 * unknown (46, 48 or 50 half hours on a DST change day). Replaces what the day had.
 */
export const seriesDayBodySchema = z.object({ values: dayValues('value') });

/** A day of a series: its intervals from local midnight, values as decimal text or `null`. */
export const seriesDaySchema = z.object({
  seriesId: z.number().int(),
  date: z.string(),
  /** Instant of the day's first interval. */
  start: z.string(),
  intervalMinutes: z.number().int(),
  values: z.array(z.string().nullable()),
});
/** A day of a series. */
export type SeriesDay = z.infer<typeof seriesDaySchema>;

/** What an upload (CSV) or a day stored. */
export const seriesStoredSchema = z.object({
  stored: z.number().int(),
  first: z.string().nullable(),
  last: z.string().nullable(),
});
/** What was stored. */
export type SeriesStored = z.infer<typeof seriesStoredSchema>;

/** `PUT /api/admin/locations/:id/carbon-series` body: the location's grid region's series, or none. */
export const locationCarbonBodySchema = z.object({
  seriesId: z.number().int().positive().max(2_147_483_647).nullable(),
});

/** `GET /api/CheckMeter/GetCleanestHours` query: a location's public name and a local date (default: tomorrow there). */
export const cleanestHoursQuerySchema = z.object({
  name: textParam('name', 200),
  date: localDateText('date').optional(),
});

/**
 * A local day's carbon intensity at a location's grid region, interval by interval, and which
 * intervals are its cleanest quarter (the ⌈n/4⌉ lowest of the n with an intensity): for tomorrow,
 * a forecast where the series has one.
 */
export const cleanestHoursSchema = z.object({
  region: z.string(),
  date: z.string(),
  intervalMinutes: z.number().int(),
  /** Each interval's start, epoch ms. */
  t: z.array(z.number()),
  /** g CO2e/kWh, `null` where unknown. */
  intensity: z.array(z.number().nullable()),
  /** 1 for an interval of the cleanest quarter. */
  cleanest: z.array(z.number().int()),
});
/** The cleanest hours of a day. */
export type CleanestHours = z.infer<typeof cleanestHoursSchema>;
