import { Group, Skeleton, Text, Title } from '@mantine/core';
import type { LocationReadings } from '@cm/contracts/check.ts';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@/lib/format.ts';
import { billCardFigures } from '../model/bill.ts';
import { answerRange } from '../model/date-range.ts';
import { formatDateRange, formatLocal } from '../model/local-format.ts';
import { SectionPanel } from '../ui/section-panel.tsx';
import { Stat } from '../ui/stat.tsx';
import { formatChange } from './totals.ts';
import classes from '../check.module.css';

const percent = (share: number) => `${(share * 100).toFixed(2)}%`;

/**
 * The bill first (issue 34): at the top of a meter or a location, whatever range the page shows,
 * this billing period so far, where it is heading at the pace so far (the dashed part of the bar),
 * and the last bill (the mark on the bar), with the change. Nothing without a tariff. A memo
 * component: the check page renders again for every answer it hears of, the bill's own two
 * included only when they change (issue 38).
 */
export const BillCard = memo(function BillCard({
  current,
  last,
  isLastLoading = false,
}: {
  /** This billing period's answer (projected to its end), undefined while it loads. */
  current: LocationReadings | undefined;
  /** The bill before's answer, undefined while it loads or if it failed. */
  last: LocationReadings | undefined;
  /** The bill before is still on its way. */
  isLastLoading?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  // The skeleton stays until both answers are in: drawn without the last bill, the card is a row
  // shorter, and the page below it moved up and down again as the two landed (a phone's CLS).
  if (!current || isLastLoading) return <BillCardSkeleton />;
  const figures = billCardFigures(current.meters, last?.meters ?? null);
  if (!figures) return null;
  const money = (amount: number) => formatMoney(amount, figures.currency, locale);
  const period = answerRange(current);
  const lastPeriod = last ? answerRange(last) : null;
  const { bar } = figures;
  return (
    <SectionPanel labelledBy="cm-bill-card-title">
      <div data-testid="bill-card">
        <Title order={2} size="h4" id="cm-bill-card-title">
          {t('check.billCard.title')}
        </Title>
        <Text size="xs" c="dimmed">
          {t('check.billCard.period', { period: formatDateRange(period.from, period.to, locale) })}
          {figures.partial ? ` ${t('check.billCard.partial')}` : ''}
        </Text>
        <Group gap="xl" mt="sm" align="flex-start" wrap="wrap">
          <Stat testId="bill-card-so-far" label={t('check.billCard.soFar')} value={money(figures.soFar)} />
          {figures.projected ? (
            <Stat
              testId="bill-card-projected"
              label={t('check.billCard.projected')}
              value={money(figures.projected.total)}
              hint={t('check.billCard.projectedTo', {
                end: formatLocal(
                  Date.parse(figures.projected.to) - 1,
                  locale,
                  current.location.timeZone,
                  'date',
                ),
              })}
            />
          ) : null}
          <Stat
            testId="bill-card-last"
            label={t('check.billCard.last')}
            value={figures.last === null ? t('check.billCard.noLast') : money(figures.last)}
            hint={
              lastPeriod && figures.last !== null
                ? formatDateRange(lastPeriod.from, lastPeriod.to, locale)
                : null
            }
          />
          {figures.change !== null ? (
            <Stat
              testId="bill-card-change"
              label={
                figures.projected ? t('check.billCard.changeProjected') : t('check.billCard.changeSoFar')
              }
              value={formatChange(figures.change, locale)}
            />
          ) : null}
        </Group>
        {/* The figures above say it all in words; the bar shows it at a glance. */}
        <div className={classes.billBar} aria-hidden data-testid="bill-card-bar">
          <span className={classes.billBarSoFar} style={{ width: percent(bar.soFar) }} />
          <span
            className={classes.billBarRest}
            style={{ insetInlineStart: percent(bar.soFar), width: percent(bar.rest) }}
          />
          {bar.last === null ? null : (
            <span className={classes.billBarLast} style={{ insetInlineStart: percent(bar.last) }} />
          )}
        </div>
        <Group gap="md" mt={4} className={classes.billBarKey}>
          <Text size="xs" c="dimmed">
            <span className={classes.billKeySoFar} aria-hidden /> {t('check.billCard.soFar')}
          </Text>
          {figures.projected ? (
            <Text size="xs" c="dimmed">
              <span className={classes.billKeyRest} aria-hidden /> {t('check.billCard.projected')}
            </Text>
          ) : null}
          {bar.last === null ? null : (
            <Text size="xs" c="dimmed">
              <span className={classes.billKeyLast} aria-hidden /> {t('check.billCard.last')}
            </Text>
          )}
        </Group>
      </div>
    </SectionPanel>
  );
});

/** Stand-ins as wide as typical figures: the skeleton holds the card's height while it loads. */
const MONEY_STAND_IN = '0,000.00 00';
const RANGE_STAND_IN = '00 000 – 00 000 0000';

/**
 * The card as it will be (its title, its four figures with their labels, the bar and its key), the
 * figures shimmering while the bill loads: the page below does not move when they arrive (issue 38).
 */
function BillCardSkeleton() {
  const { t } = useTranslation();
  const labels = [
    t('check.billCard.soFar'),
    t('check.billCard.projected'),
    t('check.billCard.last'),
    t('check.billCard.changeProjected'),
  ];
  return (
    <SectionPanel labelledBy="cm-bill-card-title">
      <div data-testid="bill-card-loading" aria-busy>
        <Title order={2} size="h4" id="cm-bill-card-title">
          {t('check.billCard.title')}
        </Title>
        <Skeleton visible width="fit-content">
          <Text size="xs">{RANGE_STAND_IN}</Text>
        </Skeleton>
        <Group gap="xl" mt="sm" align="flex-start" wrap="wrap">
          {labels.map((label, index) => (
            <div key={label} className={classes.stat}>
              <Text size="xs" c="dimmed" tt="uppercase" fw={600} className={classes.statLabel}>
                {label}
              </Text>
              <Skeleton visible width="fit-content">
                <Text fw={700} className={classes.statValue}>
                  {MONEY_STAND_IN}
                </Text>
              </Skeleton>
              {index === 1 || index === 2 ? (
                <Skeleton visible width="fit-content">
                  <Text size="xs">{RANGE_STAND_IN}</Text>
                </Skeleton>
              ) : null}
            </div>
          ))}
        </Group>
        <div className={classes.billBar} aria-hidden />
        <Group gap="md" mt={4} className={classes.billBarKey}>
          <Text size="xs" c="dimmed">
            <span className={classes.billKeySoFar} aria-hidden /> {labels[0]}
          </Text>
        </Group>
      </div>
    </SectionPanel>
  );
}
