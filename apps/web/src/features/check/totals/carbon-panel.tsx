import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { CarbonSummary } from '@cm/contracts/check.ts';
import { useTranslation } from 'react-i18next';
import { memo } from 'react';
import { formatEnergy, formatNumber, formatPercent } from '@/lib/format.ts';
import { SectionPanel } from '../ui/section-panel.tsx';
import { Stat } from '../ui/stat.tsx';
import type { LocationCarbon } from '../model/location-carbon.ts';

/**
 * The range's emissions at the location's grid region (docs/carbon.md): kg CO2e of the energy
 * whose interval has an intensity, the intensity weighted by the energy used, the share used in
 * the cleanest quarter, and how much energy has unknown emissions (never counted as zero).
 */
export const CarbonPanel = memo(function CarbonPanel({
  carbon,
  counted,
}: {
  carbon: CarbonSummary;
  /** A location's view: which meters it counts (location-carbon.ts); none for one meter. */
  counted?: Omit<LocationCarbon, 'carbon'>;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const kg = (value: number) =>
    t('check.carbon.kg', { value: formatNumber(value, locale, { maximumFractionDigits: 3 }) });
  const isPartial = carbon.unknownIntervals > 0;
  return (
    <SectionPanel labelledBy="cm-carbon-title">
      <Stack gap="md" data-testid="carbon">
        <div>
          <Title order={2} size="h4" id="cm-carbon-title">
            {t('check.carbon.title')}
          </Title>
          <Text size="xs" c="dimmed">
            {t('check.carbon.region', { region: carbon.region })}
          </Text>
          {counted?.basis === 'mainSupply' ? (
            <Text size="xs" c="dimmed">
              {t('check.carbon.mainSupply', { count: counted.count })}
            </Text>
          ) : counted && counted.count > 1 ? (
            <Text size="xs" c="dimmed">
              {t('check.carbon.meters', { count: counted.count })}
            </Text>
          ) : null}
          {counted?.partial ? (
            <Text size="xs" c="dimmed" data-testid="carbon-partial">
              {t('check.all.partial', { count: counted.partial.known, of: counted.count })}
            </Text>
          ) : null}
        </div>
        <SimpleGrid cols={{ base: 2, sm: carbon.avoidedEstimate === null ? 3 : 4 }} spacing="md">
          <Stat
            testId="carbon-emissions"
            label={t('check.carbon.emissions')}
            value={
              isPartial ? t('check.carbon.atLeast', { value: kg(carbon.emissions) }) : kg(carbon.emissions)
            }
            hint={
              isPartial
                ? t('check.carbon.unknown', {
                    count: carbon.unknownIntervals,
                    energy: formatEnergy(carbon.unknownConsumption, locale),
                  })
                : null
            }
          />
          <Stat
            testId="carbon-intensity"
            label={t('check.carbon.average')}
            value={
              carbon.averageIntensity === null
                ? '—'
                : t('check.carbon.gPerKwh', {
                    value: formatNumber(carbon.averageIntensity, locale, { maximumFractionDigits: 1 }),
                  })
            }
          />
          <Stat
            testId="carbon-cleanest"
            label={t('check.carbon.cleanest')}
            value={
              carbon.cleanestQuarterShare === null ? '—' : formatPercent(carbon.cleanestQuarterShare, locale)
            }
            hint={t('check.carbon.cleanestHint')}
          />
          {carbon.avoidedEstimate === null ? null : (
            <Stat
              testId="carbon-avoided"
              label={t('check.carbon.avoided')}
              value={kg(carbon.avoidedEstimate)}
              hint={t('check.carbon.avoidedHint')}
            />
          )}
        </SimpleGrid>
      </Stack>
    </SectionPanel>
  );
});
