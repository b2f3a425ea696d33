import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import type { Totals } from '@cm/contracts/check.ts';
import { useTranslation } from 'react-i18next';
import { memo } from 'react';
import { formatEnergy, formatNumber, formatPower } from '@/lib/format.ts';
import { formatIsoInZone, formatLocal } from '../model/local-format.ts';
import { agreementOf, formatTotals, nextReading } from './totals.ts';
import { useNow } from '../model/use-now.ts';
import { ComparisonTiles, type ComparisonTotal } from './comparison-tiles.tsx';
import { coverageOf } from '../model/location-total.ts';
import { ToneBadge } from '@/components/tone-badge.tsx';
import { Stat } from '../ui/stat.tsx';
import { SectionPanel } from '../ui/section-panel.tsx';
import classes from '../check.module.css';

interface TotalsPanelProps {
  totals: Totals;
  timeZone: string;
  multiplier: number;
  /** The physical meters that held the position in the range (an exchange makes two). */
  meterNumbers: string[];
  comparisons: ComparisonTotal[];
  /** The meter's nominal interval and the range's end, to say when the next reading is due. */
  intervalMinutes: number;
  rangeEndMs: number;
}

/** Totals over the range, the register check, and the comparison with earlier periods. */
export const TotalsPanel = memo(function TotalsPanel({ comparisons, ...figures }: TotalsPanelProps) {
  const { t } = useTranslation();
  const { totals, timeZone } = figures;
  return (
    <SectionPanel labelledBy="cm-totals-title">
      <Stack gap="md">
        <Title order={2} size="h4" id="cm-totals-title">
          {t('check.totals.title')}
        </Title>
        <TotalsFigures {...figures} />

        {comparisons.length > 0 ? (
          <ComparisonTiles
            comparisons={comparisons}
            own={{ consumption: totals.consumption, coverage: coverageOf([{ totals }]) }}
            timeZone={timeZone}
          />
        ) : null}
      </Stack>
    </SectionPanel>
  );
});

/**
 * The range's figures and the register check: a memo component of their own, so that a comparison
 * landing (twice per answer, each a render the store's news makes synchronous) renders the
 * comparison tiles and not the figures above them.
 */
const TotalsFigures = memo(function TotalsFigures({
  totals,
  timeZone,
  multiplier,
  meterNumbers,
  intervalMinutes,
  rangeEndMs,
}: Omit<TotalsPanelProps, 'comparisons'>) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  // Its own clock: a reading turning late redraws the figures alone.
  const now = useNow();
  const next = nextReading(totals.dataEnd, intervalMinutes, rangeEndMs, now);
  const text = formatTotals(totals, locale);
  const agreement = agreementOf(totals);
  const difference = totals.agrees ? null : totals.disagreement;
  const exported = totals.other ?? null;
  const netConsumption = totals.net?.consumption ?? null;

  return (
    <>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: exported ? 4 : 5 }} spacing="md">
        <Stat
          testId="total-consumption"
          label={t(exported ? 'check.totals.imported' : 'check.totals.consumption')}
          value={text.consumption}
          hint={
            totals.estimatedConsumption > 0
              ? t('check.totals.estimatedShare', {
                  energy: formatEnergy(totals.estimatedConsumption, locale),
                })
              : null
          }
        />
        {exported ? (
          <>
            <Stat
              testId="total-export"
              label={t('check.totals.exported')}
              value={exported.consumption === null ? '—' : formatEnergy(exported.consumption, locale)}
              hint={
                exported.estimatedConsumption > 0
                  ? t('check.totals.estimatedShare', {
                      energy: formatEnergy(exported.estimatedConsumption, locale),
                    })
                  : null
              }
            />
            <Stat
              testId="total-net"
              label={t('check.totals.net')}
              value={netConsumption === null ? '—' : formatEnergy(netConsumption, locale)}
              hint={netConsumption !== null && netConsumption < 0 ? t('check.totals.netExporter') : null}
            />
          </>
        ) : null}
        <Stat testId="total-average" label={t('check.totals.averagePerDay')} value={text.averagePerDay} />
        <Stat
          testId="total-peak"
          label={t('check.totals.peak')}
          value={text.peak}
          hint={
            totals.peak
              ? t('check.totals.peakAt', { at: formatIsoInZone(totals.peak.at, locale, timeZone) })
              : null
          }
        />
        <Stat
          testId="total-demand"
          label={t('check.totals.demand')}
          value={totals.demand ? formatPower(totals.demand.kW, locale, totals.demand.isAtLeast) : '—'}
          hint={
            totals.demand
              ? t(totals.demand.isAtLeast ? 'check.totals.demandAtLeast' : 'check.totals.demandAt', {
                  at: formatIsoInZone(totals.demand.from, locale, timeZone),
                })
              : null
          }
        />
        <Stat
          testId="total-register"
          label={t('check.totals.register')}
          value={`${text.registerStart} → ${text.registerEnd}`}
          hint={
            meterNumbers.length > 1
              ? t('check.totals.registerExchange', { meters: meterNumbers.join(' → ') })
              : multiplier === 1
                ? null
                : t('check.totals.registerMultiplier', { multiplier: formatNumber(multiplier, locale) })
          }
        />
        <Stat
          testId="total-missing"
          label={t('check.totals.missing')}
          value={text.missingIntervals}
          hint={[
            t('check.totals.readings', { count: totals.readings, formatted: text.readings }),
            next
              ? t(next.isLate ? 'check.totals.nextLate' : 'check.totals.nextExpected', {
                  time: formatLocal(next.atMs, locale, timeZone, 'time'),
                })
              : null,
          ]
            .filter((part) => part !== null)
            .join(' · ')}
        />
      </SimpleGrid>

      <div className={classes.agreement} data-testid="agreement" data-agrees={agreement}>
        {agreement === 'agrees' ? (
          <ToneBadge tone="green" icon={<IconCheck size={14} aria-hidden />}>
            {t('check.totals.agrees')}
          </ToneBadge>
        ) : agreement === 'differs' ? (
          <ToneBadge tone="orange" icon={<IconAlertTriangle size={14} aria-hidden />}>
            {t('check.totals.differs')}
          </ToneBadge>
        ) : null}
        <Text size="sm">
          {agreement === 'unknown'
            ? t('check.totals.noRegister')
            : t('check.totals.equation', {
                registerDifference: text.registerDifference,
                intervalSum: text.intervalSum,
                gapConsumption: text.gapConsumption,
              })}
        </Text>
        {agreement === 'differs' && difference !== null ? (
          <Text size="sm" c="dimmed">
            {t('check.totals.differsWhy', { difference: formatEnergy(difference, locale) })}
          </Text>
        ) : null}
        {agreement !== 'unknown' && totals.gapConsumption > 0 ? (
          <Text size="sm" c="dimmed">
            {t('check.totals.gapExplained', { gapConsumption: text.gapConsumption })}
          </Text>
        ) : null}
      </div>
    </>
  );
});
