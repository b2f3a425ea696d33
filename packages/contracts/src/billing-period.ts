import { civilFromDays, daysFromCivil } from './zoned-time.ts';

/** A local date range, both ends included: `YYYY-MM-DD`. */
export interface LocalDateRange {
  from: string;
  to: string;
}

const text = (days: number) => {
  const { year, month, day } = civilFromDays(days);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
};

/**
 * The billing period holding local date `today`: from the last `billingDay` (1–28; null: the 1st,
 * calendar months) to the day before the next one. The one rule for the check page's "this bill so
 * far" and the server's "bill to date" alerts.
 */
export function billingPeriod(today: string, billingDay: number | null): LocalDateRange {
  const [year = 1970, month = 1, day = 1] = today.split('-').map(Number);
  const billing = billingDay ?? 1;
  // Months counted from year 0, so that a period starting in December ends in January.
  const start = year * 12 + (month - 1) - (day >= billing ? 0 : 1);
  const dayOf = (index: number) => daysFromCivil(Math.floor(index / 12), (index % 12) + 1, billing);
  const from = dayOf(start);
  const next = dayOf(start + 1);
  return { from: text(from), to: text(next - 1) };
}
