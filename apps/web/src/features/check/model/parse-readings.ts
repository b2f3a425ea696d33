import {
  COUNT_COLUMNS,
  locationReadingsSchema,
  meterInfoSchema,
  meterReadingsSchema,
  readingCorrectionsSchema,
  seriesSchema,
  type LocationReadings,
  type ReadingCorrections,
  type MeterInfo,
  type MeterReadings,
  type Series,
} from '@cm/contracts/check.ts';
import { countsOf, timesOf } from '@cm/contracts/series-columns.ts';
import { monthlyPeaksSchema, type MonthlyPeaks } from '@cm/contracts/demand.ts';
import { z } from 'zod';

/*
 * The readings answer, checked against the contract. Everything but the series columns goes
 * through the contract's zod schemas; the columns (a year of 15-minute data is 5 × 35,040
 * values) are checked by a tight loop, far faster than zod element by element (docs/web-delivery.md's check
 * page figures), and checking exactly the same thing (numbers, integers, nulls where allowed).
 */

function isNumberColumn(value: unknown, length: number): value is number[] {
  if (!Array.isArray(value) || value.length !== length) return false;
  for (let i = 0; i < length; i++) if (typeof value[i] !== 'number') return false;
  return true;
}

function isNullableNumberColumn(value: unknown, length: number): value is (number | null)[] {
  if (!Array.isArray(value) || value.length !== length) return false;
  for (let i = 0; i < length; i++) {
    const item: unknown = value[i];
    if (item !== null && typeof item !== 'number') return false;
  }
  return true;
}

function isIntegerColumn(value: unknown, length: number): value is number[] {
  if (!Array.isArray(value) || value.length !== length) return false;
  for (let i = 0; i < length; i++) if (!Number.isInteger(value[i])) return false;
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One channel's columns (`channelSeriesSchema`), each `n` long. */
function parseChannelColumns(value: unknown, n: number, where: string) {
  if (!isRecord(value)) throw new Error(`readings answer: ${where} is not an object`);
  const nullable = (name: string): (number | null)[] => {
    const column = value[name];
    if (!isNullableNumberColumn(column, n))
      throw new Error(`readings answer: ${where}.${name} must hold numbers or null`);
    return column;
  };
  // A count column left out is 0 at every point (countsOf).
  const written: Partial<Record<(typeof COUNT_COLUMNS)[number], number[]>> = {};
  for (const name of COUNT_COLUMNS) {
    const column = value[name];
    if (column === undefined) continue;
    if (!isIntegerColumn(column, n))
      throw new Error(`readings answer: ${where}.${name} must hold whole numbers`);
    written[name] = column;
  }
  const { demandAtLeast } = value;
  if (demandAtLeast !== undefined && !isIntegerColumn(demandAtLeast, n))
    throw new Error(`readings answer: ${where}.demandAtLeast must hold whole numbers`);
  return {
    value: nullable('value'),
    consumption: nullable('consumption'),
    ...countsOf(written, n),
    ...(value.cost === undefined ? {} : { cost: nullable('cost') }),
    ...(value.demand === undefined ? {} : { demand: nullable('demand') }),
    ...(value.demandAt === undefined ? {} : { demandAt: nullable('demandAt') }),
    ...(demandAtLeast === undefined ? {} : { demandAtLeast }),
  };
}

/** `series.spanStarts`: a few points (the contract's shape), each an index among the `n` in ascending order. */
function parseSpanStarts(value: unknown, n: number): NonNullable<Series['spanStarts']> {
  const parsed = seriesSchema.shape.spanStarts.safeParse(value);
  const starts = parsed.success ? parsed.data : undefined;
  const ascending = starts?.index.every(
    (index, k) => index < n && (k === 0 || index > (starts.index[k - 1] ?? 0)),
  );
  if (!starts || !ascending || starts.from.length !== starts.index.length)
    throw new Error('readings answer: series.spanStarts must list points in order, each with its start');
  return starts;
}

/** A series as the contract describes it (`seriesSchema`), with every column as long as its times. */
export function parseSeries(value: unknown): Series {
  if (!isRecord(value)) throw new Error('readings answer: series is not an object');
  const { tRuns, hours, spanStarts, other, net } = value;
  const runs = seriesSchema.shape.tRuns.safeParse(tRuns);
  if (
    !runs.success ||
    runs.data.step.length !== runs.data.start.length ||
    runs.data.count.length !== runs.data.start.length
  )
    throw new Error('readings answer: series.tRuns must list runs, each with its start, step and count');
  const n = runs.data.count.reduce((sum, count) => sum + count, 0);
  // The columns are checked first: they are as long as the runs say only if the runs are honest.
  const columns = parseChannelColumns(value, n, 'series');
  const series: Series = { t: timesOf(runs.data), ...columns };
  if (hours !== undefined) {
    if (!isNumberColumn(hours, n)) throw new Error('readings answer: series.hours must hold numbers');
    series.hours = hours;
  }
  if (spanStarts !== undefined) series.spanStarts = parseSpanStarts(spanStarts, n);
  if (other !== undefined) series.other = parseChannelColumns(other, n, 'series.other');
  if (net !== undefined) {
    if (!isNullableNumberColumn(net, n))
      throw new Error('readings answer: series.net must hold numbers or null');
    series.net = net;
  }
  return series;
}

// The contract's meter readings without its series (checked above), and the answer around them.
const meterWithoutSeriesSchema = meterReadingsSchema.omit({ series: true });
const answerWithoutMetersSchema = locationReadingsSchema.extend({ meters: z.array(z.unknown()) });

/** Freezes a small JSON value and everything in it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/**
 * Parses a `GetElectricMeterInformationByLocationPublicName` answer; throws on anything the
 * contract does not allow. The answer comes back frozen down to each series object: the store's
 * immer stops at a frozen object, where it would otherwise walk all 175k values of a year to look
 * for drafts and freeze them one by one (that walk cost more than drawing the chart). The columns
 * themselves are left as they are: freezing a 35k-value array copies it (about a millisecond
 * each), and nothing reaches them but through their frozen series.
 */
export function parseLocationReadings(raw: unknown): LocationReadings {
  const { meters: rawMeters, ...head } = answerWithoutMetersSchema.parse(raw);
  const meters: MeterReadings[] = rawMeters.map((item) => {
    if (!isRecord(item)) throw new Error('readings answer: a meter is not an object');
    const rest = deepFreeze(meterWithoutSeriesSchema.parse(item));
    const series = Object.freeze(parseSeries(item.series));
    return Object.freeze({ ...rest, series });
  });
  Object.freeze(meters);
  return Object.freeze({ ...deepFreeze(head), meters });
}

/** A meter's information, checked against the contract. */
export function parseMeterInfo(raw: unknown): MeterInfo {
  return meterInfoSchema.parse(raw);
}

/** A `GetMonthlyPeaks` answer, checked against the contract. */
export function parseMonthlyPeaks(raw: unknown): MonthlyPeaks {
  return monthlyPeaksSchema.parse(raw);
}

/** A `GetReadingCorrections` answer, checked against the contract. */
export function parseReadingCorrections(raw: unknown): ReadingCorrections {
  return readingCorrectionsSchema.parse(raw);
}
