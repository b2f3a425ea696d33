import type { CSSProperties } from 'react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { chartThemes, type ChartMarkers } from './chart-options.ts';
import classes from '../check.module.css';

interface LegendItem {
  label: string;
  swatch: 'swatch' | 'swatchLine' | 'swatchDash' | 'swatchHatched';
  style: CSSProperties;
  shown: boolean;
}

interface ChartLegendProps {
  seriesLabels: readonly string[];
  netLabel: string | null;
  withRegister: boolean;
  priceLabel: string | null;
  isBars: boolean;
  markers: ChartMarkers;
  scheme: keyof typeof chartThemes;
}

/** What each colour and line of the chart means; marker kinds only when the range has them. */
export const ChartLegend = memo(function ChartLegend({
  seriesLabels,
  netLabel,
  withRegister,
  priceLabel,
  isBars,
  markers,
  scheme,
}: ChartLegendProps) {
  const { t } = useTranslation();
  const theme = chartThemes[scheme];
  // What each colour and line means; marker kinds only when the range has them.
  const legend: LegendItem[] = [
    ...seriesLabels.map((label, index) => ({
      label,
      swatch: 'swatch' as const,
      style: { background: theme.series[index % 7] },
      shown: true,
    })),
    {
      label: netLabel ?? '',
      swatch: 'swatchLine',
      style: { borderColor: theme.net },
      shown: netLabel !== null,
    },
    {
      label: t('check.chart.register'),
      swatch: 'swatchLine',
      style: { borderColor: theme.register },
      shown: withRegister,
    },
    {
      label: priceLabel ?? '',
      swatch: 'swatchLine',
      style: { borderColor: theme.price },
      shown: priceLabel !== null,
    },
    {
      label: t('check.chart.legendEstimated'),
      swatch: 'swatchHatched',
      style: { background: theme.series[0] },
      shown: isBars && markers.hatched.length > 0,
    },
    {
      label: t('check.chart.legendPeriod'),
      swatch: 'swatch',
      style: { background: theme.periodBand, outline: `1px solid ${theme.net}` },
      shown: markers.periods.length > 0,
    },
    {
      label: t('check.chart.legendCheap'),
      swatch: 'swatch',
      style: { background: theme.cheapBand, outline: `1px solid ${theme.peak}` },
      shown: markers.prices.some((band) => band.level === 'cheap'),
    },
    {
      label: t('check.chart.legendDear'),
      swatch: 'swatch',
      style: { background: theme.dearBand, outline: `1px solid ${theme.event}` },
      shown: markers.prices.some((band) => band.level === 'dear'),
    },
    {
      label: t('check.chart.legendGap'),
      swatch: 'swatch',
      style: { background: theme.gapFill, outline: `1px solid ${theme.event}` },
      shown: markers.gaps.length > 0,
    },
    {
      label: t('check.chart.legendDst'),
      ...(markers.dst.some((dst) => dst.band !== null)
        ? {
            swatch: 'swatch' as const,
            style: { background: theme.dstBand, outline: `1px dashed ${theme.dst}` },
          }
        : { swatch: 'swatchDash' as const, style: { borderColor: theme.dst } }),
      shown: markers.dst.length > 0,
    },
    {
      label: t('check.chart.legendPeak'),
      swatch: 'swatchDash',
      style: { borderColor: theme.peak },
      shown: markers.peak !== null,
    },
    {
      label: t('check.chart.legendEvent'),
      swatch: 'swatchLine',
      style: { borderColor: theme.event },
      shown: markers.events.length > 0,
    },
  ];
  return (
    <ul className={classes.legend} aria-label={t('check.chart.legend')}>
      {legend
        .filter((item) => item.shown)
        .map((item) => (
          <li key={item.label}>
            <span className={classes[item.swatch]} style={item.style} aria-hidden />
            {item.label}
          </li>
        ))}
    </ul>
  );
});
