import type { LocationReadings } from '@cm/contracts/check.ts';
import type { TFunction } from 'i18next';
import { formatEnergy, formatMoney, formatPower } from '@/lib/format.ts';
import { formatPeriod } from '../model/local-format.ts';
import { rowsByEnd, rowsOf } from '../model/reading-rows.ts';
import { rowNotes } from '../table/row-notes.ts';
import { formatRegister } from '../totals/totals.ts';
import type { ChartTheme } from './chart-options.ts';
import classes from '../check.module.css';

/** One line of the chart's tooltip: a meter's energy (strong, in its colour), its cost, a note… */
export interface TooltipLine {
  text: string;
  color?: string;
  strong?: boolean;
}

interface TooltipOptions {
  locale: string;
  t: TFunction;
  /** One meter with an export channel: import, export and net. */
  hasExport: boolean;
  withRegister: boolean;
  theme: ChartTheme;
  /** The bill's currency; null: no cost lines. */
  currency: string | null;
  /** The price line's column (pricePerKwh), when it is drawn. */
  prices: readonly (number | null)[] | null;
}

/**
 * What the tooltip says of the row that ends at `x`: its period, then per meter its energy (with
 * export and net), demand, cost, price, register and notes; null when no row ends there.
 */
export function tooltipContent(
  readings: LocationReadings,
  x: number,
  options: TooltipOptions,
): { period: string; lines: TooltipLine[] } | null {
  const { locale, t, hasExport, withRegister, theme, currency, prices } = options;
  const { meters, granularity } = readings;
  const tz = readings.location.timeZone;
  const isSingle = meters.length === 1;
  const lines: TooltipLine[] = [];
  let period: string | null = null;
  rowsOf(readings).forEach((rows, b) => {
    const i = rowsByEnd(rows, granularity).get(x);
    if (i === undefined) return;
    period ??= formatPeriod(rows.start[i] ?? 0, rows.end[i] ?? 0, granularity, locale, tz);
    const consumption = rows.consumption[i] ?? null;
    const value = consumption === null ? t('check.chart.unknown') : formatEnergy(consumption, locale);
    lines.push({
      text: hasExport
        ? t('check.chart.importValue', { value })
        : isSingle
          ? value
          : `${meters[b]?.meterInd ?? ''} · ${value}`,
      color: theme.series[b % 7],
      strong: true,
    });
    if (rows.exported && rows.net) {
      const energy = (v: number | null) => (v === null ? t('check.chart.unknown') : formatEnergy(v, locale));
      lines.push({
        text: t('check.chart.exportValue', { value: energy(rows.exported[i] ?? null) }),
        color: theme.series[1],
        strong: true,
      });
      lines.push({
        text: t('check.chart.netValue', { value: energy(rows.net[i] ?? null) }),
        color: theme.net,
      });
    }
    const demand = rows.demand?.[i] ?? null;
    if (demand !== null)
      lines.push({
        text: t(granularity === 'raw' ? 'check.chart.demandValue' : 'check.chart.peakValue', {
          value: formatPower(demand, locale, rows.demandAtLeast[i] ?? false),
        }),
      });
    const cost = rows.cost?.[i] ?? null;
    if (cost !== null && currency !== null)
      lines.push({
        text: t('check.chart.costValue', {
          value: formatMoney(cost, currency, locale, granularity === 'raw' || granularity === 'hour'),
        }),
      });
    const price = prices?.[i] ?? null;
    if (price !== null && currency !== null)
      lines.push({
        text: t('check.chart.priceValue', { value: formatMoney(price, currency, locale, true) }),
        color: theme.price,
      });
    if (withRegister) {
      const register = rows.register[i] ?? null;
      if (register !== null)
        lines.push({ text: t('check.chart.registerValue', { value: formatRegister(register, locale) }) });
    }
    for (const note of rowNotes(rows, i, granularity)) lines.push({ text: t(note.key, note.values) });
  });
  return period === null ? null : { period, lines };
}

/** Writes the tooltip's period and lines into its element. */
export function showTooltip(element: HTMLElement, content: { period: string; lines: TooltipLine[] }): void {
  const { period, lines } = content;
  element.replaceChildren();
  const head = document.createElement('div');
  head.className = classes.tooltipHead ?? '';
  head.textContent = period;
  element.append(head);
  for (const line of lines) {
    const div = document.createElement('div');
    div.textContent = line.text;
    if (line.strong) div.style.fontWeight = '700';
    if (line.color) div.style.borderInlineStart = `3px solid ${line.color}`;
    if (line.color) div.style.paddingInlineStart = '6px';
    element.append(div);
  }
}
