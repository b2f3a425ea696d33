import { SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { memo } from 'react';
import { formatEnergy, formatPercent, formatPower } from '@/lib/format.ts';
import { useGetBaseloadQuery } from '../api.ts';
import type { DateRange } from '../model/date-range.ts';
import { SectionPanel } from '../ui/section-panel.tsx';
import { Stat } from '../ui/stat.tsx';
import { formatChange } from './totals.ts';

/**
 * A meter's always-on power (the median of each night's lowest whole hour over the 14 nights before
 * the range's end) and the share of the range's energy used at night (00:00–06:00), each against
 * before; the rules are the server's (modules/check/baseload.ts).
 */
export const BaseloadPanel = memo(function BaseloadPanel({
  meterNumber,
  range,
}: {
  meterNumber: string;
  range: DateRange;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const { data, isError } = useGetBaseloadQuery({ meterNumber, From: range.from, To: range.to });
  if (isError) return null;
  if (!data) return <Skeleton height={96} radius="md" />;
  const { baseload, previousBaseload: before, night, previousNight } = data;
  const baseChange =
    baseload.kw !== null && before.kw !== null && before.kw > 0 ? baseload.kw / before.kw - 1 : null;
  const days = Math.round((Date.parse(previousNight.to) - Date.parse(previousNight.from)) / 86_400_000);
  return (
    <SectionPanel labelledBy="cm-baseload-title">
      <Stack gap="sm" data-testid="baseload">
        <Title order={2} size="h4" id="cm-baseload-title">
          {t('check.baseload.title')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Stat
            testId="baseload-kw"
            label={t('check.baseload.kw')}
            value={baseload.kw === null ? t('check.baseload.unknown') : formatPower(baseload.kw, locale)}
            hint={[
              t('check.baseload.kwHow', { count: baseload.nights }),
              before.kw === null
                ? null
                : t('check.baseload.kwBefore', {
                    kw: formatPower(before.kw, locale),
                    change: baseChange === null ? '' : ` (${formatChange(baseChange, locale)})`,
                  }),
            ]
              .filter(Boolean)
              .join(' · ')}
          />
          <Stat
            testId="baseload-night"
            label={t('check.baseload.night')}
            value={night.share === null ? t('check.baseload.unknown') : formatPercent(night.share, locale)}
            hint={[
              night.share === null
                ? null
                : t('check.baseload.nightOf', {
                    night: formatEnergy(night.nightEnergy, locale),
                    energy: formatEnergy(night.energy, locale),
                  }),
              previousNight.share === null
                ? null
                : t('check.baseload.nightBefore', {
                    count: days,
                    share: formatPercent(previousNight.share, locale),
                  }),
            ]
              .filter(Boolean)
              .join(' · ')}
          />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t('check.baseload.rule')}
        </Text>
      </Stack>
    </SectionPanel>
  );
});
