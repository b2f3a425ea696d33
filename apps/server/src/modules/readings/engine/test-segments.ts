// Builders of meter segments for the readings engine's tests and benchmark, and a runner that
// answers as the API writes it (series as plain arrays, units as kWh).

import { seriesSchema, type Granularity } from '@cm/contracts/check.ts';
import { seriesAsRead } from '@cm/contracts/series-columns.ts';
import { resolveRange } from '../range.ts';
import { presentReadings } from '../readings.presenter.ts';
import { computeReadings, type ChannelSegments } from './compute.ts';
import type { MeterSegment } from './channel.ts';
import type { KnownIntervals } from './demand.ts';
import type { IntervalColumns, RegisterColumns } from './steps.ts';

export const NO_INTERVALS: IntervalColumns = { start: [], end: [], micro: [], quality: [], revised: [] };
export const NO_REGISTERS: RegisterColumns = { t: [], micro: [], quality: [], revised: [] };

/** Register columns from readings given in thousandths of the unit (Wh for kWh), as most tests think. */
export function registers(t: number[], milli: number[], quality: number[] = t.map(() => 0)): RegisterColumns {
  return { t, micro: milli.map((m) => m * 1000), quality, revised: t.map(() => 0) };
}

/** Options of {@link regularSegment}. */
export interface RegularSegmentOptions {
  meterNumber?: string;
  multiplier?: number;
  registerDigits?: number;
  intervalMinutes?: number;
  /** Instant of the first reading. */
  startMs: number;
  /** Number of readings. */
  count: number;
  /** Register of the first reading, in thousandths of the unit. */
  startMilli?: number;
  /** Register increase (thousandths, before the multiplier) of the interval ending at reading i (i ≥ 1). */
  energyOf?: (i: number) => number;
  /** Readings to leave out (by index). */
  skip?: (i: number) => boolean;
  /** Readings marked estimated (by index). */
  estimated?: (i: number) => boolean;
}

/** A meter reading its register every interval, wrapping at 10^registerDigits like a real register. */
export function regularSegment(options: RegularSegmentOptions): MeterSegment {
  const intervalMs = (options.intervalMinutes ?? 15) * 60_000;
  const registerDigits = options.registerDigits ?? 6;
  const range = 10 ** registerDigits * 1000;
  const t: number[] = [];
  const milli: number[] = [];
  const quality: number[] = [];
  let register = options.startMilli ?? 0;
  for (let i = 0; i < options.count; i++) {
    if (i > 0) register = (register + (options.energyOf?.(i) ?? 100)) % range;
    if (options.skip?.(i)) continue;
    t.push(options.startMs + i * intervalMs);
    milli.push(register);
    quality.push(options.estimated?.(i) ? 1 : 0);
  }
  return {
    meterNumber: options.meterNumber ?? 'M-1',
    multiplier: options.multiplier ?? 1,
    registerDigits,
    intervalMs,
    registers: registers(t, milli, quality),
    intervals: NO_INTERVALS,
  };
}

/** A meter with interval records [start, end) of energies in millionths (mWh), and no register. */
export function intervalSegment(
  records: ReadonlyArray<readonly [start: number, end: number, micro: number, quality?: number]>,
  options: { meterNumber?: string; intervalMinutes?: number } = {},
): MeterSegment {
  return {
    meterNumber: options.meterNumber ?? 'M-1',
    multiplier: 1,
    registerDigits: 6,
    intervalMs: (options.intervalMinutes ?? 30) * 60_000,
    registers: NO_REGISTERS,
    intervals: {
      start: records.map((r) => r[0]),
      end: records.map((r) => r[1]),
      micro: records.map((r) => r[2]),
      quality: records.map((r) => r[3] ?? 0),
      revised: records.map(() => 0),
    },
  };
}

const FAR_FUTURE = Date.UTC(2100, 0, 1);

/** The engine's answer for a local-date range, as the API writes it. */
export function run(
  segments: MeterSegment[] | ChannelSegments,
  range: { From: string; To: string },
  timeZone: string,
  granularity: Granularity,
  extra: { maxPoints?: number; nowMs?: number; primary?: 'import' | 'export' } = {},
) {
  const { fromMs, toMs } = resolveRange(range, timeZone, granularity);
  return runRange(segments, fromMs, toMs, timeZone, granularity, extra);
}

/** The engine's answer for [fromMs, toMs], as the API writes it. */
export function runRange(
  segments: MeterSegment[] | ChannelSegments,
  fromMs: number,
  toMs: number,
  timeZone: string,
  granularity: Granularity,
  extra: { maxPoints?: number; nowMs?: number; primary?: 'import' | 'export' } = {},
) {
  const input: ChannelSegments = Array.isArray(segments) ? { import: segments } : segments;
  const computed = presentReadings(
    computeReadings(input, {
      fromMs,
      toMs,
      timeZone,
      granularity,
      nowMs: extra.nowMs ?? FAR_FUTURE,
      primary: extra.primary ?? 'import',
      ...(extra.maxPoints === undefined ? {} : { maxPoints: extra.maxPoints }),
    }),
  );
  return {
    ...computed,
    series: seriesAsRead(seriesSchema.parse(JSON.parse(JSON.stringify(computed.series)))),
  };
}

/** Known intervals (the engine's `keepIntervals` columns) from plain lists. */
export function knownIntervalsOf(lists: {
  start: number[];
  energy: number[];
  nominal: number[];
}): KnownIntervals {
  return {
    start: Float64Array.from(lists.start),
    energy: Float64Array.from(lists.energy),
    nominal: Float64Array.from(lists.nominal),
  };
}
