import { Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import type { MonthlyPeaksQuery } from '@cm/contracts/demand.ts';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPower } from '@/lib/format.ts';
import { useGetMonthlyPeaksQuery } from '../api.ts';
import { formatIsoInZone } from '../model/local-format.ts';
import { SectionPanel } from '../ui/section-panel.tsx';
import { Stat } from '../ui/stat.tsx';
import classes from '../check.module.css';

interface MonthlyPeaksPanelProps {
  /** The location, one of its meters or none (the location's own demand), and the last month. */
  query: MonthlyPeaksQuery;
  timeZone: string;
}

/**
 * A meter's or location's peak demand in each of 12 months and their rolling average, as a capacity
 * tariff charges it (each month at least the floor). The server sums a location's meters; the page
 * only words the answer. A memo component: the section below the chart renders again when a
 * comparison lands, and 12 months of rows need not.
 */
export const MonthlyPeaksPanel = memo(function MonthlyPeaksPanel({
  query,
  timeZone,
}: MonthlyPeaksPanelProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const answer = useGetMonthlyPeaksQuery(query);
  const data = answer.data;
  return (
    <SectionPanel labelledBy="cm-peaks-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="cm-peaks-title">
          {t('check.peaks.title')}
        </Title>
        {answer.isError ? (
          <Text size="sm" c="dimmed" role="alert">
            {t('check.peaks.failed')}
          </Text>
        ) : !data ? (
          <Skeleton height={120} />
        ) : (
          <>
            <Text size="sm" c="dimmed">
              {t(`check.peaks.basis.${data.basis}`)}
            </Text>
            <Stat
              testId="rolling-average"
              label={t('check.peaks.rolling')}
              value={
                data.rollingAverage.kW === null
                  ? '—'
                  : formatPower(data.rollingAverage.kW, locale, data.rollingAverage.isAtLeast)
              }
              hint={t('check.peaks.rollingHint', {
                floor: formatPower(data.rollingAverage.floorKw, locale),
                count: data.rollingAverage.months,
              })}
            />
            <div
              className={classes.tableScroll}
              tabIndex={0}
              role="region"
              aria-label={t('check.peaks.region')}
            >
              <Table striped verticalSpacing={4} data-testid="monthly-peaks">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('check.peaks.month')}</Table.Th>
                    <Table.Th className={classes.num}>{t('check.peaks.peak')}</Table.Th>
                    <Table.Th>{t('check.peaks.at')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.months.map((month) => (
                    <Table.Tr key={month.month}>
                      <Table.Td className={classes.nowrap}>
                        {formatIsoInZone(month.from, locale, timeZone, 'month')}
                      </Table.Td>
                      <Table.Td className={classes.num}>
                        {month.peak ? formatPower(month.peak.kW, locale, month.peak.isAtLeast) : '—'}
                      </Table.Td>
                      <Table.Td className={classes.nowrap}>
                        {month.peak
                          ? formatIsoInZone(month.peak.from, locale, timeZone)
                          : t('check.peaks.none')}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </div>
            {data.months.some((month) => month.peak?.isAtLeast) ? (
              <Text size="xs" c="dimmed">
                {t('check.peaks.atLeastNote')}
              </Text>
            ) : null}
          </>
        )}
      </Stack>
    </SectionPanel>
  );
});
