import { z } from 'zod';
import { pageOf, pageQuerySchema } from './admin.ts';
import { textParam } from './text.ts';

// "Who read my data" (issue 37): every read of a meter's data by someone other than its own
// customer on the check page, kept three years, shown to the customer and to administrators.

/** How long an entry is kept (then the hourly housekeeping deletes it). */
export const ACCESS_LOG_KEPT_YEARS = 3;

/**
 * How the data was read: an administrator opening the meter, an API key that is not the web app's,
 * an alert webhook delivered, a file export or Download My Data, an app through a customer's grant.
 */
export const accessChannels = ['admin', 'api-key', 'webhook', 'export', 'app'] as const;
export type AccessChannel = (typeof accessChannels)[number];

/** What was read: interval readings, registers, cost (bills, prices), the meter's details, an alert about it. */
export const accessDataKinds = ['intervals', 'registers', 'cost', 'details', 'alerts'] as const;
export type AccessDataKind = (typeof accessDataKinds)[number];

/** `GET /api/CheckMeter/WhoReadMyData` query: one of the caller's meters (any for an administrator). */
export const accessLogQuerySchema = pageQuerySchema.extend({
  meterNumber: textParam('meterNumber', 64),
});
export type AccessLogQuery = z.infer<typeof accessLogQuerySchema>;

/** `GET /api/CheckMeter/WhoReadMyData.csv` query: the meter's whole log. */
export const accessLogCsvQuerySchema = z.object({ meterNumber: textParam('meterNumber', 64) });

/** One read of the meter's data. */
export const accessLogEntrySchema = z.object({
  id: z.number().int(),
  /** When (ISO 8601, UTC). */
  at: z.string(),
  channel: z.enum(accessChannels),
  /** Who read: the person's, API key's, webhook's or app's name as it was then. */
  by: z.string(),
  data: z.array(z.enum(accessDataKinds)),
  /** The range of the data read (ISO 8601, UTC; `to` excluded), or null for no range (details). */
  from: z.string().nullable(),
  to: z.string().nullable(),
  /** The call or event that read it (`GetMeterInfo`, `DownloadMyData`, `alert.fired`, …). */
  what: z.string(),
});
export type AccessLogEntry = z.infer<typeof accessLogEntrySchema>;

/** `GET /api/CheckMeter/WhoReadMyData` answer, newest first. */
export const accessLogSchema = pageOf(accessLogEntrySchema).extend({ meterNumber: z.string() });
export type AccessLog = z.infer<typeof accessLogSchema>;

/** The CSV's columns, one row per read. */
export const ACCESS_LOG_CSV_HEADER = 'at,channel,by,data,from,to,what';
