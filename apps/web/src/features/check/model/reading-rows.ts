import type { Granularity, LocationReadings, MeterReadings, ReadingEvent } from '@cm/contracts/check.ts';
import { upperBound } from '@cm/contracts/sorted.ts';
import { offsetChanges } from '@cm/contracts/zoned-time.ts';
import { nextTask } from '@/lib/next-task.ts';

const HOUR_MS = 3_600_000;

/**
 * `interval`: energy known for this interval or bucket. `gap`: readings are missing here.
 * `period`: one value for a span across bucket edges (a billing period): its energy is known, its
 * spread over the buckets is not, so it is a row of its own.
 */
export type RowKind = 'interval' | 'gap' | 'period';

/**
 * The readings as the page shows them, one row per interval (raw) or bucket, in columns. The
 * table, the chart's tooltip, the CSV and the print view read these columns; the chart draws the
 * answer's columns they are built from (chart-data.ts), so all show the same numbers.
 *
 * - raw: a row is the time between two consecutive readings; `register` is the reading that
 *   closes it. The reading that opens the range closes no interval: it is the register at the
 *   start in the totals. Where readings are missing, the row is the whole gap (`kind: 'gap'`),
 *   with the energy the registers show for it, which is not known interval by interval (a gap
 *   that opens the range is closed by the first reading).
 * - buckets: a row is a local hour, day, week or month (23/25 hours on DST days). Each gap is
 *   also listed as its own row. A gap that lies inside one bucket has its energy in that bucket
 *   (the answer names the bucket, `gap.bucket`; the row says so, `inBucket`, and carries none); a
 *   gap across bucket edges is in no bucket (the server does not guess how its energy divides), so
 *   its row carries the energy the registers show across it. A billing period across bucket edges
 *   is a row of its own too (`kind: 'period'`), with its energy. Either way the consumption column
 *   adds up to the total.
 *
 * Meter exchanges, rollovers and register decreases are noted on the row they happen in
 * (`events`), so the table says why a row's meter or register jumps.
 */
export interface ReadingRows {
  start: number[];
  end: number[];
  /** Energy in the meter's unit after the multiplier; null = unknown. */
  consumption: (number | null)[];
  /** Register as the meter shows it at the end of the row (before the multiplier). */
  register: (number | null)[];
  missing: number[];
  estimated: number[];
  substituted: number[];
  /** Values in the row that replaced an earlier one (their history: GetReadingCorrections). */
  corrected: number[];
  /**
   * Meters with an export channel: the energy exported in the row (after the multiplier; null =
   * unknown) and net = import − export. Null columns for a meter with one channel.
   */
  exported: (number | null)[] | null;
  net: (number | null)[] | null;
  /**
   * With a tariff: what the row's energy costs (import, before tax) or earns (export rows of an
   * export view), in the bill's currency; null = unknown. Null column without a tariff.
   */
  cost: (number | null)[] | null;
  /**
   * Demand in kW (the answer's `demand`): raw rows, the interval's average power; bucket rows, the
   * peak of the intervals in the bucket, from `demandAt`, "at least" where `demandAtLeast`. Null
   * columns when the answer has no demand (no interval in the range).
   */
  demand: (number | null)[] | null;
  demandAt: (number | null)[] | null;
  demandAtLeast: boolean[];
  /** Bucket length in hours (raw rows: null). */
  hours: (number | null)[];
  kind: RowKind[];
  /** Gap rows of bucket views: true when the gap lies inside one bucket, whose row holds its energy. */
  inBucket: boolean[];
  /** Which meter the row belongs to (a meter exchange changes it). */
  meterNumber: string[];
  /** Events that happen in a row, by row index (few: most rows have none). */
  events: Map<number, RowEvent[]>;
  /**
   * Buckets only partly in the view, by row index: the first when it began before the range
   * (its energy counts from the range start), the last one still going (its energy so far).
   */
  partial: Map<number, 'fromRangeStart' | 'soFar'>;
  /** Rows of 15 minutes or an hour in the second pass of a local hour the clocks went back over. */
  repeated: Set<number>;
}

/** Quality runs: the rows count them (estimated, substituted, corrected columns) instead. */
type QualityEvent = 'estimated' | 'substituted' | 'corrected';
const isQualityEvent = (type: ReadingEvent['type']): type is QualityEvent =>
  type === 'estimated' || type === 'substituted' || type === 'corrected';

/** An event the table notes on its row. */
export interface RowEvent {
  type: Exclude<ReadingEvent['type'], QualityEvent>;
  meterNumber: string;
}

interface PendingGap {
  from: number;
  to: number;
  missing: number;
  consumption: number | null;
  cost: number | null;
  /** The answer names a bucket that holds the gap. */
  hasBucket: boolean;
  kind: 'gap' | 'period';
}

/** Exchange instants (ascending) and the meter from each on; the first meter before them. */
function exchangesOf(readings: MeterReadings): { first: string; at: number[]; meter: string[] } {
  const exchanges = readings.events
    .filter((event) => event.type === 'meterExchange')
    .map((event) => ({ at: Date.parse(event.at), meterNumber: event.meterNumber }))
    .sort((a, b) => a.at - b.at);
  return {
    first: readings.meterNumbers[0] ?? readings.meter.meterNumber,
    at: exchanges.map((e) => e.at),
    meter: exchanges.map((e) => e.meterNumber),
  };
}

/** Rows built between two pauses when the rows are built in slices (rowsInSlices). */
const ROWS_PER_SLICE = 4096;

/**
 * Builds the rows of one meter indicator's readings. One pass, columns sized up front and
 * written by index. It pauses (yields) every ROWS_PER_SLICE rows, so that a year of 15-minute
 * readings (35k rows) can be built a slice per task without holding the main thread.
 */
function* rowSteps(
  readings: MeterReadings,
  granularity: Granularity,
  rangeEndMs: number,
  rangeStartMs: number,
): Generator<void, ReadingRows, void> {
  const { series } = readings;
  const n = series.t.length;
  // The rows follow the answer's channel; the other channel's gaps show as unknown export.
  const isRaw = granularity === 'raw';
  // Gaps, and the billing periods across bucket edges (bucketed answers), as rows in time order.
  const gaps: PendingGap[] = [
    ...readings.gaps
      .filter((gap) => gap.channel === readings.channel)
      .map((gap) => ({
        from: Date.parse(gap.from),
        to: Date.parse(gap.to),
        missing: gap.missingIntervals,
        consumption: gap.consumption,
        cost: gap.cost ?? null,
        // A gap no reading closes (a trailing one) has no known energy: no bucket holds it.
        hasBucket: gap.bucket !== null && gap.consumption !== null,
        kind: 'gap' as const,
      })),
    ...(isRaw ? [] : readings.periods)
      .filter((period) => period.channel === readings.channel)
      .map((period) => ({
        from: Date.parse(period.from),
        to: Date.parse(period.to),
        missing: 0,
        consumption: period.consumption,
        cost: period.cost ?? null,
        hasBucket: false,
        kind: 'period' as const,
      })),
  ].sort((a, b) => a.from - b.from);
  const gapCount = gaps.length;
  const other = series.other;
  const netColumn = series.net;
  const capacity = n + gapCount;
  const rows: ReadingRows = {
    start: new Array<number>(capacity),
    end: new Array<number>(capacity),
    consumption: new Array<number | null>(capacity),
    register: new Array<number | null>(capacity),
    missing: new Array<number>(capacity),
    estimated: new Array<number>(capacity),
    substituted: new Array<number>(capacity),
    corrected: new Array<number>(capacity),
    exported: other ? new Array<number | null>(capacity) : null,
    net: other ? new Array<number | null>(capacity) : null,
    cost: series.cost ? new Array<number | null>(capacity) : null,
    demand: series.demand ? new Array<number | null>(capacity) : null,
    demandAt: series.demandAt ? new Array<number | null>(capacity) : null,
    demandAtLeast: new Array<boolean>(capacity),
    hours: new Array<number | null>(capacity),
    kind: new Array<RowKind>(capacity),
    inBucket: new Array<boolean>(capacity),
    meterNumber: new Array<string>(capacity),
    events: new Map(),
    partial: new Map(),
    repeated: new Set(),
  };
  let count = 0;
  const exchanges = exchangesOf(readings);
  const meterOf = (ms: number): string => {
    let current = exchanges.first;
    for (let e = 0; e < exchanges.at.length; e++)
      if (ms >= (exchanges.at[e] ?? Infinity)) current = exchanges.meter[e] ?? current;
    return current;
  };
  const used = new Uint8Array(gapCount);
  let g = 0;

  // `point`: the series point the row shows (its quality counts and export), -1 for a gap row.
  const put = (
    point: number,
    start: number,
    end: number,
    consumption: number | null,
    register: number | null,
    missing: number,
    hours: number | null,
    kind: RowKind,
    meterNumber: string,
    inBucket = false,
    gapCost: number | null = null,
  ): void => {
    const isPoint = point >= 0;
    rows.start[count] = start;
    rows.end[count] = end;
    rows.consumption[count] = consumption;
    rows.register[count] = register;
    rows.missing[count] = missing;
    rows.estimated[count] = isPoint ? (series.estimated[point] ?? 0) : 0;
    rows.substituted[count] = isPoint ? (series.substituted[point] ?? 0) : 0;
    rows.corrected[count] = isPoint ? (series.corrected[point] ?? 0) : 0;
    if (rows.exported) rows.exported[count] = isPoint ? (other?.consumption[point] ?? null) : null;
    if (rows.net) rows.net[count] = isPoint ? (netColumn?.[point] ?? null) : null;
    if (rows.cost) rows.cost[count] = isPoint ? (series.cost?.[point] ?? null) : gapCost;
    if (rows.demand) rows.demand[count] = isPoint ? (series.demand?.[point] ?? null) : null;
    if (rows.demandAt) rows.demandAt[count] = isPoint ? (series.demandAt?.[point] ?? null) : null;
    rows.demandAtLeast[count] = isPoint && (series.demandAtLeast?.[point] ?? 0) > 0;
    rows.hours[count] = hours;
    rows.kind[count] = kind;
    rows.inBucket[count] = inBucket;
    rows.meterNumber[count] = meterNumber;
    count++;
  };
  const putGap = (gap: PendingGap, register: number | null): void => {
    const inBucket = !isRaw && gap.hasBucket;
    put(
      -1,
      gap.from,
      gap.to,
      inBucket ? null : gap.consumption,
      register,
      gap.missing,
      null,
      gap.kind,
      meterOf(gap.to - 1),
      inBucket,
      inBucket ? null : gap.cost,
    );
  };
  // Gaps not yet listed that start before `ms` go in first, so rows stay in time order.
  const firstReading = series.t[0];
  const flushGapsBefore = (ms: number): void => {
    while (g < gapCount && (gaps[g]?.from ?? Infinity) < ms) {
      const gap = gaps[g];
      if (gap && used[g] === 0)
        putGap(gap, isRaw && gap.to === firstReading ? (series.value[0] ?? null) : null);
      g++;
    }
  };

  if (isRaw) {
    for (let i = 1; i < n; i++) {
      if (i % ROWS_PER_SLICE === 0) yield;
      const start = series.t[i - 1] ?? 0;
      const end = series.t[i] ?? 0;
      const missing = series.missing[i] ?? 0;
      const register = series.value[i] ?? null;
      if (missing > 0) {
        const index = gaps.findIndex((gap, k) => used[k] === 0 && gap.from === start && gap.to === end);
        const gap = gaps[index];
        if (gap) {
          flushGapsBefore(start);
          used[index] = 1;
          putGap(gap, register);
          continue;
        }
      }
      if (g < gapCount) flushGapsBefore(start + 1);
      put(
        i,
        start,
        end,
        series.consumption[i] ?? null,
        register,
        missing,
        null,
        missing > 0 ? 'gap' : 'interval',
        meterOf(end - 1),
      );
    }
  } else {
    for (let k = 0; k < n; k++) {
      if (k > 0 && k % ROWS_PER_SLICE === 0) yield;
      const start = series.t[k] ?? 0;
      const hours = series.hours?.[k] ?? null;
      const end = bucketEnd(series, k, rangeEndMs);
      if (g < gapCount) flushGapsBefore(start + 1);
      put(
        k,
        start,
        end,
        series.consumption[k] ?? null,
        series.value[k] ?? null,
        series.missing[k] ?? 0,
        hours,
        'interval',
        meterOf(start),
      );
    }
  }
  flushGapsBefore(Infinity);
  for (const column of Object.values(rows)) if (Array.isArray(column)) column.length = count;
  noteEvents(rows, readings.events);
  if (!isRaw) notePartialBuckets(rows, rangeStartMs, readings);
  if (isRaw || granularity === 'hour') noteRepeatedHours(rows, readings.meter.location.timeZone);
  return rows;
}

/**
 * Marks the rows in the second pass of a repeated local hour: where the clocks go back by Δ at
 * instant `at`, the local times of [at − Δ, at) come again in [at, at + Δ), on the later offset.
 */
function noteRepeatedHours(rows: ReadingRows, timeZone: string): void {
  const count = rows.start.length;
  const first = rows.start[0];
  const last = rows.end[count - 1];
  if (first === undefined || last === undefined) return;
  const repeats = offsetChanges(first, last, timeZone).filter(
    (change) => change.toOffset < change.fromOffset,
  );
  for (const change of repeats) {
    const end = change.at + (change.fromOffset - change.toOffset) * 60_000;
    for (let i = upperBound(rows.start, change.at - 1); i < count && (rows.start[i] ?? end) < end; i++)
      if (rows.kind[i] === 'interval') rows.repeated.add(i);
  }
}

/** Marks the buckets the range or the data cut: the first one begun before the range, the one still going. */
function notePartialBuckets(rows: ReadingRows, rangeStartMs: number, readings: MeterReadings): void {
  const ends = [readings.totals.dataEnd, readings.totals.other?.dataEnd].flatMap((end) =>
    end ? [Date.parse(end)] : [],
  );
  const dataEnd = ends.length > 0 ? Math.max(...ends) : null;
  for (let i = 0; i < rows.start.length; i++) {
    if (rows.kind[i] !== 'interval') continue;
    const start = rows.start[i] ?? 0;
    const end = rows.end[i] ?? 0;
    if (start < rangeStartMs) rows.partial.set(i, 'fromRangeStart');
    else if (dataEnd !== null && start < dataEnd && dataEnd < end) rows.partial.set(i, 'soFar');
  }
}

/** End of bucket `k` of a bucket series: its start plus its length, else the next start or the range end. */
function bucketEnd(series: MeterReadings['series'], k: number, rangeEndMs: number): number {
  const start = series.t[k] ?? 0;
  const hours = series.hours?.[k] ?? null;
  return hours === null ? (series.t[k + 1] ?? rangeEndMs) : start + hours * HOUR_MS;
}

/** The bucket of a bucket series that holds the instant `ms` (start and end), null when none does. */
export function bucketAt(
  series: MeterReadings['series'] | undefined,
  ms: number,
  rangeEndMs: number,
): { from: number; to: number } | null {
  if (!series) return null;
  const k = upperBound(series.t, ms) - 1;
  if (k < 0) return null;
  const end = bucketEnd(series, k, rangeEndMs);
  return ms < end ? { from: series.t[k] ?? 0, to: end } : null;
}

/**
 * Puts each event on its row: an exchange on the first row of the new meter (the row starting at
 * or spanning its first reading), a rollover or a register decrease on the row its reading closes.
 */
function noteEvents(rows: ReadingRows, events: readonly ReadingEvent[]): void {
  for (const event of events) {
    const { type } = event;
    if (isQualityEvent(type)) continue;
    const at = Date.parse(event.at);
    const opens = type === 'meterExchange';
    for (let i = Math.max(0, upperBound(rows.start, at) - 3); i < rows.start.length; i++) {
      const start = rows.start[i] ?? 0;
      const end = rows.end[i] ?? 0;
      if (start > at) break;
      if (opens ? start <= at && at < end : start < at && at <= end) {
        const noted = rows.events.get(i) ?? [];
        noted.push({ type, meterNumber: event.meterNumber });
        rows.events.set(i, noted);
        break;
      }
    }
  }
}

/** Builds the rows of one meter indicator's readings at once. */
export function buildRows(
  readings: MeterReadings,
  granularity: Granularity,
  rangeEndMs: number,
  rangeStartMs = Number.NEGATIVE_INFINITY,
): ReadingRows {
  const steps = rowSteps(readings, granularity, rangeEndMs, rangeStartMs);
  let step = steps.next();
  while (step.done !== true) step = steps.next();
  return step.value;
}

/** Sum of the consumption column (what a spreadsheet would add up): the period's consumption. */
export function sumConsumption(rows: ReadingRows, kind?: RowKind): number {
  let milli = 0;
  for (let i = 0; i < rows.start.length; i++) {
    const value = rows.consumption[i];
    // Integer milli-units, as the server sums them, so the result matches its totals to the Wh.
    if ((kind === undefined || rows.kind[i] === kind) && value !== null && value !== undefined)
      milli += Math.round(value * 1000);
  }
  return milli / 1000;
}

const answerRows = new WeakMap<LocationReadings, ReadingRows[]>();

/**
 * The rows of each meter of an answer, built on first use and kept with the answer: the chart
 * draws without them, the table builds them after the chart has drawn, and the tooltip, the CSV
 * and the print view reuse them.
 */
export function rowsOf(readings: LocationReadings): ReadingRows[] {
  let rows = answerRows.get(readings);
  if (!rows) {
    const toMs = Date.parse(readings.to);
    const fromMs = Date.parse(readings.from);
    rows = readings.meters.map((meter) => buildRows(meter, readings.granularity, toMs, fromMs));
    answerRows.set(readings, rows);
  }
  return rows;
}

/**
 * The rows of each meter of an answer, as rowsOf gives them, built a slice of rows per task so
 * that no task holds the main thread for long (a year of readings is 35k rows); null when
 * `signal` aborts first. What rowsOf builds meanwhile (a tooltip asking) is used as it is.
 */
export async function rowsInSlices(
  readings: LocationReadings,
  signal: AbortSignal,
): Promise<ReadingRows[] | null> {
  const toMs = Date.parse(readings.to);
  const fromMs = Date.parse(readings.from);
  const built: ReadingRows[] = [];
  for (const meter of readings.meters) {
    const steps = rowSteps(meter, readings.granularity, toMs, fromMs);
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done === true) {
        built.push(step.value);
        break;
      }
      await nextTask();
      if (signal.aborted) return null;
      const cached = answerRows.get(readings);
      if (cached) return cached;
    }
  }
  const cached = answerRows.get(readings);
  if (cached) return cached;
  answerRows.set(readings, built);
  return built;
}

const endIndexes = new WeakMap<ReadingRows, Map<number, number>>();

/**
 * The row a chart point shows, by the point's x (a row's end; chart-data.ts): with raw readings
 * any row (a gap's own point tells about the gap), with buckets a bucket's row (a gap's energy is
 * already in its bucket). Built once per rows, on the first cursor move.
 */
export function rowsByEnd(rows: ReadingRows, granularity: Granularity): Map<number, number> {
  let index = endIndexes.get(rows);
  if (!index) {
    index = new Map();
    const isRaw = granularity === 'raw';
    for (let i = 0; i < rows.end.length; i++)
      if (isRaw || rows.kind[i] === 'interval') index.set(rows.end[i] ?? 0, i);
    endIndexes.set(rows, index);
  }
  return index;
}
