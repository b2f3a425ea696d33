import type { Granularity } from '@cm/contracts/check.ts';
import { formatNumber } from '@/lib/format.ts';
import type { ReadingRows } from '../model/reading-rows.ts';
import { formatLocal } from '../model/local-format.ts';
import type { Tone } from '@/components/tone-badge.tsx';

/** A note on a row: a translation key with its values, and the tone of its badge. */
export interface RowNote {
  key: string;
  values: Record<string, string | number>;
  tone: Tone;
}

/** What the consumption cell of a row shows: a number, or why there is none. */
export type ConsumptionCell =
  | { kind: 'value'; value: number }
  | { kind: 'unknown' }
  | { kind: 'inBucket'; key: string }
  | { kind: 'none' };

/** Hours of a bucket that has no clock change: a DST day or week differs from it. */
const NOMINAL_HOURS: Partial<Record<Granularity, number>> = { day: 24, week: 168 };

/**
 * The notes of row `i`, in the order the table shows them: the gap or missing readings, events
 * (meter exchange, rollover, register decrease), estimated, substituted and corrected values, a
 * bucket only partly in view (begun before the range, or still going), a DST day or week. The table
 * shows them as badges and the print view as text, so both say the same.
 */
export function rowNotes(rows: ReadingRows, i: number, granularity: Granularity): RowNote[] {
  const notes: RowNote[] = [];
  const missing = rows.missing[i] ?? 0;
  if (rows.kind[i] === 'gap') {
    const hasEnergy = (rows.consumption[i] ?? null) !== null;
    notes.push({
      key: hasEnergy ? 'check.table.gapWithEnergy' : 'check.table.gap',
      values: { count: missing },
      tone: 'red',
    });
  } else if (rows.kind[i] === 'period') {
    notes.push({ key: 'check.table.billingPeriod', values: {}, tone: 'grape' });
  } else if (missing > 0) {
    notes.push({ key: 'check.table.missing', values: { count: missing }, tone: 'red' });
  }
  for (const event of rows.events.get(i) ?? []) {
    notes.push({
      key: `check.table.event.${event.type}`,
      values: { meterNumber: event.meterNumber },
      tone: event.type === 'meterExchange' ? 'outline' : 'orange',
    });
  }
  const estimated = rows.estimated[i] ?? 0;
  if (estimated > 0)
    notes.push({ key: 'check.table.estimated', values: { count: estimated }, tone: 'yellow' });
  const substituted = rows.substituted[i] ?? 0;
  if (substituted > 0)
    notes.push({ key: 'check.table.substituted', values: { count: substituted }, tone: 'yellow' });
  const corrected = rows.corrected[i] ?? 0;
  if (corrected > 0) notes.push({ key: 'check.table.corrected', values: { count: corrected }, tone: 'gray' });
  const partial = rows.partial.get(i);
  if (partial) notes.push({ key: `check.table.partial.${partial}`, values: {}, tone: 'outline' });
  if (rows.repeated.has(i)) notes.push({ key: 'check.table.repeatedHour', values: {}, tone: 'grape' });
  const hours = rows.hours[i] ?? null;
  const nominal = NOMINAL_HOURS[granularity];
  if (hours !== null && nominal !== undefined && hours !== nominal) {
    notes.push({
      key: granularity === 'week' ? 'check.table.weekHours' : 'check.table.hours',
      values: { count: hours },
      tone: 'grape',
    });
  }
  return notes;
}

/** The consumption cell of row `i`: a gap inside a bucket has its energy in that bucket's row. */
export function consumptionCell(rows: ReadingRows, i: number, granularity: Granularity): ConsumptionCell {
  const value = rows.consumption[i] ?? null;
  if (value !== null) return { kind: 'value', value };
  if (rows.kind[i] !== 'gap') return { kind: 'none' };
  if (rows.inBucket[i] === true) return { kind: 'inBucket', key: `check.table.inBucket.${granularity}` };
  return { kind: 'unknown' };
}

/** The consumption cell as text: three decimals (to the Wh), or the translated reason there is none. */
export function consumptionText(cell: ConsumptionCell, locale: string, t: (key: string) => string): string {
  if (cell.kind === 'value')
    return formatNumber(cell.value, locale, { minimumFractionDigits: 3, maximumFractionDigits: 3 });
  if (cell.kind === 'inBucket') return t(cell.key);
  return cell.kind === 'unknown' ? t('check.table.unknown') : '—';
}

/** An export or net cell: three decimals, "unknown" where that channel has no value, "—" for no export channel. */
export function energyText(
  value: number | null | 'none',
  locale: string,
  t: (key: string) => string,
): string {
  if (value === 'none') return '—';
  return value === null ? t('check.table.unknown') : consumptionText({ kind: 'value', value }, locale, t);
}

/**
 * A row's export and net beside meters that have an export channel (issue 34): a meter with one,
 * its values (null: unknown); a meter without one exports nothing it could measure ('none', not
 * "unknown") and its net is its import.
 */
export function exportAndNet(
  rows: ReadingRows,
  i: number,
): { exported: number | null | 'none'; net: number | null } {
  if (rows.exported === null) return { exported: 'none', net: rows.consumption[i] ?? null };
  return { exported: rows.exported[i] ?? null, net: rows.net?.[i] ?? null };
}

/**
 * A row's demand cell: the number in kW ("≥ " where the bucket's peak is only a lower bound, '—'
 * where unknown) and, for buckets, when the peak interval started in the location's time (the
 * time of day for hours and days, the date too for weeks and months).
 */
export function demandCell(
  rows: ReadingRows,
  i: number,
  granularity: Granularity,
  locale: string,
  timeZone: string,
): { value: string; at: string | null } {
  const kW = rows.demand?.[i] ?? null;
  if (kW === null) return { value: '—', at: null };
  const isAtLeast = rows.demandAtLeast[i] ?? false;
  const value = `${isAtLeast ? '≥\u00a0' : ''}${formatNumber(kW, locale, { maximumFractionDigits: 3 })}`;
  const at = rows.demandAt?.[i] ?? null;
  if (granularity === 'raw' || at === null) return { value, at: null };
  const style = granularity === 'hour' || granularity === 'day' ? 'time' : 'shortDateTime';
  return { value, at: formatLocal(at, locale, timeZone, style) };
}
