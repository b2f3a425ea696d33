import { z } from 'zod';
import { channels } from './check-limits.ts';

// Registers and interval records of one meter and channel, compared (issue 32): in an import's
// preview and report, and for a meter and range.

/** Between two register reads: what the register counted against the summed intervals within. */
export const reconciliationPeriodSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** The local date when the period is exactly one local day (midnight to midnight), else null. */
  date: z.string().nullable(),
  /** kWh the register advanced (after the multiplier); null: it fell, energy unknown. */
  registerKwh: z.number().nullable(),
  /** kWh of the interval records lying within the period, and the minutes they cover. */
  intervalKwh: z.number(),
  intervalMinutes: z.number().int(),
  /** registerKwh − intervalKwh: what the intervals do not explain (missing intervals, a wrong value…). */
  restKwh: z.number().nullable(),
});

/**
 * Where registers and interval records of one meter and channel overlap: per period between
 * consecutive register reads (a day, for daily reads) and over the whole range.
 */
export const reconciliationSchema = z.object({
  meterNumber: z.string(),
  channel: z.enum(channels),
  periods: z.array(reconciliationPeriodSchema),
  /** Periods left out of `periods` (at most 400 listed). */
  morePeriods: z.number().int(),
  total: reconciliationPeriodSchema,
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;
