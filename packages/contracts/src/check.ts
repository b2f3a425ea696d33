import { z } from 'zod';
import { deviceStatuses } from './enums.ts';
import { textParam } from './text.ts';
import { deviceHealths, granularities, MAX_POINTS_LIMIT, readingEventTypes } from './check-limits.ts';

export {
  deviceHealths,
  granularities,
  MAX_POINTS_LIMIT,
  MAX_RANGE_DAYS,
  MAX_RAW_RANGE_DAYS,
  MAX_RESPONSE_POINTS,
  readingEventTypes,
} from './check-limits.ts';
export type { DeviceHealth, Granularity } from './check-limits.ts';

/** A location as the API shows it. */
export const locationSummarySchema = z.object({
  id: z.number().int(),
  publicName: z.string(),
  address: z.string(),
  /** IANA time zone; every day, week and month of this location is computed in it. */
  timeZone: z.string(),
});
/** A location summary. */
export type LocationSummary = z.infer<typeof locationSummarySchema>;

/** An AccessPoint or Cube in a meter's chain. */
export const chainDeviceSchema = z.object({
  id: z.number().int(),
  serial: z.string(),
  type: z.number().int(),
  status: z.enum(deviceStatuses),
  priority: z.number().int(),
  priorityLabel: z.string(),
  lastSeenAt: z.string().nullable(),
  health: z.enum(deviceHealths),
});
/** A device of a meter's chain. */
export type ChainDevice = z.infer<typeof chainDeviceSchema>;

/** `GET /api/CheckMeter/GetMeterInfo` query (spec §7). */
export const meterInfoQuerySchema = z.object({
  meterNumber: textParam('meterNumber', 64),
});

/** Everything a person needs to know about one meter. Instants are ISO 8601 UTC strings. */
export const meterInfoSchema = z.object({
  meterNumber: z.string(),
  deviceId: z.number().int(),
  type: z.number().int(),
  meterInd: z.number().int(),
  unit: z.string(),
  /** CT ratio: consumption = register difference × multiplier. */
  multiplier: z.number().int(),
  registerDigits: z.number().int(),
  intervalMinutes: z.number().int(),
  status: z.enum(deviceStatuses),
  priority: z.number().int(),
  priorityLabel: z.string(),
  installedAt: z.string().nullable(),
  removedAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  health: z.enum(deviceHealths),
  location: locationSummarySchema,
  chain: z.object({ cube: chainDeviceSchema.nullable(), accessPoint: chainDeviceSchema.nullable() }),
  /** Last stored reading: `value` is the register as the meter shows it (before the multiplier). */
  lastReading: z.object({ at: z.string(), value: z.number() }).nullable(),
  /** Data is complete (no missing interval) from the first reading up to this instant. */
  completeUpTo: z.string().nullable(),
});
/** Meter information. */
export type MeterInfo = z.infer<typeof meterInfoSchema>;

/** `GET /api/CheckMeter/GetElectricMeterInformationByLocationPublicName` query (spec §7). */
export const locationReadingsQuerySchema = z.object({
  name: textParam('name', 200),
  /** A date (`2026-03-01`, start of that local day) or an ISO 8601 instant with offset. */
  From: textParam('From', 40),
  /** A date (the whole local day is included) or an ISO 8601 instant with offset (exclusive). */
  To: textParam('To', 40),
  meterInd: z.coerce
    .number({ message: 'meterInd must be a positive whole number.' })
    .int('meterInd must be a positive whole number.')
    .positive('meterInd must be a positive whole number.')
    .max(9999, 'meterInd must be at most 9999.')
    .optional(),
  granularity: z
    .enum(granularities, { message: 'granularity must be one of raw, hour, day, week, month.' })
    .optional(),
  maxPoints: z.coerce
    .number({ message: 'maxPoints must be a whole number.' })
    .int('maxPoints must be a whole number.')
    .min(MAX_POINTS_LIMIT.min, `maxPoints must be at least ${MAX_POINTS_LIMIT.min}.`)
    .max(MAX_POINTS_LIMIT.max, `maxPoints must be at most ${MAX_POINTS_LIMIT.max}.`)
    .optional(),
});
/** Location readings query. */
export type LocationReadingsQuery = z.infer<typeof locationReadingsQuerySchema>;

/**
 * A time series in columns (the shape uPlot draws). `t` is epoch milliseconds: the reading
 * instant for `raw`, the local bucket start otherwise. `value` is the register as the meter
 * shows it at the point (raw) or at the bucket's end (its last reading up to the end edge);
 * `consumption` is energy in the meter's unit after the multiplier (kWh, exact to the Wh), `null`
 * where it is unknown (a gap or the first reading). A bucket holds the energy of the intervals
 * starting in it and of the gaps lying inside it; a gap across bucket edges is in no bucket (its
 * energy, known from the registers, is in `gaps` and the totals), so it never shows as a spike.
 */
export const seriesSchema = z.object({
  t: z.array(z.number()),
  value: z.array(z.number().nullable()),
  consumption: z.array(z.number().nullable()),
  /** Length of each bucket in hours (23 or 25 on DST days); absent for raw. */
  hours: z.array(z.number()).optional(),
  /** Missing intervals inside each point (raw: 0, or the number missing just before it). */
  missing: z.array(z.number().int()),
  /** Number of estimated readings inside each point. */
  estimated: z.array(z.number().int()),
});
/** A readings series. */
export type Series = z.infer<typeof seriesSchema>;

/** A run of missing intervals between two readings. Energy used during it is known from the registers and counted in the totals. */
export const gapSchema = z.object({
  from: z.string(),
  to: z.string(),
  missingIntervals: z.number().int(),
  consumption: z.number().nullable(),
});
/** A gap. */
export type Gap = z.infer<typeof gapSchema>;

/** A readings event. */
export const readingEventSchema = z.object({
  type: z.enum(readingEventTypes),
  at: z.string(),
  meterNumber: z.string(),
  detail: z.string(),
});
/** A readings event. */
export type ReadingEvent = z.infer<typeof readingEventSchema>;

/** Totals over the asked range; energies in the meter's unit after the multiplier. */
export const totalsSchema = z.object({
  /** Energy used in the range: the register difference (rollovers and exchanges accounted for). */
  consumption: z.number().nullable(),
  registerStart: z.number().nullable(),
  registerEnd: z.number().nullable(),
  registerDifference: z.number().nullable(),
  /** Sum of the interval consumptions that are known one by one. */
  intervalSum: z.number(),
  /** Energy used across gaps (known from the registers, not per interval). */
  gapConsumption: z.number(),
  /** True when registerDifference = intervalSum + gapConsumption to the Wh. */
  agrees: z.boolean(),
  peak: z.object({ consumption: z.number(), at: z.string() }).nullable(),
  averagePerDay: z.number().nullable(),
  readings: z.number().int(),
  missingIntervals: z.number().int(),
});
/** Readings totals. */
export type Totals = z.infer<typeof totalsSchema>;

/** The readings of one meter indicator of a location over the range (several physical meters after an exchange). */
export const meterReadingsSchema = z.object({
  meterInd: z.number().int(),
  meter: meterInfoSchema,
  meterNumbers: z.array(z.string()),
  series: seriesSchema,
  totals: totalsSchema,
  gaps: z.array(gapSchema),
  events: z.array(readingEventSchema),
  downsampled: z.boolean(),
});
/** Readings of one meter indicator. */
export type MeterReadings = z.infer<typeof meterReadingsSchema>;

/** `GetElectricMeterInformationByLocationPublicName` answer. */
export const locationReadingsSchema = z.object({
  location: locationSummarySchema,
  /** The resolved range: `from` inclusive, `to` exclusive, ISO 8601 UTC. */
  from: z.string(),
  to: z.string(),
  granularity: z.enum(granularities),
  meters: z.array(meterReadingsSchema),
});
/** Location readings. */
export type LocationReadings = z.infer<typeof locationReadingsSchema>;
