import {
  Alert,
  Anchor,
  Button,
  Group,
  NativeSelect,
  Paper,
  SegmentedControl,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useComputedColorScheme } from '@mantine/core';
import { IconDownload, IconInfoCircle, IconPrinter, IconZoomReset } from '@tabler/icons-react';
import type { LocationReadings, MeterReadings } from '@cm/contracts/check.ts';
import { formatOffset } from '@cm/contracts/zoned-time.ts';
import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { formatEnergy, formatNumber } from '@/lib/format.ts';
import { buildChartData, chartThemes, type ChartMarkers } from './chart-options.ts';
import { defaultCsvFormat, type CsvFormat } from './csv.ts';
import type { DateRange } from './date-range.ts';
import { formatDateRange, formatIsoInZone, formatLocal, formatPeriod, formatSpan } from './local-format.ts';
import { buildRows, type ReadingRows } from './reading-rows.ts';
import { ReadingsChart, type TooltipWriter } from './readings-chart.tsx';
import { formatRegister } from './totals.ts';
import { TotalsPanel, type ComparisonTotal } from './totals-panel.tsx';
import { offsetChanges } from './zoned-time.ts';
import classes from './check.module.css';

const ReadingsTable = lazy(() =>
  import('./readings-table.tsx').then((module) => ({ default: module.ReadingsTable })),
);
const PrintView = lazy(() => import('./print-view.tsx').then((module) => ({ default: module.PrintView })));

const TABLE_ID = 'cm-readings-table';
const BARS_MAX_POINTS = 1500;

interface ReadingsSectionProps {
  readings: LocationReadings;
  range: DateRange;
  comparisons: ComparisonTotal[];
  /** Meter number or location name, for the CSV file name and the print title. */
  subject: string;
  /** Shows the whole location's meters (several blocks) rather than one. */
  onPickMeter: (meterInd: number) => void;
}

interface Block {
  meterInd: number;
  meter: MeterReadings;
  rows: ReadingRows;
}

function useMarkers(readings: LocationReadings, blocks: Block[]): ChartMarkers {
  const { t } = useTranslation();
  return useMemo(() => {
    const fromMs = Date.parse(readings.from);
    const toMs = Date.parse(readings.to);
    const tz = readings.location.timeZone;
    const dst = offsetChanges(fromMs, toMs, tz).map((change) => ({
      at: change.at,
      label: t('check.chart.dst', { hours: 24 + (change.fromOffset - change.toOffset) / 60 }),
      from: change.fromOffset,
      to: change.toOffset,
    }));
    const events: ChartMarkers['events'] = [];
    const gaps: ChartMarkers['gaps'] = [];
    for (const block of blocks) {
      for (const event of block.meter.events) {
        if (event.type === 'meterExchange')
          events.push({
            at: Date.parse(event.at),
            label: t('check.chart.exchange', { meterNumber: event.meterNumber }),
          });
        if (event.type === 'rollover')
          events.push({ at: Date.parse(event.at), label: t('check.chart.rollover') });
      }
      for (const gap of block.meter.gaps) gaps.push({ from: Date.parse(gap.from), to: Date.parse(gap.to) });
    }
    return { dst, events, gaps };
  }, [readings, blocks, t]);
}

/** Finds a block's interval row ending at x (the chart's x values are row ends). */
function indexByEnd(rows: ReadingRows): Map<number, number> {
  const map = new Map<number, number>();
  for (let i = 0; i < rows.end.length; i++) if (rows.kind[i] !== 'gap') map.set(rows.end[i] ?? 0, i);
  return map;
}

/** Chart, totals, events, table, export and print for one answer of the readings call. */
export function ReadingsSection({
  readings,
  range,
  comparisons,
  subject,
  onPickMeter,
}: ReadingsSectionProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const scheme = useComputedColorScheme('light');
  const tz = readings.location.timeZone;
  const toMs = Date.parse(readings.to);
  const blocks = useMemo<Block[]>(
    () =>
      readings.meters.map((meter) => ({
        meterInd: meter.meterInd,
        meter,
        rows: buildRows(meter, readings.granularity, toMs),
      })),
    [readings, toMs],
  );
  // The table (35k rows to sort on a year of readings) renders after the chart has drawn.
  const tableBlocks = useDeferredValue<Block[] | null>(blocks, null);
  const isSingle = blocks.length === 1;
  const first = blocks[0];
  const unit = first?.meter.meter.unit ?? 'kWh';
  const pointCount = first?.rows.start.length ?? 0;
  const [mode, setMode] = useState<'bars' | 'line' | null>(null);
  const chartMode = mode ?? (pointCount > BARS_MAX_POINTS || !isSingle ? 'line' : 'bars');
  const [showRegister, setShowRegister] = useState(false);
  const withRegister = isSingle && showRegister;
  const [isZoomed, setZoomed] = useState(false);
  const resetRef = useRef<(() => void) | null>(null);
  const [isPrinting, setPrinting] = useState(false);
  const [csvChoice, setCsvFormat] = useState<CsvFormat | null>(null);
  const csvFormat = csvChoice ?? defaultCsvFormat(locale);
  const [exported, setExported] = useState<string | null>(null);

  // The browser's own print command gets the print view too.
  useEffect(() => {
    const before = () => flushSync(() => setPrinting(true));
    const after = () => setPrinting(false);
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
    };
  }, []);

  const seriesLabels = useMemo(
    () =>
      blocks.map((block) =>
        isSingle
          ? t('check.chart.consumption', { unit })
          : t('check.chart.meterSeries', {
              meterInd: block.meterInd,
              meterNumber: block.meter.meter.meterNumber,
            }),
      ),
    [blocks, isSingle, t, unit],
  );
  const seriesKey = seriesLabels.join('|');
  const spec = useMemo(
    () => ({
      timeZone: tz,
      locale,
      granularity: readings.granularity,
      mode: chartMode,
      seriesLabels: seriesKey.split('|'),
      registerLabel: withRegister ? t('check.chart.register') : null,
      unit,
      theme: chartThemes[scheme],
      formatNumber: (value: number) => formatNumber(value, locale, { maximumFractionDigits: 2 }),
    }),
    [tz, locale, readings.granularity, chartMode, seriesKey, withRegister, t, unit, scheme],
  );
  const columns = useMemo(
    () =>
      buildChartData(
        blocks.map((block) => block.rows),
        withRegister ? { opening: first?.meter.totals.registerStart ?? null } : null,
      ),
    [blocks, withRegister, first],
  );
  const markers = useMarkers(readings, blocks);
  const data = columns.data;
  // One meter: each point knows its row. Several: rows are found by their end (x).
  const lookups = useMemo(
    () => (isSingle ? null : blocks.map((block) => indexByEnd(block.rows))),
    [blocks, isSingle],
  );

  const writeTooltip = useCallback<TooltipWriter>(
    (index, x, element) => {
      if (index === null || x === null) return false;
      element.replaceChildren();
      const lines: { text: string; color?: string; strong?: boolean }[] = [];
      let period: string | null = null;
      blocks.forEach((block, b) => {
        const i = isSingle ? columns.rowOf?.[index] : lookups?.[b]?.get(x);
        if (i === undefined || i < 0) return;
        const rows = block.rows;
        period ??= formatPeriod(rows.start[i] ?? 0, rows.end[i] ?? 0, readings.granularity, locale, tz);
        const consumption = rows.consumption[i] ?? null;
        const value = consumption === null ? t('check.chart.unknown') : formatEnergy(consumption, locale);
        lines.push({
          text: isSingle ? value : `${block.meterInd} · ${value}`,
          color: chartThemes[scheme].series[b % 7],
          strong: true,
        });
        if (withRegister) {
          const register = rows.register[i] ?? null;
          if (register !== null)
            lines.push({ text: t('check.chart.registerValue', { value: formatRegister(register, locale) }) });
        }
        const estimated = rows.estimated[i] ?? 0;
        const missing = rows.missing[i] ?? 0;
        if (missing > 0) lines.push({ text: t('check.table.missing', { count: missing }) });
        if (estimated > 0) lines.push({ text: t('check.table.estimated', { count: estimated }) });
        const hours = rows.hours[i] ?? null;
        if (hours !== null && readings.granularity === 'day' && hours !== 24)
          lines.push({ text: t('check.table.hours', { count: hours }) });
      });
      if (period === null) return false;
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
      return true;
    },
    [blocks, columns, lookups, readings.granularity, locale, tz, t, isSingle, withRegister, scheme],
  );

  const rangeText = formatDateRange(range.from, range.to, locale);
  const hasReadings = blocks.some((block) => block.meter.totals.readings > 0);

  async function handleExport() {
    const { downloadCsv } = await import('./export-csv.ts');
    const filename = downloadCsv(
      {
        blocks: blocks.map((block) => ({ meterInd: block.meterInd, rows: block.rows })),
        granularity: readings.granularity,
        timeZone: tz,
        unit,
        subject,
        from: range.from,
        to: range.to,
        format: csvFormat,
      },
      t,
    );
    setExported(filename);
  }

  function handlePrint() {
    flushSync(() => setPrinting(true));
    window.print();
  }

  if (!first) return null;

  if (!hasReadings) {
    const complete = first.meter.meter.completeUpTo;
    return (
      <Alert
        variant="light"
        color="blue"
        icon={<IconInfoCircle aria-hidden />}
        title={t('check.empty.title')}
        data-testid="empty-state"
      >
        {complete === null
          ? t('check.empty.noData', { range: rangeText })
          : t('check.empty.text', { range: rangeText, completeUpTo: formatIsoInZone(complete, locale, tz) })}
      </Alert>
    );
  }

  const totalsOf = (block: Block) => block.meter.totals;
  const chartSummary = isSingle
    ? t('check.chart.ariaSingle', {
        meterNumber: first.meter.meter.meterNumber,
        range: rangeText,
        consumption:
          first.meter.totals.consumption === null
            ? t('check.chart.unknown')
            : formatEnergy(first.meter.totals.consumption, locale),
      })
    : t('check.chart.ariaAll', { count: blocks.length, range: rangeText });
  const allEvents = blocks.flatMap((block) =>
    block.meter.events.map((event) => ({ ...event, meterInd: block.meterInd })),
  );
  const allGaps = blocks.flatMap((block) =>
    block.meter.gaps.map((gap) => ({ ...gap, meterInd: block.meterInd })),
  );

  return (
    <Stack gap="md">
      {isSingle ? (
        <TotalsPanel
          totals={first.meter.totals}
          timeZone={tz}
          multiplier={first.meter.meter.multiplier}
          meterNumbers={first.meter.meterNumbers}
          comparisons={comparisons}
        />
      ) : (
        <Paper
          withBorder
          p="md"
          radius="md"
          component="section"
          aria-labelledby="cm-meters-title"
          className={classes.panel}
        >
          <Title order={2} size="h4" id="cm-meters-title" mb="sm">
            {t('check.all.title', { location: readings.location.publicName })}
          </Title>
          <Table.ScrollContainer minWidth={560}>
            <Table striped highlightOnHover data-testid="meters-summary">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('check.all.meter')}</Table.Th>
                  <Table.Th scope="col" ta="end">
                    {t('check.totals.consumption')}
                  </Table.Th>
                  <Table.Th scope="col" ta="end">
                    {t('check.totals.averagePerDay')}
                  </Table.Th>
                  <Table.Th scope="col" ta="end">
                    {t('check.totals.missing')}
                  </Table.Th>
                  <Table.Th scope="col">{t('check.all.check')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {blocks.map((block) => (
                  <Table.Tr key={block.meterInd}>
                    <Table.Td>
                      <Anchor component="button" type="button" onClick={() => onPickMeter(block.meterInd)}>
                        {t('check.lookup.meterOption', {
                          meterInd: block.meterInd,
                          meterNumber: block.meter.meter.meterNumber,
                        })}
                      </Anchor>
                    </Table.Td>
                    <Table.Td ta="end">
                      {totalsOf(block).consumption === null
                        ? '—'
                        : formatEnergy(totalsOf(block).consumption ?? 0, locale)}
                    </Table.Td>
                    <Table.Td ta="end">
                      {totalsOf(block).averagePerDay === null
                        ? '—'
                        : formatEnergy(totalsOf(block).averagePerDay ?? 0, locale)}
                    </Table.Td>
                    <Table.Td ta="end">{formatNumber(totalsOf(block).missingIntervals, locale)}</Table.Td>
                    <Table.Td>
                      {totalsOf(block).registerDifference === null
                        ? '—'
                        : totalsOf(block).agrees
                          ? t('check.totals.agreesShort')
                          : t('check.totals.differsShort')}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}

      <Paper
        withBorder
        p="md"
        radius="md"
        component="section"
        aria-labelledby="cm-chart-title"
        className={`${classes.panel} ${classes.chartPanel}`}
      >
        <Group justify="space-between" align="center" mb="xs" gap="xs" className={classes.noPrint}>
          <Title order={2} size="h4" id="cm-chart-title">
            {t('check.chart.title')}
          </Title>
          <Group gap="sm" wrap="wrap">
            <SegmentedControl
              size="xs"
              value={chartMode}
              onChange={(value) => setMode(value === 'line' ? 'line' : 'bars')}
              data={[
                { value: 'bars', label: t('check.chart.bars') },
                { value: 'line', label: t('check.chart.line') },
              ]}
              aria-label={t('check.chart.style')}
            />
            {isSingle ? (
              <Switch
                size="sm"
                checked={showRegister}
                onChange={(event) => setShowRegister(event.currentTarget.checked)}
                label={t('check.chart.showRegister')}
              />
            ) : null}
            <Button
              size="xs"
              variant="default"
              leftSection={<IconZoomReset size={14} aria-hidden />}
              onClick={() => resetRef.current?.()}
              disabled={!isZoomed}
            >
              {t('check.chart.resetZoom')}
            </Button>
          </Group>
        </Group>
        <Text size="xs" c="dimmed" className={classes.noPrint}>
          {t('check.chart.hint')}{' '}
          <Anchor href={`#${TABLE_ID}`} size="xs" underline="always">
            {t('check.chart.toTable')}
          </Anchor>
        </Text>
        <ReadingsChart
          spec={spec}
          data={data}
          markers={markers}
          height={320}
          ariaLabel={chartSummary}
          writeTooltip={writeTooltip}
          onZoomChange={setZoomed}
          resetRef={resetRef}
        />
        <ul className={classes.legend} aria-label={t('check.chart.legend')}>
          {seriesLabels.map((label, index) => (
            <li key={label}>
              <span
                className={classes.swatch}
                style={{ background: chartThemes[scheme].series[index % 7] }}
                aria-hidden
              />
              {label}
            </li>
          ))}
          {withRegister ? (
            <li>
              <span
                className={classes.swatchLine}
                style={{ borderColor: chartThemes[scheme].register }}
                aria-hidden
              />
              {t('check.chart.register')}
            </li>
          ) : null}
          {markers.gaps.length > 0 ? (
            <li>
              <span
                className={classes.swatch}
                style={{
                  background: chartThemes[scheme].gapFill,
                  outline: `1px solid ${chartThemes[scheme].event}`,
                }}
                aria-hidden
              />
              {t('check.chart.legendGap')}
            </li>
          ) : null}
          {markers.dst.length > 0 ? (
            <li>
              <span
                className={classes.swatchDash}
                style={{ borderColor: chartThemes[scheme].dst }}
                aria-hidden
              />
              {t('check.chart.legendDst')}
            </li>
          ) : null}
          {markers.events.length > 0 ? (
            <li>
              <span
                className={classes.swatchLine}
                style={{ borderColor: chartThemes[scheme].event }}
                aria-hidden
              />
              {t('check.chart.legendEvent')}
            </li>
          ) : null}
        </ul>
      </Paper>

      {allEvents.length > 0 || allGaps.length > 0 || markers.dst.length > 0 ? (
        <Paper
          withBorder
          p="md"
          radius="md"
          component="section"
          aria-labelledby="cm-notes-title"
          className={classes.panel}
        >
          <Title order={2} size="h4" id="cm-notes-title" mb="xs">
            {t('check.notes.title')}
          </Title>
          <ul className={classes.notes} data-testid="notes">
            {markers.dst.map((dst) => (
              <li key={`dst-${dst.at}`}>
                {t('check.notes.dst', {
                  at: formatLocal(dst.at, locale, tz),
                  from: `UTC${formatOffset(dst.from)}`,
                  to: `UTC${formatOffset(dst.to)}`,
                  hours: 24 + (dst.from - dst.to) / 60,
                })}
              </li>
            ))}
            {allEvents.map((event, index) => (
              <li key={`event-${index}`} data-event={event.type}>
                {t(`check.notes.event.${event.type}`, {
                  at: formatIsoInZone(event.at, locale, tz),
                  meterNumber: event.meterNumber,
                  meterInd: event.meterInd,
                })}
              </li>
            ))}
            {allGaps.map((gap, index) => (
              <li key={`gap-${index}`} data-gap>
                {gap.consumption === null
                  ? t('check.notes.gapUnknown', {
                      count: gap.missingIntervals,
                      ...formatSpan(gap.from, gap.to, locale, tz),
                    })
                  : t('check.notes.gap', {
                      count: gap.missingIntervals,
                      ...formatSpan(gap.from, gap.to, locale, tz),
                      energy: formatEnergy(gap.consumption, locale),
                    })}
              </li>
            ))}
          </ul>
        </Paper>
      ) : null}

      <Paper
        withBorder
        p="md"
        radius="md"
        component="section"
        aria-labelledby="cm-table-title"
        className={`${classes.panel} ${classes.noPrint}`}
      >
        <Group justify="space-between" align="flex-end" mb="sm" gap="sm" className={classes.noPrint}>
          <div>
            <Title order={2} size="h4" id="cm-table-title">
              {t('check.table.title')}
            </Title>
            <Text size="xs" c="dimmed">
              {t('check.table.inZone', { timeZone: tz })}
            </Text>
          </div>
          <Group gap="xs" align="flex-end" wrap="wrap">
            <NativeSelect
              size="xs"
              label={t('check.csv.format')}
              value={`${csvFormat.separator}${csvFormat.decimal}`}
              onChange={(event) =>
                setCsvFormat(
                  event.currentTarget.value === ';,'
                    ? { separator: ';', decimal: ',' }
                    : { separator: ',', decimal: '.' },
                )
              }
              data={[
                { value: ',.', label: t('check.csv.formatComma') },
                { value: ';,', label: t('check.csv.formatSemicolon') },
              ]}
            />
            <Button
              size="xs"
              leftSection={<IconDownload size={14} aria-hidden />}
              onClick={() => void handleExport()}
              data-testid="export-csv"
            >
              {t('check.csv.export')}
            </Button>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconPrinter size={14} aria-hidden />}
              onClick={handlePrint}
            >
              {t('check.print.button')}
            </Button>
          </Group>
        </Group>
        {exported ? (
          <Text size="xs" c="dimmed" role="status" className={classes.noPrint}>
            {t('check.csv.done', { filename: exported })}
          </Text>
        ) : null}
        <div className={classes.noPrint}>
          <Suspense fallback={<Skeleton height={320} />}>
            {tableBlocks ? (
              <ReadingsTable
                id={TABLE_ID}
                blocks={tableBlocks}
                granularity={readings.granularity}
                timeZone={tz}
                unit={unit}
              />
            ) : (
              <Skeleton height={320} />
            )}
          </Suspense>
        </div>
      </Paper>
      {isPrinting && isSingle ? (
        <Suspense fallback={null}>
          <PrintView
            title={subject}
            subtitle={t('check.print.subtitle', {
              location: readings.location.publicName,
              range: rangeText,
              timeZone: tz,
            })}
            rows={first.rows}
            granularity={readings.granularity}
            timeZone={tz}
            unit={unit}
          />
        </Suspense>
      ) : null}
    </Stack>
  );
}

/** The chart's and totals' shape while they load. */
export function ReadingsSkeleton() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" aria-busy="true" aria-label={t('check.loading')}>
      <Paper withBorder p="md" radius="md">
        <Skeleton height={20} width="30%" mb="md" />
        <Skeleton height={60} />
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Skeleton height={20} width="20%" mb="md" />
        <Skeleton height={300} />
      </Paper>
    </Stack>
  );
}
