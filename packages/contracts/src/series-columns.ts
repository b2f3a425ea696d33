import type { z } from 'zod';
import {
  COUNT_COLUMNS,
  type LocationReadings,
  type Series,
  type locationReadingsSchema,
  type seriesSchema,
} from './check.ts';

// Reading a readings answer's columns as the contract writes them compactly (check.ts): times as
// runs of equal steps, count columns left out where all zero, and raw span starts listed only where
// they are not the point before.

type CountColumns = Record<(typeof COUNT_COLUMNS)[number], number[]>;

/** The count columns of a channel's series, `n` zeros for each one the answer left out. */
export function countsOf(columns: Partial<CountColumns>, n: number): CountColumns {
  const counts = {} as CountColumns;
  for (const name of COUNT_COLUMNS) counts[name] = columns[name] ?? new Array<number>(n).fill(0);
  return counts;
}

type TimeRuns = z.infer<typeof seriesSchema>['tRuns'];

/**
 * Times as the answer writes them (`tRuns`, check.ts): each run starts at a point and takes every
 * following point that lies the same step after the one before; a lone point is a run of 1, step 0.
 */
export function timeRuns(t: ArrayLike<number>): TimeRuns {
  const runs: TimeRuns = { start: [], step: [], count: [] };
  for (let i = 0; i < t.length;) {
    const first = t[i] ?? 0;
    const step = i + 1 < t.length ? (t[i + 1] ?? 0) - first : 0;
    let end = i + 1;
    while (end < t.length && (t[end] ?? 0) - (t[end - 1] ?? 0) === step) end += 1;
    runs.start.push(first);
    runs.step.push(end - i > 1 ? step : 0);
    runs.count.push(end - i);
    i = end;
  }
  return runs;
}

/** Each point's time, from the runs of equal steps the answer writes them as (timeRuns). */
export function timesOf(runs: TimeRuns): number[] {
  const t: number[] = [];
  runs.count.forEach((count, k) => {
    const start = runs.start[k] ?? 0;
    const step = runs.step[k] ?? 0;
    for (let i = 0; i < count; i++) t.push(start + i * step);
  });
  return t;
}

/** A series as read: its times (see timesOf) and every count column (see countsOf). */
export function seriesAsRead(series: z.infer<typeof seriesSchema>): Series {
  const { other, tRuns, ...columns } = series;
  const t = timesOf(tRuns);
  return {
    ...columns,
    t,
    ...countsOf(columns, t.length),
    ...(other ? { other: { ...other, ...countsOf(other, t.length) } } : {}),
  };
}

/** A readings answer as read, each series as seriesAsRead reads it. */
export function readingsAsRead(answer: z.infer<typeof locationReadingsSchema>): LocationReadings {
  return {
    ...answer,
    meters: answer.meters.map((meter) => ({ ...meter, series: seriesAsRead(meter.series) })),
  };
}

/**
 * Where each raw point's span starts (`null`: nowhere, a meter's first reading): at the previous
 * point's `t`, except at the points `spanStarts` lists (check.ts).
 */
export function spanStartColumn(series: Pick<Series, 't' | 'spanStarts'>): (number | null)[] {
  const { t, spanStarts } = series;
  const starts = t.map((_, i) => (i === 0 ? null : (t[i - 1] ?? null)));
  spanStarts?.index.forEach((index, k) => {
    starts[index] = spanStarts.from[k] ?? null;
  });
  return starts;
}
