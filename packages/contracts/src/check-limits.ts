/*
 * The check API's plain constants: granularities, limits, health and event kinds. They live apart
 * from the zod schemas (check.ts, which re-exports them) so that the browser's check page can read
 * them at start-up without evaluating a schema; its schemas load with the first answer.
 */

/** Granularities of a readings answer. `raw` is one point per stored reading; the others are calendar buckets in the location's time zone. */
export const granularities = ['raw', 'hour', 'day', 'week', 'month'] as const;
/** A readings granularity. */
export type Granularity = (typeof granularities)[number];

/** Longest range, in days, that may be asked for at `raw` (or `hour`) granularity; longer ranges need `day`, `week` or `month`. */
export const MAX_RAW_RANGE_DAYS = 400;
/** Longest range, in days, for any granularity (about 30 years). */
export const MAX_RANGE_DAYS = 11_000;
/** Most points one readings answer may carry across all its meters (raw data of a busy location is refused above it: ask for fewer meters, maxPoints or a coarser granularity). */
export const MAX_RESPONSE_POINTS = 400_000;
/** Bounds of the `maxPoints` downsampling parameter. */
export const MAX_POINTS_LIMIT = { min: 10, max: 100_000 } as const;

/** How a device is doing, from its last-seen time and status. */
export const deviceHealths = ['ok', 'late', 'silent', 'unknown', 'removed'] as const;
/** A device health. */
export type DeviceHealth = (typeof deviceHealths)[number];

/** Something in the data a person should know about. */
export const readingEventTypes = [
  'rollover',
  'meterExchange',
  'estimated',
  'substituted',
  'corrected',
  'registerDecrease',
] as const;

/**
 * What a meter measures, each with readings of its own: `import` is energy delivered to the
 * customer (consumption), `export` energy the customer feeds into the grid (a solar roof).
 * Net = import − export.
 */
export const channels = ['import', 'export'] as const;
/** A meter channel. */
export type Channel = (typeof channels)[number];

/** How a value came about: read from the meter, estimated, or substituted (a value put in its place by the utility's validation). */
export const readingQualities = ['actual', 'estimated', 'substituted'] as const;
/** A reading quality. */
export type ReadingQuality = (typeof readingQualities)[number];

/**
 * A reading is late, not missing, until this many nominal intervals after it was due: a meter or
 * its Cube sends each reading some time after the interval it closes. Missing counts and gaps
 * start after it; the check page says "late: not received yet" meanwhile.
 */
export const LATE_GRACE_INTERVALS = 1;
