import { Alert, Skeleton, Stack } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { LocationReadings } from '@cm/contracts/check.ts';
import { lazy, memo, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatEnergy } from '@/lib/format.ts';
import { useValueAfterCommit } from '@/lib/use-after-commit.ts';
import { ChartPanel } from './chart/chart-panel.tsx';
import { answerRange } from './model/date-range.ts';
import type { ChartView } from './model/url-state.ts';
import { formatDateRange, formatIsoInZone } from './model/local-format.ts';
import { MetersSummary } from './totals/meters-summary.tsx';
import { correctedMeter } from './totals/corrected.ts';
import { NotesPanel } from './totals/notes-panel.tsx';
import { TablePanel } from './table/table-panel.tsx';
import type { ComparisonTotal } from './totals/comparison-tiles.tsx';
import { TotalsPanel } from './totals/totals-panel.tsx';
import { BillPanel } from './totals/bill-panel.tsx';
import { MonthlyPeaksPanel } from './totals/monthly-peaks-panel.tsx';
import { peaksQueryOf } from './totals/peaks-query.ts';
import { locationBill } from './model/bill.ts';
import { locationCarbon } from './model/location-carbon.ts';
import { CarbonPanel } from './totals/carbon-panel.tsx';
import { SecondaryPanels } from './totals/secondary-panels.tsx';
import classes from './check.module.css';

const TABLE_ID = 'cm-readings-table';
// Few answers hold corrected values: the panel that lists them loads when one does.
const CorrectionsPanel = lazy(() =>
  import('./totals/corrections-panel.tsx').then((module) => ({ default: module.CorrectionsPanel })),
);

interface ReadingsSectionProps {
  readings: LocationReadings;
  comparisons: ComparisonTotal[];
  /** Meter number or location name, for the CSV file name and the print title. */
  subject: string;
  /** Shows the whole location's meters (several blocks) rather than one. */
  onPickMeter: (meterInd: number) => void;
  chartView: ChartView;
  onChartViewChange: (change: Partial<ChartView>) => void;
}

/**
 * Totals, chart, notes, table, export and print for one answer of the readings call. Each panel
 * is a memo component and re-renders only when what it shows changes (a comparison arriving
 * redraws the totals alone; the later copy of the answer below the chart redraws nothing above).
 * The totals, the cost, the emissions and the chart come first; everything below the chart (notes,
 * the panels with figures of their own, the table) follows the answer one commit later, so it
 * renders in a commit of its own once the chart's is done (on a phone the two together were one
 * task), marked busy until it shows the answer above it. The section itself renders again only
 * when its props do (sameSectionProps): the check page renders for every answer it hears of, the
 * bill's and the meter's included (issue 38).
 */
export const ReadingsSection = memo(function ReadingsSection({
  readings,
  comparisons,
  subject,
  onPickMeter,
  chartView,
  onChartViewChange,
}: ReadingsSectionProps) {
  const { t, i18n } = useTranslation();
  // Everything below the chart: one commit after the chart's (useValueAfterCommit).
  const below = useValueAfterCommit(readings);
  const isBehind = below !== readings;
  const locale = i18n.language;
  const tz = readings.location.timeZone;
  const answered = answerRange(readings);
  // The panels are memo components: what they are given stays the same object while it means the same.
  const bill = useMemo(() => locationBill(readings.meters), [readings.meters]);
  const peaksQuery = useMemo(() => (below ? peaksQueryOf(below) : null), [below]);
  const siteCarbon = useMemo(
    () => (readings.meters.length === 1 ? null : locationCarbon(readings.meters)),
    [readings.meters],
  );
  const first = readings.meters[0];
  if (!first) return null;
  const rangeText = formatDateRange(answered.from, answered.to, locale);

  if (!readings.meters.some((meter) => meter.totals.readings > 0)) {
    const complete = first.meter.completeUpTo;
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

  const isSingle = readings.meters.length === 1;
  const chartSummary = isSingle
    ? t('check.chart.ariaSingle', {
        meterNumber: first.meter.meterNumber,
        range: rangeText,
        consumption:
          first.totals.consumption === null
            ? t('check.chart.unknown')
            : formatEnergy(first.totals.consumption, locale),
      })
    : t('check.chart.ariaAll', { count: readings.meters.length, range: rangeText });

  return (
    <Stack gap="md">
      {isSingle ? (
        <TotalsPanel
          totals={first.totals}
          timeZone={tz}
          multiplier={first.meter.multiplier}
          meterNumbers={first.meterNumbers}
          comparisons={comparisons}
          intervalMinutes={first.meter.intervalMinutes}
          rangeEndMs={Date.parse(readings.to)}
        />
      ) : (
        <MetersSummary readings={readings} comparisons={comparisons} onPickMeter={onPickMeter} />
      )}
      {bill ? <BillPanel {...bill} timeZone={tz} /> : null}
      {isSingle ? (
        first.carbon ? (
          <CarbonPanel carbon={first.carbon} />
        ) : null
      ) : siteCarbon ? (
        <CarbonPanel carbon={siteCarbon.carbon} counted={siteCarbon} />
      ) : null}
      <ChartPanel
        readings={readings}
        ariaLabel={chartSummary}
        tableId={TABLE_ID}
        view={chartView}
        onViewChange={onChartViewChange}
      />
      {below ? (
        <Stack gap="md" className={isBehind ? classes.stale : undefined} aria-busy={isBehind}>
          <NotesPanel readings={below} tableId={TABLE_ID} />
          {correctedMeter(below) ? (
            <Suspense fallback={<Skeleton height={80} radius="md" />}>
              <CorrectionsPanel readings={below} />
            </Suspense>
          ) : null}
          <SecondaryPanels readings={below} />
          <TablePanel readings={below} id={TABLE_ID} subject={subject} />
          {/* Below the table: its 12 months load on their own, and nothing above moves when they do. */}
          {peaksQuery ? <MonthlyPeaksPanel query={peaksQuery} timeZone={tz} /> : null}
        </Stack>
      ) : (
        <Skeleton height={320} radius="md" />
      )}
    </Stack>
  );
}, sameSectionProps);

/**
 * The page builds the comparisons anew on each render (plain data, two at most): equal by value.
 * Every other prop is the same object while it means the same (the answer, the URL's chart view,
 * the page's callbacks).
 */
function sameSectionProps(a: ReadingsSectionProps, b: ReadingsSectionProps): boolean {
  return (Object.keys(a) as Array<keyof ReadingsSectionProps>).every((key) =>
    key === 'comparisons'
      ? JSON.stringify(a.comparisons) === JSON.stringify(b.comparisons)
      : Object.is(a[key], b[key]),
  );
}
