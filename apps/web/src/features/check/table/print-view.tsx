import type { Granularity } from '@cm/contracts/check.ts';
import { localParts } from '@cm/contracts/zoned-time.ts';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@/lib/format.ts';
import { formatLocal, formatPeriod, formatUtcOffset } from '../model/local-format.ts';
import type { ReadingRows } from '../model/reading-rows.ts';
import { consumptionCell, consumptionText, energyText, exportAndNet, rowNotes } from './row-notes.ts';
import { formatRegister } from '../totals/totals.ts';
import classes from '../check.module.css';

interface PrintViewProps {
  title: string;
  subtitle: string;
  /** "Check Meter · printed 26 Nov 2026, 02:56 (UTC+01:00)": on every page. */
  printed: string;
  rows: ReadingRows;
  granularity: Granularity;
  timeZone: string;
  unit: string;
  /** The bill's currency when the location has a tariff: a cost column. */
  currency: string | null;
}

/** Row indices grouped by local month: with daily data each group is one A4 page. */
export function groupByMonth(rows: ReadingRows, timeZone: string): number[][] {
  const groups: number[][] = [];
  let key = '';
  for (let i = 0; i < rows.start.length; i++) {
    const p = localParts(rows.start[i] ?? 0, timeZone);
    const next = `${p.year}-${p.month}`;
    if (next !== key) {
      groups.push([]);
      key = next;
    }
    groups[groups.length - 1]?.push(i);
  }
  return groups;
}

/** The readings as printed pages: one table per local month (CSS starts each on a new page). Screen: hidden. */
export function PrintView({
  title,
  subtitle,
  printed,
  rows,
  granularity,
  timeZone,
  unit,
  currency,
}: PrintViewProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const groups = groupByMonth(rows, timeZone);
  const hasExport = rows.exported !== null;
  const costCurrency = rows.cost !== null ? currency : null;
  const isFine = granularity === 'raw' || granularity === 'hour';
  return (
    <div className={classes.printOnly}>
      {groups.map((group, g) => (
        <section key={g} className={classes.printPage}>
          <h2 className={classes.printTitle}>
            {title} · {formatLocal(rows.start[group[0] ?? 0] ?? 0, locale, timeZone, 'month')}
          </h2>
          <p className={classes.printSubtitle}>{subtitle}</p>
          <p className={classes.printSubtitle} data-testid="print-printed">
            {printed}
          </p>
          <table className={classes.printTable}>
            <thead>
              <tr>
                <th scope="col">{t('check.table.period', { zone: timeZone })}</th>
                <th scope="col">
                  {t(hasExport ? 'check.table.import' : 'check.table.consumption', { unit })}
                </th>
                {hasExport ? (
                  <>
                    <th scope="col">{t('check.table.export', { unit })}</th>
                    <th scope="col">{t('check.table.net', { unit })}</th>
                  </>
                ) : null}
                {costCurrency ? (
                  <th scope="col">{t('check.table.cost', { currency: costCurrency })}</th>
                ) : null}
                <th scope="col">{t('check.table.register')}</th>
                <th scope="col">{t('check.table.notes')}</th>
              </tr>
            </thead>
            <tbody>
              {group.map((i) => {
                const register = rows.register[i] ?? null;
                const cell = consumptionCell(rows, i, granularity);
                const notes = rowNotes(rows, i, granularity).map((note) => t(note.key, note.values));
                return (
                  <tr key={i}>
                    <td>
                      {formatPeriod(rows.start[i] ?? 0, rows.end[i] ?? 0, granularity, locale, timeZone)}{' '}
                      {formatUtcOffset(rows.start[i] ?? 0, timeZone)}
                    </td>
                    <td className={classes.num}>{consumptionText(cell, locale, t)}</td>
                    {hasExport ? (
                      <>
                        <td className={classes.num}>
                          {energyText(exportAndNet(rows, i).exported, locale, t)}
                        </td>
                        <td className={classes.num}>{energyText(exportAndNet(rows, i).net, locale, t)}</td>
                      </>
                    ) : null}
                    {costCurrency ? (
                      <td className={classes.num}>
                        {rows.cost?.[i] === null || rows.cost?.[i] === undefined
                          ? '—'
                          : formatMoney(rows.cost[i] ?? 0, costCurrency, locale, isFine)}
                      </td>
                    ) : null}
                    <td className={classes.num}>
                      {register === null ? '—' : formatRegister(register, locale)}
                    </td>
                    <td>{notes.join(' · ')}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  );
}
