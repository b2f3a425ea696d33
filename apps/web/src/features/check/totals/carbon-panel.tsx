import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { CarbonSummary } from '@cm/contracts/check.ts';
import { useTranslation } from 'react-i18next';
import { formatEnergy, formatNumber, formatPercent } from '@/lib/format.ts';
import { SectionPanel } from '../ui/section-panel.tsx';
import { Stat } from '../ui/stat.tsx';

/**
 * The range's emissions at the location's grid region (docs/carbon.md): kg CO2e of the energy
 * whose interval has an intensity, the intensity weighted by the energy used, the share used in
 * the cleanest quarter, and how much energy has unknown emissions (never counted as zero).
 */
export function CarbonPanel({ carbon }: { carbon: CarbonSummary }) {
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
}
