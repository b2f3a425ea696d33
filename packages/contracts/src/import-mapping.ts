import { z } from 'zod';

// How a delimited readings file maps onto readings (issue 16). A preset is such a mapping with a
// name, for a layout utilities export; a mapping saved by an administrator is reused for next
// month's file from the same source.

/** A column: its header text (case and surrounding spaces ignored) or its position from 0. */
export const columnRefSchema = z.union([
  z.string().trim().min(1, 'a column name must not be empty.').max(100),
  z.number().int().min(0).max(999),
]);
export type ColumnRef = z.infer<typeof columnRefSchema>;

/**
 * Order of a date's parts; `iso` is ISO 8601 (a `T` or space before the time, an offset allowed);
 * `yyyymmdd` the compact date (`20241004`, with `HHMM` or `HHMMSS` after it or a time column);
 * `excel` a serial day number.
 */
export const dateLayouts = ['iso', 'ymd', 'dmy', 'mdy', 'yyyymmdd', 'excel'] as const;
export type DateLayout = (typeof dateLayouts)[number];

/** Units a value may come in: energy, or average power over the interval (turned into energy). */
export const valueUnits = ['Wh', 'kWh', 'MWh', 'W', 'kW', 'MW'] as const;
export type ValueUnit = (typeof valueUnits)[number];

const words = (param: string) =>
  z.array(z.string().trim().min(1).max(100)).max(50, `${param} holds at most 50 values.`);

export const delimitedMappingSchema = z
  .object({
    delimiter: z.enum([',', ';', '\t'], { message: 'delimiter must be a comma, a semicolon or a tab.' }),
    decimal: z.enum(['.', ','], { message: 'decimal must be a point or a comma.' }),
    /** Lines to pass over before the header (or the first row). Metadata lines before a header are also passed over when the header is found by its column names. */
    skipLines: z.number().int().min(0).max(1000).default(0),
    /** Whether a header row names the columns (then columns may be given by name). */
    header: z.boolean(),
    time: z.object({
      /** The date, or date and time, column. */
      column: columnRefSchema,
      /** A separate time-of-day column, when the date column holds the date only. */
      timeColumn: columnRefSchema.optional(),
      layout: z.enum(dateLayouts, { message: 'time.layout must be iso, ymd, dmy, mdy, yyyymmdd or excel.' }),
      /** Whether the time is the start or the end of the interval (a register: the instant of the reading). */
      stamp: z.enum(['start', 'end']),
      /** A second column with the interval's end (date and time, or the time only with the date of `column`). */
      endColumn: columnRefSchema.optional(),
      /** The end is the interval's last minute (00:59 for 00:00–01:00), as US utilities write it. */
      endInclusiveMinute: z.boolean().default(false),
    }),
    /** IANA zone of times without an offset; by default the meter location's. */
    timeZone: z.string().trim().min(1).max(64).optional(),
    /** Length of each interval when the file gives one time only; by default the meter's interval. */
    intervalMinutes: z.number().int().min(1).max(44_640).optional(),
    value: z.object({
      column: columnRefSchema,
      unit: z.enum(valueUnits, { message: 'value.unit must be Wh, kWh, MWh, W, kW or MW.' }),
      kind: z.enum(['interval', 'register']),
    }),
    /**
     * One row per day, one column per interval (48 or 96 values, as many utilities export): the
     * date is `time.column`, `value.column` the first interval column, and the values run from it
     * (`count` of them, else to the row's end), each `intervalMinutes` long from the day's local
     * midnight (time elapsed, so a 23-hour day has 92 quarter hours and a 25-hour one 100). An
     * empty cell is a missing interval.
     */
    wide: z
      .object({
        intervalMinutes: z
          .number()
          .int()
          .min(1)
          .max(1440)
          .refine(
            (minutes) => 1440 % minutes === 0,
            'wide.intervalMinutes must divide a day (5, 15, 30, 60…).',
          ),
        count: z.number().int().min(1).max(1500).optional(),
      })
      .optional(),
    /** Texts that mean "no value": the interval is missing (unknown energy), the row is not a reading. */
    missingValues: words('missingValues').default([]),
    // A fixed meter may be left empty while a mapping is being worked out (detection of a file that
    // names no meter); an import needs it filled in (the meterNumber option does).
    meter: z.union([z.object({ column: columnRefSchema }), z.object({ fixed: z.string().trim().max(64) })]),
    channel: z
      .union([
        z.object({
          column: columnRefSchema,
          import: words('channel.import'),
          export: words('channel.export'),
        }),
        z.object({ fixed: z.enum(['import', 'export']) }),
      ])
      .default({ fixed: 'import' }),
    quality: z
      .object({
        column: columnRefSchema,
        estimated: words('quality.estimated'),
        substituted: words('quality.substituted'),
      })
      .optional(),
    /** Only rows whose column contains one of these texts are readings (e.g. TYPE "Electric usage"); the others are refused with their text. */
    only: z.object({ column: columnRefSchema, contains: words('only.contains').min(1) }).optional(),
  })
  .refine((mapping) => mapping.time.endColumn === undefined || mapping.time.stamp === 'start', {
    message: 'time.stamp must be start when time.endColumn gives the end.',
    path: ['time', 'stamp'],
  })
  .refine(
    (mapping) =>
      mapping.wide === undefined ||
      (mapping.value.kind === 'interval' &&
        mapping.time.endColumn === undefined &&
        mapping.time.timeColumn === undefined),
    {
      message: 'wide rows hold interval values, one column per interval, with the date only.',
      path: ['wide'],
    },
  )
  .refine((mapping) => mapping.header || columnRefs(mapping).every((ref) => typeof ref === 'number'), {
    message: 'without a header row, columns are given by position (0, 1, …).',
    path: ['header'],
  });
export type DelimitedMapping = z.infer<typeof delimitedMappingSchema>;

/** Every column a mapping names. */
export function columnRefs(mapping: {
  time: { column: ColumnRef; timeColumn?: ColumnRef | undefined; endColumn?: ColumnRef | undefined };
  value: { column: ColumnRef };
  meter: { column: ColumnRef } | { fixed: string };
  channel?: { column: ColumnRef } | { fixed: string } | undefined;
  quality?: { column: ColumnRef } | undefined;
  only?: { column: ColumnRef } | undefined;
}): ColumnRef[] {
  return [
    mapping.time.column,
    mapping.time.timeColumn,
    mapping.time.endColumn,
    mapping.value.column,
    'column' in mapping.meter ? mapping.meter.column : undefined,
    mapping.channel && 'column' in mapping.channel ? mapping.channel.column : undefined,
    mapping.quality?.column,
    mapping.only?.column,
  ].filter((ref): ref is ColumnRef => ref !== undefined);
}
export type DelimitedMappingInput = z.input<typeof delimitedMappingSchema>;

/** Layouts utilities export, each a mapping with a name (FORMATS.md in the readme of each). */
export const importPresets = ['esb-hdf', 'green-button-csv', 'octopus', 'lcl'] as const;
export type ImportPreset = (typeof importPresets)[number];
