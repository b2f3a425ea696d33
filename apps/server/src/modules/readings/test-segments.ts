// Builders of meter segments for the readings tests and benchmark.

import type { Series } from '@cm/contracts/check.ts';
import type { MeterSegment, ReadingsComputation } from './consumption.ts';

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
  /** Register of the first reading, in milli-units. */
  startMilli?: number;
  /** Register increase (milli-units, before the multiplier) of the interval ending at reading i (i ≥ 1). */
  energyOf?: (i: number) => number;
  /** Readings to leave out (by index). */
  skip?: (i: number) => boolean;
  /** Readings marked estimated (by index). */
  estimated?: (i: number) => boolean;
}

/** A meter reading every interval, wrapping at 10^registerDigits like a real register. */
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
    readings: { t, milli, quality },
  };
}

/** The engine's answer with its series as the API writes it: the contract's plain arrays. */
export function plainSeries<T extends Pick<ReadingsComputation, 'series'>>(
  computed: T,
): Omit<T, 'series'> & { series: Series } {
  return { ...computed, series: JSON.parse(JSON.stringify(computed.series)) as Series };
}
