import { Group, Skeleton, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatEnergy, formatMoney, formatPercent } from '@/lib/format.ts';
import { comparisonChange, type ComparisonPlan } from '../model/comparison.ts';
import { formatDateRange, formatLocal } from '../model/local-format.ts';
import { formatChange } from './totals.ts';
import classes from '../check.module.css';

/** Below this share of intervals with readings, no % change is shown for a comparison period. */
const MIN_COVERAGE = 0.95;

/** A comparison period's total, as it loads. */
export interface ComparisonTotal extends ComparisonPlan {
  consumption: number | null;
  /** What the period cost at the location's tariff (its bill's total), null without one. */
  cost: { amount: number; currency: string } | null;
  /** Share of the period with readings: a comparison with a half-empty period would mislead. */
  coverage: number | null;
  isLoading: boolean;
  isError: boolean;
}

/**
 * The range against earlier periods, like with like, saying how: "up to the same time" for a
 * period still going, "per day" for periods of different lengths. No change is shown when either
 * side is missing too much.
 */
export function ComparisonTiles({
  comparisons,
  own,
  timeZone,
}: {
  comparisons: ComparisonTotal[];
  /** The range's own energy and the share of its intervals with readings. */
  own: { consumption: number | null; coverage: number | null };
  timeZone: string;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  // A range still going is compared up to its last data, where its own coverage is whole by design.
  const ownCoverage = own.coverage;
  return (
    <div className={classes.comparisons} aria-label={t('check.compare.title')} role="group">
      {comparisons.map((comparison) => {
        const thinSide =
          comparison.consumption !== null &&
          comparison.coverage !== null &&
          comparison.coverage < MIN_COVERAGE
            ? { key: 'check.compare.incomplete', share: comparison.coverage }
            : comparison.basis !== 'soFar' && ownCoverage !== null && ownCoverage < MIN_COVERAGE
              ? { key: 'check.compare.incompleteRange', share: ownCoverage }
              : null;
        const change =
          thinSide === null ? comparisonChange(comparison, own.consumption, comparison.consumption) : null;
        const hasNoDataYet =
          comparison.basis === 'soFar' && comparison.query === null && !comparison.awaitsRange;
        return (
          <div
            key={comparison.kind}
            className={classes.comparison}
            data-testid={`compare-${comparison.kind}`}
          >
            <Text size="sm" fw={600}>
              {t(`check.compare.${comparison.kind}`)}
            </Text>
            <Text size="xs" c="dimmed">
              {formatDateRange(comparison.range.from, comparison.range.to, locale)}
            </Text>
            {comparison.basis === 'soFar' && comparison.untilMs !== null ? (
              <Text size="xs" c="dimmed" data-testid={`compare-${comparison.kind}-basis`}>
                {t('check.compare.soFar', { until: formatLocal(comparison.untilMs, locale, timeZone) })}
              </Text>
            ) : comparison.basis === 'perDay' ? (
              <Text size="xs" c="dimmed" data-testid={`compare-${comparison.kind}-basis`}>
                {t('check.compare.perDay', { days: comparison.days, rangeDays: comparison.rangeDays })}
              </Text>
            ) : null}
            {comparison.isLoading ? (
              <Skeleton height={18} width="60%" mt={4} />
            ) : comparison.isError ? (
              <Text size="sm" c="dimmed">
                {t('check.compare.failed')}
              </Text>
            ) : hasNoDataYet ? (
              <Text size="sm" c="dimmed">
                {t('check.compare.noDataYet')}
              </Text>
            ) : (
              <Group gap="xs" align="baseline">
                <Text fw={700}>
                  {comparison.consumption === null
                    ? t('check.compare.noData')
                    : formatEnergy(comparison.consumption, locale)}
                </Text>
                {thinSide !== null ? (
                  <Text size="sm" c="dimmed">
                    {t(thinSide.key, { share: formatPercent(thinSide.share, locale) })}
                  </Text>
                ) : null}
                {change !== null ? (
                  <Text size="sm" className={change > 0 ? classes.up : classes.down} fw={600}>
                    {t(
                      comparison.basis === 'perDay' ? 'check.compare.changePerDay' : 'check.compare.change',
                      {
                        change: formatChange(change, locale),
                      },
                    )}
                  </Text>
                ) : null}
                {comparison.cost !== null ? (
                  <Text size="sm" c="dimmed" data-testid={`compare-${comparison.kind}-cost`}>
                    {t('check.compare.cost', {
                      amount: formatMoney(comparison.cost.amount, comparison.cost.currency, locale),
                    })}
                  </Text>
                ) : null}
              </Group>
            )}
          </div>
        );
      })}
    </div>
  );
}
