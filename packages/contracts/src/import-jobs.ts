import { z } from 'zod';
import { importFormats, importReportSchema, rejectedLineSchema } from './admin.ts';
import { channels, readingQualities } from './check-limits.ts';
import { reconciliationSchema } from './reconciliation.ts';
import { delimitedMappingSchema, importPresets } from './import-mapping.ts';
import { textParam } from './text.ts';

export type { Reconciliation } from './reconciliation.ts';

// Imports as jobs (issue 16): a file is uploaded (spooled, its format detected), previewed with a
// mapping the administrator may change, then run in the background with progress, cancellable;
// its report is kept.

/** NEM12/NEM13: NMI (or NMI and suffix, `NMI/E1`) → meter number. */
export const nmiMapSchema = z
  .record(z.string().trim().min(1).max(20), z.string().trim().min(1).max(64))
  .refine((map) => Object.keys(map).length <= 1000, 'nmis holds at most 1,000 NMIs.');
export type NmiMap = z.infer<typeof nmiMapSchema>;

/** How to read the file: all optional, the file's content decides the rest. */
export const importSourceSchema = z.object({
  format: z
    .enum([...importFormats, 'auto'], {
      message: 'format must be auto, csv, espi, delimited, nem12, nem13 or blocks.',
    })
    .optional(),
  preset: z.enum(importPresets, { message: `preset must be one of ${importPresets.join(', ')}.` }).optional(),
  /** A delimited file's mapping (a preset's, changed; or one of a file of no known layout). */
  mapping: delimitedMappingSchema.optional(),
  /** The meter the readings belong to, for files that name none (ESPI, Octopus, Green Button CSV). */
  meterNumber: textParam('meterNumber', 64).optional(),
  /** IANA zone of local times (Check Meter CSV; a mapping has its own). */
  timeZone: textParam('timeZone', 64).optional(),
  /** ESPI: UsagePoint (its id or title) → meter number, for a file of several. */
  usagePoints: z.record(z.string().max(200), z.string().trim().min(1).max(64)).optional(),
  /** ESPI: what values of a ReadingType without accumulationBehaviour are (default delta). */
  accumulation: z.enum(['delta', 'cumulative']).optional(),
  /** NEM12/NEM13: NMI (or NMI and suffix, `NMI/E1`) → meter number; by default the meter named by the NMI. */
  nmis: nmiMapSchema.optional(),
});
export type ImportSource = z.infer<typeof importSourceSchema>;

/** `POST /api/admin/imports/jobs/:id/start` body: how to read the file, and how to store it. */
export const startImportBodySchema = importSourceSchema.extend({
  strict: z.boolean().default(false),
  corrections: z.boolean().default(false),
  /** Save the mapping (NEM12/NEM13: the nmis) under this name, for next month's file from the same source. */
  saveMappingAs: textParam('saveMappingAs', 100).optional(),
});
export type StartImportBody = z.input<typeof startImportBodySchema>;

/** What detection found in the file's first bytes. */
export const importDetectionSchema = z.object({
  format: z.enum(importFormats),
  preset: z.enum(importPresets).nullable(),
  reason: z.string(),
  mapping: delimitedMappingSchema.nullable(),
  needs: z.array(z.enum(['meterNumber', 'mapping'])),
});
/**
 * What detection found, as the server's detectors build it (the mapping as written, before its
 * defaults): the format, why, the preset or mapping to read it with, and the options it still
 * needs (a meter number for files that name none).
 */
export type ImportDetection = z.input<typeof importDetectionSchema>;

export const importJobStatuses = [
  'uploaded',
  'queued',
  'running',
  'done',
  'refused',
  'failed',
  'cancelled',
] as const;

/** Where a running import is: reading the file into the stage, then checking and storing it. */
export const importPhases = ['reading', 'checking', 'storing'] as const;
export type ImportPhase = (typeof importPhases)[number];

export const importJobSchema = z.object({
  id: z.string(),
  status: z.enum(importJobStatuses),
  fileName: z.string().nullable(),
  bytes: z.number().int(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  detection: importDetectionSchema,
  /** How it was asked to run (after start). */
  source: startImportBodySchema.nullable(),
  progress: z.object({
    phase: z.enum(importPhases).nullable(),
    rowsRead: z.number().int(),
    bytesRead: z.number().int(),
    /** 0–100, by the bytes read (the last few per cent are checking and storing). */
    percent: z.number(),
    /** Seconds left at the pace so far; null before there is a pace. */
    secondsLeft: z.number().int().nullable(),
  }),
  report: importReportSchema.nullable(),
  /** Why a job failed (not a refusal: those are in the report). */
  error: z.string().nullable(),
  /** A cancel was asked for: a job done all the same had stored everything before it came. */
  cancelRequested: z.boolean(),
});
export type ImportJob = z.infer<typeof importJobSchema>;

export const importJobListSchema = z.object({ items: z.array(importJobSchema) });

/** One reading as the preview read it. */
export const previewRowSchema = z.object({
  line: z.number().int(),
  meterNumber: z.string(),
  channel: z.enum(channels),
  kind: z.enum(['register', 'interval']),
  /** The register's instant or the interval's start (ISO 8601 UTC), and the interval's end. */
  start: z.string(),
  end: z.string().nullable(),
  /** kWh: the register before the multiplier, or the interval's energy. */
  value: z.number(),
  quality: z.enum(readingQualities),
});

/**
 * `POST /api/admin/imports/jobs/:id/meters` body: the meters the file names that are not on the
 * site, each to be created at a location, in one step (all or none). Read as the preview reads it.
 */
export const createImportMetersBodySchema = importSourceSchema.extend({
  meters: z
    .array(
      z.object({
        meterNumber: textParam('meterNumber', 64),
        locationId: z
          .number({ message: 'locationId must be a whole number of at least 1.' })
          .int('locationId must be a whole number of at least 1.')
          .min(1, 'locationId must be a whole number of at least 1.'),
      }),
    )
    .min(1, 'meters: name at least one meter.')
    .max(100, 'meters: at most 100 at once.'),
});
export type CreateImportMetersBody = z.infer<typeof createImportMetersBodySchema>;

/** The meters created from an import's file: where, since when (the local midnight of its first reading), and their interval. */
export const createdImportMetersSchema = z.object({
  items: z.array(
    z.object({
      meterNumber: z.string(),
      locationId: z.number().int(),
      meterInd: z.number().int(),
      installedAt: z.string(),
      intervalMinutes: z.number().int(),
      /** Digits of the register's whole part: enough for the file's largest register, 6 at least. */
      registerDigits: z.number().int(),
      channels: z.array(z.enum(channels)),
    }),
  ),
});
export type CreatedImportMeters = z.infer<typeof createdImportMetersSchema>;

/** What a NEM12/NEM13 file holds, per NMI and suffix (at most 100 of them, 400 days each). */
export const mdffSummarySchema = z.object({
  version: z.enum(['NEM12', 'NEM13']),
  /** "Times in AEST (UTC+10), no daylight saving." */
  timeNote: z.string(),
  series: z.array(
    z.object({
      nmi: z.string(),
      suffix: z.string(),
      /** E… import, B… export (NEM13: the direction indicator); null: not an energy channel, passed over. */
      channel: z.enum(channels).nullable(),
      unit: z.string(),
      /** NEM12: 5, 15 or 30; NEM13: null. */
      intervalMinutes: z.number().int().nullable(),
      /** The meter it goes to (the nmis option, the meterNumber, or the meter named by the NMI), and whether it exists. */
      meterNumber: z.string().nullable(),
      known: z.boolean(),
      /** Values (NEM12 intervals with a value, NEM13 register reads). */
      values: z.number().int(),
      from: z.string().nullable(),
      to: z.string().nullable(),
      /** Values per day (the file's dates, AEST). */
      days: z.array(z.object({ date: z.string(), values: z.number().int() })),
    }),
  ),
});
export type MdffSummary = z.infer<typeof mdffSummarySchema>;

/** `GET /api/admin/imports/reconciliation` query: a meter and whole local days (both included), as the export asks. */
export const reconciliationQuerySchema = z.object({
  meterNumber: textParam('meterNumber', 64),
  From: textParam('From', 40),
  To: textParam('To', 40),
});
export type ReconciliationQuery = z.infer<typeof reconciliationQuerySchema>;

/** A meter's stored registers against its stored intervals, per channel that has both. */
export const storedReconciliationSchema = z.object({
  meterNumber: z.string(),
  timeZone: z.string(),
  items: z.array(reconciliationSchema),
});
export type StoredReconciliation = z.infer<typeof storedReconciliationSchema>;

/** What a block-per-day file holds per direction, read before any meter is chosen. */
export const blocksSummarySchema = z.object({
  directions: z.array(
    z.object({
      /** The block title's direction: Delivered (import) or Received (export). */
      direction: z.string(),
      channel: z.enum(channels),
      unit: z.string(),
      /** Interval rows, and per local date (the rows' own dates) how many. */
      values: z.number().int(),
      days: z.array(z.object({ date: z.string(), values: z.number().int() })),
    }),
  ),
});
export type BlocksSummary = z.infer<typeof blocksSummarySchema>;

/** `POST /api/admin/imports/jobs/:id/preview` answer: the whole file read as it would be imported, nothing stored. */
export const importPreviewSchema = z.object({
  format: z.enum(importFormats),
  preset: z.enum(importPresets).nullable(),
  reason: z.string(),
  mapping: delimitedMappingSchema.nullable(),
  /** The file is refused as a whole (wrong columns, not well-formed XML, gas …); then nothing else is filled. */
  refusal: z.string().nullable(),
  rowsRead: z.number().int(),
  readings: z.number().int(),
  rejectedCount: z.number().int(),
  first: z.array(previewRowSchema),
  last: z.array(previewRowSchema),
  meters: z.array(
    z.object({
      meterNumber: z.string(),
      /** False: no such meter; its lines are refused. */
      known: z.boolean(),
      location: z.string().nullable(),
      timeZone: z.string().nullable(),
      channels: z.array(z.enum(channels)),
      readings: z.number().int(),
      /** Lines naming it (refused ones included). */
      lines: z.number().int(),
      from: z.string().nullable(),
      to: z.string().nullable(),
      /** The interval most readings have, in minutes (registers: the most common spacing). */
      intervalMinutes: z.number().int().nullable(),
    }),
  ),
  /** Readings per local day of the meter's location (at most 400 days listed). */
  days: z.array(z.object({ date: z.string(), import: z.number().int(), export: z.number().int() })),
  /** How the clock changes were read, and other choices made. */
  notes: z.array(z.string()),
  problems: z.array(rejectedLineSchema),
  /** NEM12/NEM13: what the file holds per NMI and suffix, whether or not a meter is chosen yet. */
  mdff: mdffSummarySchema.nullable().optional(),
  /** A block-per-day file: what it holds per direction, whether or not a meter is chosen yet. */
  blocks: blocksSummarySchema.optional(),
  /** Where the file has registers and interval records of one meter and channel: how they agree. */
  reconciliation: z.array(reconciliationSchema).optional(),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

/** A saved mapping: a delimited file's, or (NEM12/NEM13) which meter each NMI is. */
export const importMappingSchema = z.object({
  name: z.string(),
  /** Null for a saved NMI map. */
  mapping: delimitedMappingSchema.nullable(),
  nmis: nmiMapSchema.nullable().optional(),
  updatedAt: z.string(),
});
export const importMappingListSchema = z.object({ items: z.array(importMappingSchema) });
export const saveMappingBodySchema = z
  .object({ mapping: delimitedMappingSchema.optional(), nmis: nmiMapSchema.optional() })
  .refine((body) => (body.mapping === undefined) !== (body.nmis === undefined), {
    message: 'Give either a mapping or nmis.',
  });
