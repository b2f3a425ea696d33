import { z } from 'zod';
import { deviceStatuses } from './enums.ts';
import { textParam } from './text.ts';
import {
  channels,
  deviceHealths,
  granularities,
  MAX_POINTS_LIMIT,
  readingEventTypes,
  readingQualities,
} from './check-limits.ts';

export {
  channels,
  granularities,
  MAX_RANGE_DAYS,
  MAX_RAW_RANGE_DAYS,
  MAX_RESPONSE_POINTS,
  readingEventTypes,
} from './check-limits.ts';
export type { Channel, DeviceHealth, Granularity, ReadingQuality } from './check-limits.ts';

/** A location as the API shows it. */
export const locationSummarySchema = z.object({
  id: z.number().int(),
  publicName: z.string(),
  address: z.string(),
  /** IANA time zone; every day, week and month of this location is computed in it. */
  timeZone: z.string(),
  /** Day of the month a bill starts (1–28); `null` for calendar months. */
  billingDay: z.number().int().nullable(),
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
  /** What people call the meter ("Apt C-101", "HVAC"), set by an administrator; '' when unnamed. */
  label: z.string(),
  /** The meter measures the location's whole supply; the location's other meters are sub-meters behind it (their sum against it leaves the unaccounted rest). */
  mainSupply: z.boolean(),
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
  /** What the meter measures, import first. */
  channels: z.array(z.enum(channels)),
  /** Last stored register reading of the import channel: `value` as the meter shows it (before the multiplier). */
  lastReading: z.object({ at: z.string(), value: z.number() }).nullable(),
  /** Data is complete (no missing interval) from the first reading up to this instant. */
  completeUpTo: z.string().nullable(),
});
/** Meter information. */
export type MeterInfo = z.infer<typeof meterInfoSchema>;

/** A meter's position at its location (`meterInd`, spec §7), as a query parameter. */
export const meterIndParam = z.coerce
  .number({ message: 'meterInd must be a positive whole number.' })
  .int('meterInd must be a positive whole number.')
  .positive('meterInd must be a positive whole number.')
  .max(9999, 'meterInd must be at most 9999.');

/** `GET /api/CheckMeter/GetElectricMeterInformationByLocationPublicName` query (spec §7). */
export const locationReadingsQuerySchema = z.object({
  name: textParam('name', 200),
  /** A date (`2026-03-01`, start of that local day) or an ISO 8601 instant with offset. */
  From: textParam('From', 40),
  /** A date (the whole local day is included) or an ISO 8601 instant with offset (exclusive). */
  To: textParam('To', 40),
  meterInd: meterIndParam.optional(),
  granularity: z
    .enum(granularities, { message: 'granularity must be one of raw, hour, day, week, month.' })
    .optional(),
  /** The channel `series` and `totals` are about (default `import`); a meter's other channel comes beside it. */
  channel: z.enum(channels, { message: 'channel must be import or export.' }).optional(),
  /**
   * The end of the period the range is the part so far of (a date: that local day included, or an
   * instant), at or after To: with it, a range still going gets a bill `projection` to that end
   * (this month so far → the month's last day). Without it, no projection: only the caller knows
   * whether a range is a calendar period or a rolling one.
   */
  ProjectTo: textParam('ProjectTo', 40).optional(),
  maxPoints: z.coerce
    .number({ message: 'maxPoints must be a whole number.' })
    .int('maxPoints must be a whole number.')
    .min(MAX_POINTS_LIMIT.min, `maxPoints must be at least ${MAX_POINTS_LIMIT.min}.`)
    .max(MAX_POINTS_LIMIT.max, `maxPoints must be at most ${MAX_POINTS_LIMIT.max}.`)
    .optional(),
});
/** Location readings query. */
export type LocationReadingsQuery = z.infer<typeof locationReadingsQuerySchema>;

/** A channel's columns of a series; energies and registers in the meter's unit (kWh), exact to the source's resolution (up to 10^-6). */
export const channelSeriesSchema = z.object({
  /** The register as the meter shows it (before the multiplier): at the point (raw) or at the bucket's end. */
  value: z.array(z.number().nullable()),
  /** Energy after the multiplier, `null` where it is unknown (a gap, a missing interval, the first reading). */
  consumption: z.array(z.number().nullable()),
  // The four counts are each left out of an answer where they are 0 at every point (most series:
  // a year of clean 15-minute data is 140,000 zeros); a reader takes an absent one as all zeros.
  /** Missing intervals inside each point (raw: 0, or the number missing just before it). */
  missing: z.array(z.number().int()).optional(),
  /** Number of estimated values inside each point. */
  estimated: z.array(z.number().int()).optional(),
  /** Number of substituted values inside each point. */
  substituted: z.array(z.number().int()).optional(),
  /** Number of values inside each point that replaced an earlier one (corrections; their history is kept). */
  corrected: z.array(z.number().int()).optional(),
  /**
   * When the location has a tariff: what each point's energy costs (import: the energy charge
   * before tax) or earns (export: the feed-in credit), in the bill's currency to the millionth;
   * `null` where the energy is unknown or no tariff was in force. Time-of-use prices follow the
   * location's clock.
   */
  cost: z.array(z.number().nullable()).optional(),
  /**
   * When the location has a carbon series (issue 36): the emissions of each point's energy in kg
   * CO2e (import), or those the export avoided (an estimate at the grid's intensity); `null` where
   * the energy or the intensity of part of it is unknown.
   */
  emissions: z.array(z.number().nullable()).optional(),
  /**
   * Demand in kW, from the meter's own intervals (energy ÷ the interval's length; two register
   * readings one interval apart count as an interval): raw, each interval point's average power
   * (`null` for a gap, a billing period or a first reading); buckets, the highest average power of
   * the intervals counted in the bucket (`null` without any). Left out when every point is `null`.
   */
  demand: z.array(z.number().nullable()).optional(),
  /** Buckets, beside `demand`: the start (epoch ms) of each bucket's peak interval, `null` without one. */
  demandAt: z.array(z.number().nullable()).optional(),
  /**
   * Buckets, beside `demand`: 1 where part of the bucket had no interval energy (missing records, a
   * gap between registers, a billing period), so its peak is at least `demand`; left out where 0
   * at every bucket.
   */
  demandAtLeast: z.array(z.number().int()).optional(),
});

/**
 * A time series in columns (the shape uPlot draws). `t`, each point's time, is epoch milliseconds:
 * for `raw` the end of each point's span (a register reading's instant, an interval's end), for
 * buckets the local bucket start. A bucket holds the energy of the intervals starting in it and of
 * the longer spans (a gap between two registers, a billing period) lying inside it; a span across
 * bucket edges is in no bucket (its energy is in `gaps` or `periods` and the totals), so it never
 * shows as a spike.
 */
export const seriesSchema = channelSeriesSchema.extend({
  /**
   * `t` written as runs of equal steps (series-columns.ts timesOf reads it): run k is `count[k]`
   * points, the first at `start[k]`, each `step[k]` ms after the one before. A year of 15-minute
   * readings is one run instead of 35,041 numbers; a year by day, a run between DST changes.
   */
  tRuns: z.object({
    start: z.array(z.number()),
    step: z.array(z.number()),
    count: z.array(z.number().int().positive()),
  }),
  /**
   * Raw only: where a point's span (from the reading before, or from an interval record's start)
   * does not start at the previous point's `t`: those points' `index` in the columns and the start
   * of their span, `null` for a meter's first reading. The first point is always listed; any other
   * point's span starts at the previous point's `t`, so a year of regular readings lists one point
   * instead of sending 35,040 starts.
   */
  spanStarts: z
    .object({
      index: z.array(z.number().int().nonnegative()),
      from: z.array(z.number().nullable()),
    })
    .optional(),
  /** Length of each bucket in hours (23 or 25 on DST days); absent for raw. */
  hours: z.array(z.number()).optional(),
  /** The meter's other channel on the same points (export beside import), when it has one. */
  other: channelSeriesSchema.optional(),
  /** Import minus export at each point, when the meter has both. */
  net: z.array(z.number().nullable()).optional(),
});
/** The count columns of a channel's series, each absent from an answer where it is 0 at every point. */
export const COUNT_COLUMNS = ['missing', 'estimated', 'substituted', 'corrected'] as const;
type WithCounts<T> = Omit<T, (typeof COUNT_COLUMNS)[number]> &
  Record<(typeof COUNT_COLUMNS)[number], number[]>;
/** A channel's columns as read (series-columns.ts withCounts): every count column there, zeros where the answer left it out. */
export type ChannelSeries = WithCounts<z.infer<typeof channelSeriesSchema>>;
/** A readings series as read (see ChannelSeries), with `t` itself: each point's time (see seriesSchema). */
export type Series = WithCounts<Omit<z.infer<typeof seriesSchema>, 'other' | 'tRuns'>> & {
  t: number[];
  other?: ChannelSeries;
};

/** Time without data. Energy used during it is known from the registers when two register readings bound it (and counted in the totals), unknown for missing interval records. */
export const gapSchema = z.object({
  channel: z.enum(channels),
  from: z.string(),
  to: z.string(),
  missingIntervals: z.number().int(),
  consumption: z.number().nullable(),
  /** With a tariff: what the gap's energy costs (spread evenly over its time for time-of-use prices); `null` when unknown. */
  cost: z.number().nullable().optional(),
  /**
   * Bucketed answers: the start (ISO 8601 UTC, a `series.t` instant) of the bucket the gap lies
   * inside, which counts it: its energy, when the registers give it, is in that bucket's
   * `consumption` and its missing intervals in its `missing`. `null` for raw answers and for a gap
   * across bucket edges, which no bucket holds: its energy is only in the totals (`gapConsumption`).
   */
  bucket: z.string().nullable(),
});
/** A gap. */
export type Gap = z.infer<typeof gapSchema>;

/** An interval record longer than one bucket (a billing period) that crosses bucket edges: its energy is known, its spread is not. */
export const periodSchema = z.object({
  channel: z.enum(channels),
  from: z.string(),
  to: z.string(),
  consumption: z.number(),
  /** With a tariff: what the period's energy costs (spread evenly over its time for time-of-use prices). */
  cost: z.number().nullable().optional(),
  quality: z.enum(readingQualities),
});
/** A period. */
export type Period = z.infer<typeof periodSchema>;

/** A readings event. */
export const readingEventSchema = z.object({
  type: z.enum(readingEventTypes),
  channel: z.enum(channels),
  at: z.string(),
  meterNumber: z.string(),
  /** An English sentence for API consumers; the web app words events from `type`. */
  detail: z.string(),
});
/** A readings event. */
export type ReadingEvent = z.infer<typeof readingEventSchema>;

/** A peak demand: the highest average power (energy ÷ length) of one of the meter's intervals. */
export const demandPeakSchema = z.object({
  /** kW, to the millionth. */
  kW: z.number(),
  /** The peak interval's start and end (ISO 8601 UTC). */
  from: z.string(),
  to: z.string(),
  /** The interval's start in the location's local time, with the offset in force (`2026-10-25T02:15:00+01:00`). */
  localFrom: z.string(),
  /**
   * Part of the span had no interval energy (missing records, a gap between registers whose spread
   * is unknown, a billing period): the true peak is at least `kW`.
   */
  isAtLeast: z.boolean(),
});
/** A peak demand. */
export type DemandPeak = z.infer<typeof demandPeakSchema>;

/** Totals of one channel over the asked range; energies in the meter's unit after the multiplier. */
export const channelTotalsSchema = z.object({
  /** Energy in the range: the sum of the interval records where the meter has them, else the register difference (rollovers and exchanges accounted for). */
  consumption: z.number().nullable(),
  registerStart: z.number().nullable(),
  registerEnd: z.number().nullable(),
  registerDifference: z.number().nullable(),
  /** Sum of the energies known interval by interval (and of billing periods). */
  intervalSum: z.number(),
  /** Energy used across gaps between register readings (known from the registers, not per interval). */
  gapConsumption: z.number(),
  /** How much of the energy comes from estimated or substituted values. */
  estimatedConsumption: z.number(),
  /** True when the register difference equals the energy the intervals and gaps between those registers hold, exactly. */
  agrees: z.boolean(),
  /** Register difference minus that energy (0 when they agree): how far register and intervals disagree. */
  disagreement: z.number(),
  peak: z.object({ consumption: z.number(), at: z.string() }).nullable(),
  /** The range's peak demand: the highest average power of one interval; `null` without any interval. */
  demand: demandPeakSchema.nullable(),
  /** Consumption per local day with data; null until a whole day has data. */
  averagePerDay: z.number().nullable(),
  /** Last instant this channel has data for in the range (null without any): a period still going is compared up to here. */
  dataEnd: z.string().nullable(),
  readings: z.number().int(),
  missingIntervals: z.number().int(),
});
/** Totals of one channel. */
export type ChannelTotals = z.infer<typeof channelTotalsSchema>;

/** Totals over the asked range: the answer's channel, and the other one and net when the meter has both. */
export const totalsSchema = channelTotalsSchema.extend({
  other: channelTotalsSchema.optional(),
  /** Import minus export over the range. */
  net: z.object({ consumption: z.number().nullable() }).optional(),
});
/** Readings totals. */
export type Totals = z.infer<typeof totalsSchema>;

/** Charges of a bill (or of its projection), in the currency, to the millionth: rounding is the reader's. */
const chargesSchema = z.object({
  /** Import energy at the tariff's prices (time-of-use windows on the location's clock). */
  energy: z.number(),
  /** Standing charges of the local days charged (a day in part: its share of the day's hours). */
  standingCharge: z.number(),
  /** The tariff's demand charge: per kW of each billing period's charged demand (docs/demand.md). */
  demandCharge: z.number(),
  /** The capacity charge: per kW-year of the rolling 12-month average of monthly peaks, per day. */
  capacityCharge: z.number(),
  /** Tax on energy, standing, demand and capacity charges. */
  tax: z.number(),
  /** Export credited at the feed-in price (subtracted from the total). */
  feedIn: z.number(),
  /** energy + standingCharge + demandCharge + capacityCharge + tax − feedIn. */
  total: z.number(),
});

/** The demand a bill's demand and capacity charges are taken from. */
export const billDemandSchema = z.object({
  /** The tariff's demand interval the peaks are averaged over. */
  intervalMinutes: z.number().int(),
  /** The billing period's peak (inside the on-peak window where the tariff has one); `null` without data. */
  peak: demandPeakSchema.nullable(),
  /** The demand charged: the peak, or the ratchet's floor when higher (kW); `null` without a demand charge. */
  chargedKw: z.number().nullable(),
  /** The ratchet: its % of the highest monthly peak of the 11 months before (kW); `null` without. */
  ratchetKw: z.number().nullable(),
  /** The rolling 12-month average of monthly peaks with the tariff's floor (kW); `null` without a capacity charge. */
  capacityKw: z.number().nullable(),
  /** Some month or interval counted had data missing: the demand is at least this. */
  isAtLeast: z.boolean(),
});
/** A bill's demand. */
export type BillDemand = z.infer<typeof billDemandSchema>;

/** What the range costs at the location's tariffs; `null` when the location has no tariff. */
export const billSchema = chargesSchema.extend({
  /** ISO 4217 code. */
  currency: z.string(),
  /** Of `energy`, the part priced from estimated or substituted values. */
  estimated: z.number(),
  /** Energy in the range before the first tariff version (not priced), in the meter's unit. */
  unpricedConsumption: z.number(),
  /** Local days charged a standing charge: up to now for a range still going. */
  standingDays: z.number(),
  /**
   * Asked with `ProjectTo`, for a range still going (it ends after now): the bill from the range's
   * start to `to` if the rest uses energy like the average day so far (`averagedDays` days of
   * data), standing charges and tax at the tariffs in force on those days. `null` when not asked,
   * for a finished range or before a whole day of data.
   */
  projection: chargesSchema
    .extend({
      averagedDays: z.number(),
      to: z.string(),
      /** The demand charge is at the peak so far, which may still rise before `to`. */
      peakMayRise: z.boolean(),
    })
    .nullable(),
  /** What the demand and capacity charges were taken from (the range's last billing period); `null` without them. */
  demand: billDemandSchema.nullable(),
});
/** A bill. */
export type Bill = z.infer<typeof billSchema>;

/** The readings of one meter indicator of a location over the range (several physical meters after an exchange). */
/**
 * Carbon of a meter indicator's range from its location's grid region (issue 36, docs/carbon.md):
 * energy in time without an intensity has unknown emissions, counted apart, never as zero.
 */
export const carbonSummarySchema = z.object({
  /** The carbon series' grid region. */
  region: z.string(),
  /** kg CO2e of the imported energy whose interval has an intensity. */
  emissions: z.number(),
  /** kWh imported in time without an intensity: their emissions are unknown. */
  unknownConsumption: z.number(),
  /**
   * How many of the meter's intervals (or register spans) hold that energy: each has energy in
   * time without an intensity, all or part of it.
   */
  unknownIntervals: z.number().int(),
  /** kWh imported in time with an intensity (the energy `emissions` are of). */
  knownConsumption: z.number(),
  /** g CO2e per kWh, weighted by the energy imported; `null` without energy of known intensity. */
  averageIntensity: z.number().nullable(),
  /**
   * kWh imported in the cleanest quarter of the range's intervals with an intensity, and in all of
   * them: `cleanestQuarterShare` is their ratio (and several meters' shares add up from these).
   */
  cleanestConsumption: z.number(),
  rangedConsumption: z.number(),
  /**
   * Share (0–1) of the energy imported in the cleanest quarter of the range's intervals with an
   * intensity (the ⌈n/4⌉ lowest); `null` when none or no energy in them.
   */
  cleanestQuarterShare: z.number().nullable(),
  /** An estimate: kg CO2e the exported energy avoided at the grid's intensity; `null` without export. */
  avoidedEstimate: z.number().nullable(),
  /** kWh exported in time without an intensity. */
  unknownExport: z.number(),
});
/** Carbon of a range. */
export type CarbonSummary = z.infer<typeof carbonSummarySchema>;

export const meterReadingsSchema = z.object({
  meterInd: z.number().int(),
  meter: meterInfoSchema,
  meterNumbers: z.array(z.string()),
  /** The channel of `series` and `totals`; `series.other` and `totals.other` are the meter's other channel. */
  channel: z.enum(channels),
  /** The channels the meter indicator has readings of in the range. */
  channels: z.array(z.enum(channels)),
  series: seriesSchema,
  totals: totalsSchema,
  /** Gaps of every channel. */
  gaps: z.array(gapSchema),
  /** Periods of every channel (bucketed answers only). */
  periods: z.array(periodSchema),
  /** Events of every channel. */
  events: z.array(readingEventSchema),
  downsampled: z.boolean(),
  /** What the range costs this meter indicator (each meter is its own supply); `null` without a tariff. */
  bill: billSchema.nullable(),
  /** With a carbon series assigned to the location: the range's emissions. */
  carbon: carbonSummarySchema.nullable().optional(),
});
/** Readings of one meter indicator, as read (see Series). */
export type MeterReadings = Omit<z.infer<typeof meterReadingsSchema>, 'series'> & { series: Series };

/** `GetElectricMeterInformationByLocationPublicName` answer. */
export const locationReadingsSchema = z.object({
  location: locationSummarySchema,
  /** The resolved range: `from` inclusive, `to` exclusive, ISO 8601 UTC. */
  from: z.string(),
  to: z.string(),
  granularity: z.enum(granularities),
  meters: z.array(meterReadingsSchema),
});
/** Location readings, as read (see Series). */
export type LocationReadings = Omit<z.infer<typeof locationReadingsSchema>, 'meters'> & {
  meters: MeterReadings[];
};

// ---- Corrections ----

/** Most corrections one answer lists (the count is always exact). */
export const MAX_CORRECTIONS = 500;

/** `GET /api/CheckMeter/GetReadingCorrections` query: a meter and a range, as the readings call takes them. */
export const readingCorrectionsQuerySchema = z.object({
  meterNumber: textParam('meterNumber', 64),
  /** A date (start of that local day) or an ISO 8601 instant with offset. */
  From: textParam('From', 40),
  /** A date (the whole local day is included) or an ISO 8601 instant with offset (exclusive). */
  To: textParam('To', 40),
  channel: z.enum(channels, { message: 'channel must be import or export.' }).optional(),
});
export type ReadingCorrectionsQuery = z.infer<typeof readingCorrectionsQuerySchema>;

const correctedValueSchema = z.object({
  /** The register (before the multiplier) or the interval's energy, in the meter's unit. */
  value: z.number(),
  quality: z.enum(readingQualities),
});

/** One value replaced by a later one: what was shown before, what is shown now, when and by what. */
export const readingCorrectionSchema = z.object({
  kind: z.enum(['register', 'interval']),
  /** The register's instant, or the interval's start (ISO 8601 UTC). */
  at: z.string(),
  /** The interval's end; null for a register. */
  end: z.string().nullable(),
  before: correctedValueSchema,
  after: correctedValueSchema,
  correctedAt: z.string(),
  /** What sent the new value: a device (ingest) or an import by an administrator. */
  source: z.enum(['device', 'import']),
  /** Who, for administrators only (the reason the import gave); absent for clients. */
  detail: z.string().optional(),
});
export type ReadingCorrection = z.infer<typeof readingCorrectionSchema>;

/** `GetReadingCorrections` answer, newest correction first. */
export const readingCorrectionsSchema = z.object({
  meterNumber: z.string(),
  channel: z.enum(channels),
  from: z.string(),
  to: z.string(),
  total: z.number().int(),
  corrections: z.array(readingCorrectionSchema),
});
export type ReadingCorrections = z.infer<typeof readingCorrectionsSchema>;
