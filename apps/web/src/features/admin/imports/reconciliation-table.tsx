import { Table, Text } from '@mantine/core';
import type { Reconciliation } from '@cm/contracts/import-jobs.ts';
import { useTranslation } from 'react-i18next';
import { formatEnergy, formatZonedDateTime } from '@/lib/format.ts';
import classes from '../admin.module.css';
import { DetailTable } from './detail-table.tsx';

type Period = Reconciliation['periods'][number];

/**
 * Where the file has registers and interval records of one meter and channel: per day (or period
 * between reads) and over the range, the register's advance, the summed intervals and the rest
 * they do not explain.
 */
export function ReconciliationTable({ item, timeZone }: { item: Reconciliation; timeZone: string }) {
  const { t, i18n } = useTranslation();
  const energy = (kwh: number | null) => (kwh === null ? '—' : formatEnergy(kwh, i18n.language, 6));
  const span = (period: Period) =>
    period.date ??
    `${formatZonedDateTime(period.from, i18n.language, timeZone)} → ${formatZonedDateTime(period.to, i18n.language, timeZone)}`;
  const row = (period: Period, label: string, isTotal = false) => (
    <Table.Tr key={label} fw={isTotal ? 600 : undefined}>
      <Table.Td className={classes.nowrap}>{label}</Table.Td>
      <Table.Td>{energy(period.registerKwh)}</Table.Td>
      <Table.Td>{energy(period.intervalKwh)}</Table.Td>
      <Table.Td>{t('admin.import.preview.minutes', { count: period.intervalMinutes })}</Table.Td>
      <Table.Td>{energy(period.restKwh)}</Table.Td>
    </Table.Tr>
  );
  return (
    <>
      <DetailTable
        caption={t('admin.import.reconcile.caption', {
          meter: item.meterNumber,
          channel: t(`admin.import.preview.channels.${item.channel}`),
        })}
        minWidth={640}
        striped={false}
        testId="import-reconciliation"
        headers={[
          t('admin.import.reconcile.period'),
          t('admin.import.reconcile.register'),
          t('admin.import.reconcile.intervals'),
          t('admin.import.reconcile.covered'),
          t('admin.import.reconcile.rest'),
        ]}
      >
        {item.periods.map((period) => row(period, span(period)))}
        {row(item.total, t('admin.import.reconcile.total', { span: span(item.total) }), true)}
      </DetailTable>
      {item.morePeriods > 0 ? (
        <Text size="xs" c="dimmed">
          {t('admin.import.reconcile.more', { count: item.morePeriods })}
        </Text>
      ) : null}
    </>
  );
}
