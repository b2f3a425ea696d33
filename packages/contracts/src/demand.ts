import { z } from 'zod';
import { demandPeakSchema, locationSummarySchema, meterIndParam } from './check.ts';
import { textParam } from './text.ts';

/**
 * The floor of a monthly peak in the rolling average a capacity tariff charges, in kW: the Flemish
 * capacity tariff's 2.5 kW (a month whose peak is lower counts as 2.5 kW).
 */
export const CAPACITY_FLOOR_KW = 2.5;

/** Months in the rolling average of monthly peaks. */
export const ROLLING_MONTHS = 12;

/** `GET /api/CheckMeter/GetMonthlyPeaks` query. */
export const monthlyPeaksQuerySchema = z.object({
  /** The location's public name, as the readings call takes it. */
  name: textParam('name', 200),
  /** One meter of the location; without it, the location: its main supply, else its meters summed per interval. */
  meterInd: meterIndParam.optional(),
  /** The last of the 12 months (`2026-11`, local months); without it, the location's current month. */
  Month: z
    .string({ message: 'Month must be a month written YYYY-MM.' })
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Month must be a month written YYYY-MM.')
    .refine((month) => {
      const year = Number(month.slice(0, 4));
      return year >= 1900 && year <= 2200;
    }, 'Month must be a month from 1900 to 2200.')
    .optional(),
});
/** Monthly peaks query. */
export type MonthlyPeaksQuery = z.infer<typeof monthlyPeaksQuerySchema>;

/** What a location's demand is measured on. */
export const demandBases = ['meter', 'mainSupply', 'allMeters'] as const;

/** One local month's peak demand. */
export const monthlyPeakSchema = z.object({
  /** `YYYY-MM`, a month of the location's calendar. */
  month: z.string(),
  /** The month's first instant and the next month's (ISO 8601 UTC). */
  from: z.string(),
  to: z.string(),
  /** `null`: no interval energy in the month. */
  peak: demandPeakSchema.nullable(),
});

/** `GetMonthlyPeaks` answer: 12 monthly peaks and their rolling average. */
export const monthlyPeaksSchema = z.object({
  location: locationSummarySchema,
  /** The meter asked for, `null` for the location. */
  meterInd: z.number().int().nullable(),
  /**
   * `meter`: one meter indicator's own intervals; `mainSupply`: the location's main supply
   * meter(s); `allMeters`: every meter of the location, summed interval by interval (a location's
   * peak is what its meters draw at once, never the sum of their own peaks).
   */
  basis: z.enum(demandBases),
  /** The physical meters whose intervals count. */
  meterNumbers: z.array(z.string()),
  /** The 12 local months ending with `Month`, oldest first. */
  months: z.array(monthlyPeakSchema),
  /**
   * The rolling 12-month average of monthly peaks, as a capacity tariff charges it: each month's
   * peak at least `floorKw`, averaged over the months that have a peak (`months` of 12).
   */
  rollingAverage: z.object({
    /** kW to the millionth; `null` when no month has a peak. */
    kW: z.number().nullable(),
    floorKw: z.number(),
    months: z.number().int(),
    /** Some month's peak is only a lower bound (data missing), so the average is too. */
    isAtLeast: z.boolean(),
  }),
});
/** Monthly peaks of a meter or a location. */
export type MonthlyPeaks = z.infer<typeof monthlyPeaksSchema>;
