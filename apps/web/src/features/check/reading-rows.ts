import type { Granularity, MeterReadings } from '@cm/contracts/check.ts';

const HOUR_MS = 3_600_000;

/** `interval`: energy known for this interval or bucket. `gap`: readings are missing here. */
export type RowKind = 'interval' | 'gap';

/**
 * The readings as the page shows them, one row per interval (raw) or bucket, in columns. The
 * chart, the table and the CSV all read these columns, so they always show the same numbers.
 *
 * - raw: a row is the time between two consecutive readings; `register` is the reading that
 *   closes it. The reading that opens the range closes no interval: it is the register at the
 *   start in the totals. Where readings are missing, the row is the whole gap (`kind: 'gap'`),
 *   with the energy the registers show for it, which is not known interval by interval.
 * - buckets: a row is a local hour, day, week or month (23/25 hours on DST days); its energy
 *   includes any gap starting in it. Each gap is also listed as its own row, without energy
 *   (it is already in its bucket), so the consumption column always adds up to the total.
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
  /** Bucket length in hours (raw rows: null). */
  hours: (number | null)[];
  kind: RowKind[];
  /** Which meter the row belongs to (a meter exchange changes it). */
  meterNumber: string[];
}

/** The number of rows. */
export function rowCount(rows: ReadingRows): number {
  return rows.start.length;
}

function emptyRows(): ReadingRows {
  return { start: [], end: [], consumption: [], register: [], missing: [], estimated: [], hours: [], kind: [], meterNumber: [] };
}

interface PendingGap {
  from: number;
  to: number;
  missing: number;
  consumption: number | null;
}

/** Which meter held the indicator at an instant, from the exchange events. */
function meterAt(readings: MeterReadings): (ms: number) => string {
  const exchanges = readings.events
    .filter((event) => event.type === 'meterExchange')
    .map((event) => ({ at: Date.parse(event.at), meterNumber: event.meterNumber }))
    .sort((a, b) => a.at - b.at);
  const first = readings.meterNumbers[0] ?? readings.meter.meterNumber;
  return (ms) => {
    let current = first;
    for (const exchange of exchanges) if (ms >= exchange.at) current = exchange.meterNumber;
    return current;
  };
}

/** Builds the rows of one meter indicator's readings. */
export function buildRows(readings: MeterReadings, granularity: Granularity, rangeEndMs: number): ReadingRows {
  const rows = emptyRows();
  const { series } = readings;
  const meterOf = meterAt(readings);
  const gaps: PendingGap[] = readings.gaps.map((gap) => ({
    from: Date.parse(gap.from),
    to: Date.parse(gap.to),
    missing: gap.missingIntervals,
    consumption: gap.consumption,
  }));
  const used = new Set<number>();
  let g = 0;

  const isRaw = granularity === 'raw';
  const pushGap = (gap: PendingGap, register: number | null): void => {
    rows.start.push(gap.from);
    rows.end.push(gap.to);
    rows.consumption.push(isRaw ? gap.consumption : null);
    rows.register.push(register);
    rows.missing.push(gap.missing);
    rows.estimated.push(0);
    rows.hours.push(null);
    rows.kind.push('gap');
    rows.meterNumber.push(meterOf(gap.to - 1));
  };
  // Gaps not yet listed that start before `ms` go in first, so rows stay in time order.
  const flushGapsBefore = (ms: number): void => {
    while (g < gaps.length && (gaps[g]?.from ?? Infinity) < ms) {
      if (!used.has(g)) pushGap(gaps[g] ?? { from: 0, to: 0, missing: 0, consumption: null }, null);
      g++;
    }
  };

  const n = series.t.length;
  if (isRaw) {
    for (let i = 1; i < n; i++) {
      const start = series.t[i - 1] ?? 0;
      const end = series.t[i] ?? 0;
      const missing = series.missing[i] ?? 0;
      const register = series.value[i] ?? null;
      if (missing > 0) {
        const index = gaps.findIndex((gap, k) => !used.has(k) && gap.from === start && gap.to === end);
        if (index >= 0) {
          flushGapsBefore(start);
          used.add(index);
          pushGap(gaps[index] ?? { from: start, to: end, missing, consumption: null }, register);
          continue;
        }
      }
      flushGapsBefore(start + 1);
      rows.start.push(start);
      rows.end.push(end);
      rows.consumption.push(series.consumption[i] ?? null);
      rows.register.push(register);
      rows.missing.push(missing);
      rows.estimated.push(series.estimated[i] ?? 0);
      rows.hours.push(null);
      rows.kind.push(missing > 0 ? 'gap' : 'interval');
      rows.meterNumber.push(meterOf(end - 1));
    }
  } else {
    for (let k = 0; k < n; k++) {
      const start = series.t[k] ?? 0;
      const hours = series.hours?.[k] ?? null;
      const end = hours === null ? (series.t[k + 1] ?? rangeEndMs) : start + hours * HOUR_MS;
      flushGapsBefore(start + 1);
      rows.start.push(start);
      rows.end.push(end);
      rows.consumption.push(series.consumption[k] ?? null);
      rows.register.push(series.value[k] ?? null);
      rows.missing.push(series.missing[k] ?? 0);
      rows.estimated.push(series.estimated[k] ?? 0);
      rows.hours.push(hours);
      rows.kind.push('interval');
      rows.meterNumber.push(meterOf(start));
    }
  }
  flushGapsBefore(Infinity);
  return rows;
}

/** Sum of the consumption column (what a spreadsheet would add up): the period's consumption. */
export function sumConsumption(rows: ReadingRows, kind?: RowKind): number {
  let milli = 0;
  for (let i = 0; i < rows.start.length; i++) {
    const value = rows.consumption[i];
    // Integer milli-units, as the server sums them, so the result matches its totals to the Wh.
    if ((kind === undefined || rows.kind[i] === kind) && value !== null && value !== undefined) milli += Math.round(value * 1000);
  }
  return milli / 1000;
}
