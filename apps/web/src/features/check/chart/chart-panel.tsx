import { Anchor, Button, Group, Switch, Text, Title, useComputedColorScheme } from '@mantine/core';
import { IconZoomReset } from '@tabler/icons-react';
import type { LocationReadings } from '@cm/contracts/check.ts';
import { memo, useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { offsetChanges } from '@cm/contracts/zoned-time.ts';
import { formatEnergy, formatNumber, formatPower } from '@/lib/format.ts';
import {
  chartData,
  dstBand,
  dstLabelKey,
  hatchedBars,
  priceBands,
  pricePerKwh,
  type ChartMeasure,
} from './chart-data.ts';
import { billCurrency } from '../model/bill.ts';
import { chartThemes, type ChartMarkers } from './chart-options.ts';
import type { ChartView } from '../model/url-state.ts';
import { bucketAt } from '../model/reading-rows.ts';
import { ReadingsChart, type TooltipWriter } from './readings-chart.tsx';
import { ChartLegend } from './chart-legend.tsx';
import { showTooltip, tooltipContent } from './chart-tooltip.ts';
import { SectionPanel } from '../ui/section-panel.tsx';
import { SegmentedChoice } from '@/components/segmented-choice.tsx';
import classes from '../check.module.css';

const BARS_MAX_POINTS = 1500;

interface ChartPanelProps {
  readings: LocationReadings;
  /** Bars or line, register or not: in the page's address, so a shared link draws the same. */
  view: ChartView;
  /** One setting of the view changed (merged onto the view as it is then). */
  onViewChange: (change: Partial<ChartView>) => void;
  /** What the chart shows, for screen readers. */
  ariaLabel: string;
  /** Where the table (the chart's accessible alternative) is. */
  tableId: string;
}

/**
 * What the chart marks over the data. `prices`: one meter's price per kWh, point by point
 * (pricePerKwh, the price line's own column), for the cheapest and dearest hours; null without.
 */
function useMarkers(
  readings: LocationReadings,
  measure: ChartMeasure,
  prices: readonly (number | null)[] | null,
): ChartMarkers {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return useMemo(() => {
    const toMs = Date.parse(readings.to);
    const buckets = readings.meters[0]?.series;
    const dst = offsetChanges(
      Date.parse(readings.from),
      Date.parse(readings.to),
      readings.location.timeZone,
    ).map((change) => ({
      at: change.at,
      label: t(dstLabelKey(readings.granularity), { hours: 24 + (change.fromOffset - change.toOffset) / 60 }),
      from: change.fromOffset,
      to: change.toOffset,
      band: dstBand(
        readings.granularity,
        change.at,
        bucketAt(buckets, change.at, toMs),
        readings.location.timeZone,
      ),
    }));
    const events: ChartMarkers['events'] = [];
    const gaps: ChartMarkers['gaps'] = [];
    for (const meter of readings.meters) {
      for (const event of meter.events) {
        if (event.type === 'meterExchange')
          events.push({
            at: Date.parse(event.at),
            label: t('check.chart.exchange', { meterNumber: event.meterNumber }),
          });
        if (event.type === 'rollover')
          events.push({ at: Date.parse(event.at), label: t('check.chart.rollover') });
      }
      for (const gap of meter.gaps) gaps.push({ from: Date.parse(gap.from), to: Date.parse(gap.to) });
    }
    const [only] = readings.meters;
    const isSingle = only !== undefined && readings.meters.length === 1;
    const hatched = isSingle ? hatchedBars(only, readings.granularity, toMs, measure) : [];
    const periods = isSingle
      ? only.periods
          .filter((period) => period.channel === only.channel)
          .map((period) => ({
            from: Date.parse(period.from),
            to: Date.parse(period.to),
            label: t('check.chart.period', { energy: formatEnergy(period.consumption, locale) }),
          }))
      : [];
    // Bars stop where the data stops: a bucket still going is drawn as far as it goes, not to its end.
    let dataEnd = Number.NEGATIVE_INFINITY;
    for (const meter of readings.meters)
      for (const end of [meter.totals.dataEnd, meter.totals.other?.dataEnd])
        if (end) dataEnd = Math.max(dataEnd, Date.parse(end));
    const barsWithin = {
      from: Date.parse(readings.from),
      to: Number.isFinite(dataEnd) ? Math.min(toMs, dataEnd) : toMs,
    };
    const demand = isSingle ? only.totals.demand : null;
    const peak = demand
      ? {
          from: Date.parse(demand.from),
          to: Date.parse(demand.to),
          label: t('check.chart.peak', { power: formatPower(demand.kW, locale, demand.isAtLeast) }),
        }
      : null;
    const cheapAndDear =
      isSingle && prices !== null ? priceBands(only, readings.granularity, toMs, prices) : [];
    return { dst, events, gaps, hatched, periods, peak, prices: cheapAndDear, barsWithin };
  }, [readings, t, locale, measure, prices]);
}

interface ChartHeaderProps {
  mode: 'bars' | 'line';
  onMode: (mode: 'bars' | 'line') => void;
  /** With a tariff, energy or cost; null: no tariff, no choice. */
  measure: ChartMeasure | null;
  currency: string | null;
  onMeasure: (measure: ChartMeasure) => void;
  /** The register switch's state; null: no switch (several meters). */
  showRegister: boolean | null;
  onShowRegister: (show: boolean) => void;
  /** The price line switch's state; null: no switch (no tariff, several meters). */
  showPrice: boolean | null;
  onShowPrice: (show: boolean) => void;
  isZoomed: boolean;
  onReset: () => void;
  tableId: string;
}

/** Title, controls and hint: the same for every answer, so a new one does not re-render them. */
const ChartHeader = memo(function ChartHeader({
  mode,
  onMode,
  measure,
  currency,
  onMeasure,
  showRegister,
  onShowRegister,
  showPrice,
  onShowPrice,
  isZoomed,
  onReset,
  tableId,
}: ChartHeaderProps) {
  const { t } = useTranslation();
  return (
    <>
      <Group justify="space-between" align="center" mb="xs" gap="xs" className={classes.noPrint}>
        <Title order={2} size="h4" id="cm-chart-title">
          {t('check.chart.title')}
        </Title>
        <Group gap="sm" wrap="wrap">
          {measure === null ? null : (
            <SegmentedChoice
              size="xs"
              value={measure}
              onChange={onMeasure}
              data={[
                { value: 'energy', label: t('check.chart.energy') },
                { value: 'cost', label: t('check.chart.costMode', { currency: currency ?? '' }) },
              ]}
              aria-label={t('check.chart.measure')}
              data-testid="chart-measure"
            />
          )}
          <SegmentedChoice
            size="xs"
            value={mode}
            onChange={onMode}
            data={[
              { value: 'bars', label: t('check.chart.bars') },
              { value: 'line', label: t('check.chart.line') },
            ]}
            aria-label={t('check.chart.style')}
          />
          {showRegister === null ? null : (
            <Switch
              size="sm"
              checked={showRegister}
              onChange={(event) => onShowRegister(event.currentTarget.checked)}
              label={t('check.chart.showRegister')}
            />
          )}
          {showPrice === null ? null : (
            <Switch
              size="sm"
              checked={showPrice}
              onChange={(event) => onShowPrice(event.currentTarget.checked)}
              label={t('check.chart.showPrice')}
              data-testid="chart-price"
            />
          )}
          <Button
            size="xs"
            variant="default"
            leftSection={<IconZoomReset size={14} aria-hidden />}
            onClick={onReset}
            disabled={!isZoomed}
          >
            {t('check.chart.resetZoom')}
          </Button>
        </Group>
      </Group>
      <Text size="xs" c="dimmed" className={classes.noPrint}>
        {t('check.chart.hint')}{' '}
        <Anchor href={`#${tableId}`} size="xs" underline="always">
          {t('check.chart.toTable')}
        </Anchor>
      </Text>
    </>
  );
});

/**
 * The chart with its controls (bars or line, register line, zoom reset) and legend. Its state
 * stays here, so toggling the register line redraws the chart alone; it draws the answer's own
 * columns, and builds the table's rows only when the cursor first asks for one.
 */
export const ChartPanel = memo(function ChartPanel({
  readings,
  ariaLabel,
  tableId,
  view,
  onViewChange,
}: ChartPanelProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const scheme = useComputedColorScheme('light');
  const { meters, granularity } = readings;
  const tz = readings.location.timeZone;
  const isSingle = meters.length === 1;
  // One meter with an export channel: import and export bars, and the net line.
  const hasExport = isSingle && meters[0]?.series.other !== undefined;
  const unit = meters[0]?.meter.unit ?? 'kWh';
  const pointCount = meters[0]?.series.t.length ?? 0;
  const chartMode =
    view.style === 'auto' ? (pointCount > BARS_MAX_POINTS || !isSingle ? 'line' : 'bars') : view.style;
  // With a tariff the bars can show what the energy costs (the register line is energy only).
  const currency = billCurrency(readings);
  const measure: ChartMeasure = view.cost && currency !== null ? 'cost' : 'energy';
  const isCost = measure === 'cost';
  const axisUnit = isCost && currency !== null ? currency : unit;
  const showRegister = view.register;
  const withRegister = isSingle && showRegister && !isCost;
  // The price per kWh beside the energy (or the cost), on its own axis.
  const canShowPrice = isSingle && currency !== null && meters[0]?.series.cost !== undefined;
  const withPrice = canShowPrice && view.price;
  const priceLabel = withPrice ? t('check.chart.price', { currency: currency ?? '' }) : null;
  const [isZoomed, setZoomed] = useState(false);
  const resetRef = useRef<(() => void) | null>(null);
  const resetZoom = useCallback(() => resetRef.current?.(), []);
  // Stable handlers, so that the memoised header is not redrawn with every answer.
  const handleMode = useCallback((style: 'bars' | 'line') => onViewChange({ style }), [onViewChange]);
  const handleMeasure = useCallback(
    (chosen: ChartMeasure) => onViewChange({ cost: chosen === 'cost' }),
    [onViewChange],
  );
  const handleRegister = useCallback((register: boolean) => onViewChange({ register }), [onViewChange]);
  const handlePrice = useCallback((price: boolean) => onViewChange({ price }), [onViewChange]);
  const toMs = Date.parse(readings.to);

  const seriesLabels = useMemo(
    () =>
      hasExport
        ? isCost
          ? [
              t('check.chart.importCost', { currency: axisUnit }),
              t('check.chart.exportCredit', { currency: axisUnit }),
            ]
          : [t('check.chart.import', { unit }), t('check.chart.export', { unit })]
        : meters.map((meter) =>
            isSingle
              ? isCost
                ? t('check.chart.cost', { currency: axisUnit })
                : t('check.chart.consumption', { unit })
              : t('check.chart.meterSeries', {
                  meterInd: meter.meterInd,
                  meterNumber: meter.meter.meterNumber,
                }),
          ),
    [meters, isSingle, hasExport, t, unit, isCost, axisUnit],
  );
  const netLabel = hasExport ? t('check.chart.net', { unit: axisUnit }) : null;
  // The labels' text, not the list, decides whether the plot is rebuilt.
  const seriesKey = seriesLabels.join('|');
  const spec = useMemo(
    () => ({
      timeZone: tz,
      locale,
      granularity,
      mode: chartMode,
      seriesLabels: seriesKey.split('|'),
      netLabel,
      registerLabel: withRegister ? t('check.chart.register') : null,
      priceLabel,
      unit: axisUnit,
      theme: chartThemes[scheme],
      formatNumber: (value: number) => formatNumber(value, locale, { maximumFractionDigits: 2 }),
      formatPrice: (value: number) => formatNumber(value, locale, { maximumFractionDigits: 4 }),
    }),
    [tz, locale, granularity, chartMode, seriesKey, netLabel, withRegister, priceLabel, t, axisUnit, scheme],
  );
  // One meter's price per kWh, point by point: the tooltip's (with the price line) and the shading's.
  const [onlyMeter] = meters;
  const prices = useMemo(
    () => (isSingle && onlyMeter?.series.cost ? pricePerKwh(onlyMeter.series) : null),
    [isSingle, onlyMeter],
  );
  const markers = useMarkers(readings, measure, prices);
  const data = useMemo(
    () => chartData(meters, granularity, toMs, withRegister, measure, withPrice ? prices : null),
    [meters, granularity, toMs, withRegister, measure, withPrice, prices],
  );

  const writeTooltip = useCallback<TooltipWriter>(
    (x, element) => {
      if (x === null) return false;
      const content = tooltipContent(readings, x, {
        locale,
        t,
        hasExport,
        withRegister,
        theme: chartThemes[scheme],
        currency,
        prices: withPrice ? prices : null,
      });
      if (!content) return false;
      showTooltip(element, content);
      return true;
    },
    [readings, locale, t, hasExport, withRegister, scheme, currency, prices, withPrice],
  );

  return (
    <SectionPanel labelledBy="cm-chart-title" className={classes.chartPanel}>
      <ChartHeader
        mode={chartMode}
        onMode={handleMode}
        measure={currency === null ? null : measure}
        currency={currency}
        onMeasure={handleMeasure}
        showRegister={isSingle && !isCost ? showRegister : null}
        onShowRegister={handleRegister}
        showPrice={canShowPrice ? view.price : null}
        onShowPrice={handlePrice}
        isZoomed={isZoomed}
        onReset={resetZoom}
        tableId={tableId}
      />
      <ReadingsChart
        spec={spec}
        data={data}
        markers={markers}
        height={320}
        ariaLabel={ariaLabel}
        writeTooltip={writeTooltip}
        onZoomChange={setZoomed}
        resetRef={resetRef}
      />
      <ChartLegend
        seriesLabels={seriesLabels}
        netLabel={netLabel}
        withRegister={withRegister}
        priceLabel={priceLabel}
        isBars={chartMode === 'bars'}
        markers={markers}
        scheme={scheme}
      />
    </SectionPanel>
  );
});
