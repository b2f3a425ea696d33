// A meter's or a location's monthly peaks over 12 local months and their rolling average (issue
// 36), from the engine's month buckets: one meter indicator's own peaks, or several indicators'
// intervals summed slot by slot (demand.ts summedPeaks).

import { CAPACITY_FLOOR_KW, ROLLING_MONTHS, type MonthlyPeaks } from '@cm/contracts/demand.ts';
import { localParts, startOfLocal } from '@cm/contracts/zoned-time.ts';
import {
  NO_KNOWN_INTERVALS,
  peakOf,
  presentPeak,
  rollingAverage,
  summedPeaks,
  type ComputedChannel,
  type PeakColumns,
  type SummedMeter,
} from '../readings/index.ts';

const MILLION = 1_000_000;

/** The 12 local months ending with `month` (`YYYY-MM`; the current local month without it): [fromMs, toMs). */
export function monthsEnding(month: string | undefined, timeZone: string, nowMs: number) {
  const now = localParts(nowMs, timeZone);
  const [year, monthNumber] = month ? month.split('-').map(Number) : [now.year, now.month];
  const last = (year ?? now.year) * 12 + (monthNumber ?? now.month) - 1;
  const start = (index: number) =>
    startOfLocal({ year: Math.floor(index / 12), month: (index % 12) + 1, day: 1 }, timeZone);
  return { fromMs: start(last - ROLLING_MONTHS + 1), toMs: start(last + 1) };
}

/** One meter indicator's channel over the months, computed by month with its intervals kept. */
export interface IndicatorMonths {
  computed: ComputedChannel;
  /** When the indicator held a meter, for the sum's installed meters. */
  fromMs: number;
  toMs: number;
}

/** Each month's peak: one indicator's own, or the indicators' sum per interval. */
export function peaksOf(
  indicators: readonly IndicatorMonths[],
  edges: readonly number[],
): PeakColumns | null {
  const [only] = indicators;
  if (!only) return null;
  if (indicators.length === 1) return only.computed.bucketPeaks ?? null;
  const open = new Uint8Array(Math.max(0, edges.length - 1));
  const meters: SummedMeter[] = indicators.map(({ computed, fromMs, toMs }) => {
    computed.bucketPeaks?.isAtLeast.forEach((isAtLeast, k) => {
      if (isAtLeast) open[k] = 1;
    });
    return { intervals: computed.intervals ?? NO_KNOWN_INTERVALS, fromMs, toMs };
  });
  return summedPeaks(meters, edges, open);
}

/** The answer's months and rolling average from each month's peak. */
export function presentMonthlyPeaks(
  peaks: PeakColumns | null,
  edges: readonly number[],
  timeZone: string,
): Pick<MonthlyPeaks, 'months' | 'rollingAverage'> {
  const months: MonthlyPeaks['months'] = [];
  const powers: (number | null)[] = [];
  let isAtLeast = false;
  for (let k = 0; k + 1 < edges.length; k++) {
    const from = edges[k] ?? 0;
    const parts = localParts(from, timeZone);
    const peak = peaks ? peakOf(peaks, k) : null;
    powers.push(peak?.power ?? null);
    if (peak?.isAtLeast) isAtLeast = true;
    months.push({
      month: `${String(parts.year).padStart(4, '0')}-${String(parts.month).padStart(2, '0')}`,
      from: new Date(from).toISOString(),
      to: new Date(edges[k + 1] ?? 0).toISOString(),
      peak: peak ? presentPeak(peak, timeZone) : null,
    });
  }
  const rolling = rollingAverage(powers, CAPACITY_FLOOR_KW * MILLION);
  return {
    months,
    rollingAverage: {
      kW: rolling.average === null ? null : rolling.average / MILLION,
      floorKw: CAPACITY_FLOOR_KW,
      months: rolling.months,
      isAtLeast,
    },
  };
}
