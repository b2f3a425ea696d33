import type { Totals } from '@cm/contracts/check.ts';
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
