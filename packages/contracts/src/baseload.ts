import { z } from 'zod';
import { textParam } from './text.ts';

// A meter's always-on power and night/day split (issue 34). The rules (apps/server/src/modules/
// check/baseload.ts): night is 00:00–06:00 on the location's clock; the baseload is the median,
// over the 14 nights before the range's end, of each night's lowest whole-hour mean power; the
// night share is the range's energy in intervals starting at night over all its known energy.

/** `GET /api/CheckMeter/GetBaseload` query. */
export const baseloadQuerySchema = z.object({
  meterNumber: textParam('meterNumber', 64),
  /** A date (start of that local day) or an ISO 8601 instant with offset. */
  From: textParam('From', 40),
  /** A date (the whole local day is included) or an ISO 8601 instant with offset (exclusive). */
  To: textParam('To', 40),
});
export type BaseloadQuery = z.infer<typeof baseloadQuerySchema>;

const baseloadValueSchema = z.object({
  /** kW, the median nightly low; null when no night had a whole hour of data. */
  kw: z.number().nullable(),
  /** Nights that had a whole hour to measure (of 14). */
  nights: z.number().int(),
  /** The first night's start and the last night's end (ISO 8601 UTC). */
  from: z.string(),
  to: z.string(),
});

const nightSplitSchema = z.object({
  /** [from, to) ISO 8601 UTC. */
  from: z.string(),
  to: z.string(),
  /** kWh in intervals starting 00:00–06:00 local, and in all intervals of known energy. */
  nightEnergy: z.number(),
  energy: z.number(),
  /** nightEnergy ÷ energy, 0–1; null without energy. */
  share: z.number().nullable(),
});

/** `GET /api/CheckMeter/GetBaseload` answer. */
export const baseloadSchema = z.object({
  meterNumber: z.string(),
  timeZone: z.string(),
  /** The 14 nights before the range's end, and the 14 before those. */
  baseload: baseloadValueSchema,
  previousBaseload: baseloadValueSchema,
  /** The range, and the same number of local days just before it. */
  night: nightSplitSchema,
  previousNight: nightSplitSchema,
});
export type Baseload = z.infer<typeof baseloadSchema>;
