import type { z } from 'zod';
import {
  COUNT_COLUMNS,
  type LocationReadings,
  type Series,
  type locationReadingsSchema,
  type seriesSchema,
} from './check.ts';

// Reading a readings answer's columns as the contract writes them compactly (check.ts): count
// columns left out where all zero, and raw span starts listed only where they are not the point
// before.

type CountColumns = Record<(typeof COUNT_COLUMNS)[number], number[]>;

/** The count columns of a channel's series, `n` zeros for each one the answer left out. */
export function countsOf(columns: Partial<CountColumns>, n: number): CountColumns {
  const counts = {} as CountColumns;
  for (const name of COUNT_COLUMNS) counts[name] = columns[name] ?? new Array<number>(n).fill(0);
  return counts;
}

/** A series as written, with every count column (see countsOf). */
export function seriesWithCounts(series: z.infer<typeof seriesSchema>): Series {
  const n = series.t.length;
  const { other, ...columns } = series;
  return {
    ...columns,
    ...countsOf(columns, n),
    ...(other ? { other: { ...other, ...countsOf(other, n) } } : {}),
  };
}

/** A readings answer as written, each series with every count column (see countsOf). */
export function readingsWithCounts(answer: z.infer<typeof locationReadingsSchema>): LocationReadings {
  return {
    ...answer,
    meters: answer.meters.map((meter) => ({ ...meter, series: seriesWithCounts(meter.series) })),
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
