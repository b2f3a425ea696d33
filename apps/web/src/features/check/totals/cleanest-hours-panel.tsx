import { List, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { memo } from 'react';
import { formatNumber } from '@/lib/format.ts';
import { useGetCleanestHoursQuery } from '../api.ts';
import { formatCalendarDate, formatLocal } from '../model/local-format.ts';
import { SectionPanel } from '../ui/section-panel.tsx';
import { cleanestWindows } from './cleanest-windows.ts';

/**
 * Tomorrow's cleanest hours at the location's grid region (issue 36): the cleanest quarter of the
 * day's intervals by forecast intensity, as windows of local time with their mean intensity.
 */
export const CleanestHoursPanel = memo(function CleanestHoursPanel({
  locationName,
  timeZone,
}: {
  locationName: string;
  timeZone: string;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const { data, isError } = useGetCleanestHoursQuery(locationName);
  const windows = data ? cleanestWindows(data) : [];
  const time = (ms: number) => formatLocal(ms, locale, timeZone, 'time');
  return (
    <SectionPanel labelledBy="cm-cleanest-title">
      <Stack gap="xs" data-testid="cleanest-hours">
        <div>
          <Title order={2} size="h4" id="cm-cleanest-title">
            {t('check.cleanest.title')}
          </Title>
          {data ? (
            <Text size="xs" c="dimmed">
              {t('check.cleanest.subtitle', {
                date: formatCalendarDate(data.date, locale),
                region: data.region,
              })}
            </Text>
          ) : null}
        </div>
        {isError ? (
          <Text size="sm">{t('check.cleanest.failed')}</Text>
        ) : !data ? (
          <Skeleton height={48} />
        ) : windows.length === 0 ? (
          <Text size="sm">{t('check.cleanest.none')}</Text>
        ) : (
          <>
            <List size="sm" spacing={2}>
              {windows.map((window) => (
                <List.Item key={window.fromMs} data-testid="cleanest-window">
                  <Text span fw={700} size="sm">
                    {t('check.cleanest.window', { from: time(window.fromMs), to: time(window.toMs) })}
                  </Text>{' '}
                  <Text span c="dimmed" size="sm">
                    {t('check.cleanest.average', {
                      value: formatNumber(window.average, locale, { maximumFractionDigits: 0 }),
                    })}
                  </Text>
                </List.Item>
              ))}
            </List>
            <Text size="xs" c="dimmed">
              {t('check.cleanest.hint')}
            </Text>
          </>
        )}
      </Stack>
    </SectionPanel>
  );
});
