import { Group, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import type { Granularity } from '@cm/contracts/check.ts';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPeriod, formatUtcOffset } from '../model/local-format.ts';
import { useIsPhone } from '@/lib/use-is-phone.ts';
import { formatMoney } from '@/lib/format.ts';
import { perfMarks } from '../api.ts';
import type { ReadingRows } from '../model/reading-rows.ts';
import { sortRows, type SortDirection, type SortKey } from './row-order.ts';
import { formatRegister } from '../totals/totals.ts';
import {
  consumptionCell,
  consumptionText,
  demandCell,
  energyText,
  exportAndNet,
  rowNotes,
} from './row-notes.ts';
import { ToneBadge } from '@/components/tone-badge.tsx';
import { NoExportChannel } from '../ui/no-export-channel.tsx';
import classes from '../check.module.css';

/** One meter indicator's rows. */
export interface TableBlock {
  meterInd: number;
  rows: ReadingRows;
}

const ROW_HEIGHT = 44;
/** The scrolling box's size as its style sets it (max-height: 480px); its width plays no part. */
const TABLE_VIEW_RECT = { width: 0, height: 480 };

interface ReadingsTableProps {
  blocks: TableBlock[];
  granularity: Granularity;
  timeZone: string;
  unit: string;
  /** The bill's currency when the location has a tariff: a cost column. */
  currency: string | null;
  id: string;
}

/** Which columns the table has, decided once per answer and screen width. */
interface TableLayout {
  granularity: Granularity;
  timeZone: string;
  unit: string;
  isPhone: boolean;
  /** Several meter indicators: each row names its own. */
  hasMeterInd: boolean;
  hasMeterColumn: boolean;
  /** A meter with an export channel: import, export and net side by side (on a phone, under import). */
  hasExport: boolean;
  /** With a tariff: what each row's energy costs (on a phone, under the energy). */
  costCurrency: string | null;
  /** Meters with interval energies: each row's demand (raw) or peak demand (buckets), beside the energy. */
  hasDemand: boolean;
}

type TableSort = { key: SortKey; direction: SortDirection };

/**
 * Every row of the chart as a table: the accessible alternative to it. Virtualized (a year of
 * 15-minute readings is 35,040 rows), sortable, keyboard-scrollable; gaps are rows of their own.
 * Scrolling redraws the rows in view only: the head and each row are components of their own.
 */
export const ReadingsTable = memo(function ReadingsTable({
  blocks,
  granularity,
  timeZone,
  unit,
  currency,
  id,
}: ReadingsTableProps) {
  const { t } = useTranslation();
  const [sort, setSort] = useState<TableSort>({ key: 'time', direction: 'asc' });
  const order = useMemo(() => sortRows(blocks, sort.key, sort.direction), [blocks, sort]);
  const count = order.index.length;
  useEffect(() => {
    performance.mark(perfMarks.table);
  }, [blocks]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const isPhone = useIsPhone();
  const layout = useMemo<TableLayout>(() => {
    const hasMeterInd = blocks.length > 1;
    const hasMeterNumbers = blocks.some((block) => new Set(block.rows.meterNumber).size > 1);
    return {
      granularity,
      timeZone,
      unit,
      isPhone,
      hasMeterInd,
      hasMeterColumn: hasMeterInd || hasMeterNumbers,
      hasExport: blocks.some((block) => block.rows.exported !== null),
      costCurrency: blocks.some((block) => block.rows.cost !== null) ? currency : null,
      hasDemand: !isPhone && blocks.some((block) => block.rows.demand !== null),
    };
  }, [blocks, granularity, timeZone, unit, currency, isPhone]);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // The box's height (check.module.css, .tableScroll) before the browser has measured it: the
    // first render already holds the rows in view, instead of none and a second render from the
    // commit's measuring (one task React cannot slice, issue 38).
    initialRect: TABLE_VIEW_RECT,
  });
  const items = virtualizer.getVirtualItems();
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  // On a phone the meter and the notes go under the period: three columns fit 390 px.
  const columnCount =
    (isPhone ? 3 : 4 + (layout.hasMeterColumn ? 1 : 0) + (layout.hasExport ? 2 : 0)) +
    (layout.costCurrency && !isPhone ? 1 : 0) +
    (layout.hasDemand ? 1 : 0);

  return (
    <div
      ref={scrollRef}
      className={classes.tableScroll}
      tabIndex={0}
      role="region"
      aria-label={t('check.table.region', { count })}
      id={id}
    >
      <table className={classes.table} aria-rowcount={count + 1} data-testid="readings-table">
        <TableHead layout={layout} sort={sort} onSort={setSort} />
        <tbody>
          {paddingTop > 0 ? (
            <tr aria-hidden>
              <td colSpan={columnCount} style={{ height: paddingTop, padding: 0, border: 0 }} />
            </tr>
          ) : null}
          {items.map((item) => {
            const block = blocks[order.block[item.index] ?? -1];
            const i = order.index[item.index] ?? -1;
            if (!block || i < 0) return null;
            return (
              <ReadingRow
                key={item.key}
                block={block}
                i={i}
                position={item.index}
                layout={layout}
                measure={virtualizer.measureElement}
              />
            );
          })}
          {paddingBottom > 0 ? (
            <tr aria-hidden>
              <td colSpan={columnCount} style={{ height: paddingBottom, padding: 0, border: 0 }} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
});

interface TableHeadProps {
  layout: TableLayout;
  sort: TableSort;
  onSort: (sort: TableSort) => void;
}

/** The column heads; time, consumption and register sort the rows. */
const TableHead = memo(function TableHead({ layout, sort, onSort }: TableHeadProps) {
  const { t } = useTranslation();
  const { isPhone, hasExport, costCurrency, unit, granularity } = layout;

  function sortable(key: SortKey, label: string, align: 'start' | 'end' = 'start') {
    const isActive = sort.key === key;
    const Icon = !isActive ? IconArrowsSort : sort.direction === 'asc' ? IconArrowUp : IconArrowDown;
    return (
      <th
        aria-sort={isActive ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
        style={align === 'start' ? { textAlign: 'start' } : undefined}
        className={align === 'end' ? classes.num : undefined}
        scope="col"
      >
        <UnstyledButton
          className={classes.sortButton}
          onClick={() => onSort({ key, direction: isActive && sort.direction === 'asc' ? 'desc' : 'asc' })}
        >
          {label}
          <Icon size={14} aria-hidden />
        </UnstyledButton>
      </th>
    );
  }

  return (
    <thead>
      <tr aria-rowindex={1}>
        {layout.hasMeterColumn && !isPhone ? <th scope="col">{t('check.table.meter')}</th> : null}
        {sortable(
          'time',
          isPhone ? t('check.table.periodShort') : t('check.table.period', { zone: layout.timeZone }),
        )}
        {sortable(
          'consumption',
          isPhone && !hasExport
            ? unit
            : t(hasExport ? 'check.table.import' : 'check.table.consumption', { unit }),
          'end',
        )}
        {hasExport && !isPhone ? (
          <>
            <th scope="col" className={classes.num}>
              {t('check.table.export', { unit })}
            </th>
            <th scope="col" className={classes.num}>
              {t('check.table.net', { unit })}
            </th>
          </>
        ) : null}
        {costCurrency && !isPhone ? (
          <th scope="col" className={classes.num}>
            {t('check.table.cost', { currency: costCurrency })}
          </th>
        ) : null}
        {layout.hasDemand ? (
          <th scope="col" className={classes.num}>
            {t(granularity === 'raw' ? 'check.table.demand' : 'check.table.peakDemand')}
          </th>
        ) : null}
        {sortable('register', t('check.table.register'), 'end')}
        {isPhone ? null : <th scope="col">{t('check.table.notes')}</th>}
      </tr>
    </thead>
  );
});

interface ReadingRowProps {
  block: TableBlock;
  /** The row's index in its block's rows. */
  i: number;
  /** Its place in the sorted table. */
  position: number;
  layout: TableLayout;
  measure: (element: HTMLTableRowElement | null) => void;
}

/** One row: a reading, a bucket or a gap. */
const ReadingRow = memo(function ReadingRow({ block, i, position, layout, measure }: ReadingRowProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const { isPhone, hasExport, costCurrency, granularity, timeZone } = layout;
  const rows = block.rows;
  const start = rows.start[i] ?? 0;
  const end = rows.end[i] ?? 0;
  const register = rows.register[i] ?? null;
  const cell = consumptionCell(rows, i, granularity);
  const demand = layout.hasDemand ? demandCell(rows, i, granularity, locale, timeZone) : null;
  const meter = layout.hasMeterColumn
    ? `${layout.hasMeterInd ? `${block.meterInd} · ` : ''}${rows.meterNumber[i] ?? ''}`
    : null;
  const isFine = granularity === 'raw' || granularity === 'hour';
  const cost = rows.cost?.[i];
  const costText =
    cost === null || cost === undefined || costCurrency === null
      ? '—'
      : formatMoney(cost, costCurrency, locale, isFine);
  const notes = (
    <Group gap={4} wrap="wrap">
      {rowNotes(rows, i, granularity).map((note, n) => (
        <ToneBadge key={n} tone={note.tone} wrap>
          {t(note.key, note.values)}
        </ToneBadge>
      ))}
    </Group>
  );
  return (
    <tr
      ref={measure}
      data-index={position}
      aria-rowindex={position + 2}
      data-kind={rows.kind[i]}
      className={rows.kind[i] === 'gap' ? classes.gapRow : undefined}
      style={{ height: ROW_HEIGHT }}
    >
      {meter !== null && !isPhone ? <td className={classes.meterCell}>{meter}</td> : null}
      {isPhone ? (
        <td>
          <span className={classes.period}>
            {formatPeriod(start, end, granularity, locale, timeZone, true)}
          </span>
          {/* The offset and the meter each whole, on two lines where one is too narrow. */}
          <Text size="xs" c="dimmed">
            <span className={classes.nowrap}>{formatUtcOffset(start, timeZone)}</span>
            {meter === null ? null : (
              <>
                {' · '}
                <span className={classes.nowrap}>{meter}</span>
              </>
            )}
          </Text>
          {notes}
        </td>
      ) : (
        <td>
          <span className={classes.period}>{formatPeriod(start, end, granularity, locale, timeZone)}</span>{' '}
          <Text span size="xs" c="dimmed" className={classes.nowrap}>
            {formatUtcOffset(start, timeZone)}
          </Text>
        </td>
      )}
      <td className={classes.num}>
        {cell.kind === 'value' ? (
          consumptionText(cell, locale, t)
        ) : (
          <Text span c="dimmed" size="sm">
            {consumptionText(cell, locale, t)}
          </Text>
        )}
        {hasExport && isPhone ? (
          rows.exported === null ? (
            <Text size="xs" c="dimmed">
              {t('check.table.noExportChannel')}
            </Text>
          ) : (
            // Export and net on lines of their own: side by side they overflow a phone (issue 34.11).
            <>
              <Text size="xs" c="dimmed" className={classes.nowrap}>
                {t('check.table.exportLine', {
                  value: energyText(exportAndNet(rows, i).exported, locale, t),
                })}
              </Text>
              <Text size="xs" c="dimmed" className={classes.nowrap}>
                {t('check.table.netLine', {
                  value: energyText(exportAndNet(rows, i).net, locale, t),
                })}
              </Text>
            </>
          )
        ) : null}
        {costCurrency && isPhone ? (
          <Text size="xs" c="dimmed" className={classes.nowrap} data-testid="row-cost">
            {costText}
          </Text>
        ) : null}
      </td>
      {hasExport && !isPhone ? (
        <>
          <td className={classes.num}>
            {rows.exported === null ? (
              <NoExportChannel />
            ) : (
              energyText(exportAndNet(rows, i).exported, locale, t)
            )}
          </td>
          <td className={classes.num}>{energyText(exportAndNet(rows, i).net, locale, t)}</td>
        </>
      ) : null}
      {costCurrency && !isPhone ? (
        <td className={classes.num} data-testid="row-cost">
          {costText}
        </td>
      ) : null}
      {demand ? (
        <td className={classes.num} data-testid="row-demand">
          {demand.value}
          {demand.at === null ? null : (
            <Text size="xs" c="dimmed" className={classes.nowrap}>
              {demand.at}
            </Text>
          )}
        </td>
      ) : null}
      <td className={classes.num}>{register === null ? '—' : formatRegister(register, locale)}</td>
      {isPhone ? null : <td>{notes}</td>}
    </tr>
  );
});
