import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import type { MdffSummary } from '@cm/contracts/import-jobs.ts';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format.ts';
import classes from '../admin.module.css';
import { DetailTable } from './detail-table.tsx';

/** Days listed per NMI and suffix before "…". */
const SHOWN_DAYS = 7;

/** Values per day, the first days of them: "2024-01-01: 48, 2024-01-02: 48, …". */
export function DaysCell({ days }: { days: ReadonlyArray<{ date: string; values: number }> }) {
  const { i18n } = useTranslation();
  return (
    <Table.Td className={classes.nowrap}>
      {days
        .slice(0, SHOWN_DAYS)
        .map((day) => `${day.date}: ${formatNumber(day.values, i18n.language)}`)
        .join(', ')}
      {days.length > SHOWN_DAYS ? ', …' : ''}
    </Table.Td>
  );
}

/** What a NEM12/NEM13 file holds per NMI and suffix, before any meter is chosen. */
export function MdffSummaryTable({ summary }: { summary: MdffSummary }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  return (
    <Stack gap={4}>
      <DetailTable
        caption={t('admin.import.mdff.title', { version: summary.version })}
        minWidth={720}
        striped={false}
        testId="import-preview-nmis"
        headers={[
          t('admin.import.mdff.nmi'),
          t('admin.import.mdff.suffix'),
          t('admin.import.preview.channel'),
          t('admin.import.mdff.unit'),
          t('admin.import.preview.interval'),
          t('admin.import.mdff.meter'),
          t('admin.import.mdff.values'),
          t('admin.import.mdff.days'),
        ]}
      >
        {summary.series.map((series) => (
          <Table.Tr key={`${series.nmi}/${series.suffix}/${series.channel ?? ''}`}>
            <Table.Td className={classes.mono}>{series.nmi}</Table.Td>
            <Table.Td className={classes.mono}>{series.suffix}</Table.Td>
            <Table.Td>
              {series.channel
                ? t(`admin.import.preview.channels.${series.channel}`)
                : t('admin.import.mdff.notEnergy')}
            </Table.Td>
            <Table.Td>{series.unit}</Table.Td>
            <Table.Td>
              {series.intervalMinutes === null
                ? '—'
                : t('admin.import.preview.minutes', { count: series.intervalMinutes })}
            </Table.Td>
            <Table.Td className={classes.mono}>
              {series.meterNumber === null ? (
                '—'
              ) : (
                <Group gap={6} wrap="nowrap">
                  {series.meterNumber}
                  {series.known ? null : (
                    <Badge color="red" variant="light" size="sm">
                      {t('admin.import.mdff.noMeter')}
                    </Badge>
                  )}
                </Group>
              )}
            </Table.Td>
            <Table.Td>{n(series.values)}</Table.Td>
            <DaysCell days={series.days} />
          </Table.Tr>
        ))}
      </DetailTable>
      <Text size="sm" data-testid="import-preview-market-time">
        {t('admin.import.mdff.marketTime')}
      </Text>
    </Stack>
  );
}
