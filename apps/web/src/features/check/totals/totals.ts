import type { Totals } from '@cm/contracts/check.ts';
import { LATE_GRACE_INTERVALS } from '@cm/contracts/check-limits.ts';
import { formatEnergy, formatNumber, formatPercent } from '@/lib/format.ts';

/**
 * The check a person can do with a calculator: register difference (× multiplier, rollovers and
 * exchanges accounted for) = sum of the intervals + energy across gaps.
 * - `agrees`: equal to the Wh;
 * - `differs`: they do not; by how much is the answer's `disagreement` (the server's one rule);
 * - `unknown`: no readings in the range.
 */
export type Agreement = 'agrees' | 'differs' | 'unknown';

export function agreementOf(totals: Totals): Agreement {
  if (totals.registerDifference === null) return 'unknown';
  return totals.agrees ? 'agrees' : 'differs';
}

/** A register value as the meter shows it, to the Wh (no unit: it is a count before the multiplier). */
export function formatRegister(value: number, locale: string): string {
  return formatNumber(value, locale, { minimumFractionDigits: 3, maximumFractionDigits: 3 });
}

/** Display strings of the totals, in the interface language; '—' where unknown. */
export interface TotalsText {
  consumption: string;
  averagePerDay: string;
  peak: string;
  registerStart: string;
  registerEnd: string;
  registerDifference: string;
  intervalSum: string;
  gapConsumption: string;
  missingIntervals: string;
  readings: string;
}

export const NOT_KNOWN = '—';

export function formatTotals(totals: Totals, locale: string): TotalsText {
  const energy = (value: number | null) => (value === null ? NOT_KNOWN : formatEnergy(value, locale));
  return {
    consumption: energy(totals.consumption),
    averagePerDay: energy(totals.averagePerDay),
    peak: totals.peak === null ? NOT_KNOWN : formatEnergy(totals.peak.consumption, locale),
    registerStart: totals.registerStart === null ? NOT_KNOWN : formatRegister(totals.registerStart, locale),
    registerEnd: totals.registerEnd === null ? NOT_KNOWN : formatRegister(totals.registerEnd, locale),
    registerDifference: energy(totals.registerDifference),
    intervalSum: formatEnergy(totals.intervalSum, locale),
    gapConsumption: formatEnergy(totals.gapConsumption, locale),
    missingIntervals: formatNumber(totals.missingIntervals, locale),
    readings: formatNumber(totals.readings, locale),
  };
}

/** "+12.5 %" / "−3 %" / "±0 %": the sign always shown, so a change reads at a glance. */
export function formatChange(change: number, locale: string): string {
  if (change === 0) return `±${formatPercent(0, locale)}`;
  const text = formatPercent(Math.abs(change), locale);
  return `${change > 0 ? '+' : '\u2212'}${text}`;
}

/**
 * The reading that follows the range's last data, while it is on its way: expected at `atMs`, and
 * late once that has passed. Null when the range has ended before it, or once it is overdue past
 * the grace the server gives it (LATE_GRACE_INTERVALS: then it counts as missing).
 */
export function nextReading(
  dataEnd: string | null,
  intervalMinutes: number,
  rangeEndMs: number,
  nowMs: number,
): { atMs: number; isLate: boolean } | null {
  if (dataEnd === null || intervalMinutes <= 0) return null;
  const intervalMs = intervalMinutes * 60_000;
  const atMs = Date.parse(dataEnd) + intervalMs;
  if (atMs > rangeEndMs || nowMs - atMs >= LATE_GRACE_INTERVALS * intervalMs) return null;
  return { atMs, isLate: nowMs > atMs };
}
