import type { CleanestHours } from '@cm/contracts/market-series.ts';

/** A run of consecutive intervals of the day's cleanest quarter. */
export interface CleanestWindow {
  fromMs: number;
  toMs: number;
  /** The run's mean intensity, g CO2e/kWh. */
  average: number;
}

/**
 * The day's cleanest quarter as windows of time (issue 36, cleanest hours): consecutive cleanest
 * intervals joined, each with its mean intensity; in time order.
 */
export function cleanestWindows(day: CleanestHours): CleanestWindow[] {
  const intervalMs = day.intervalMinutes * 60_000;
  const windows: CleanestWindow[] = [];
  let sum = 0;
  let count = 0;
  for (let k = 0; k <= day.t.length; k++) {
    const intensity = day.intensity[k] ?? null;
    if (k < day.t.length && day.cleanest[k] === 1 && intensity !== null) {
      sum += intensity;
      count += 1;
      continue;
    }
    if (count === 0) continue;
    const fromMs = day.t[k - count] ?? 0;
    windows.push({ fromMs, toMs: (day.t[k - 1] ?? 0) + intervalMs, average: sum / count });
    sum = 0;
    count = 0;
  }
  return windows;
}
