import { Table } from '@mantine/core';
import type { BlocksSummary } from '@cm/contracts/import-jobs.ts';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format.ts';
import { DetailTable } from './detail-table.tsx';
import { DaysCell } from './mdff-summary.tsx';

/** What a block-per-day file holds per direction, before any meter is chosen. */
export function BlocksSummaryTable({ summary }: { summary: BlocksSummary }) {
  const { t, i18n } = useTranslation();
  return (
    <DetailTable
      caption={t('admin.import.blocks.title')}
      minWidth={560}
      striped={false}
      testId="import-preview-blocks"
      headers={[
        t('admin.import.blocks.direction'),
        t('admin.import.preview.channel'),
        t('admin.import.mdff.unit'),
        t('admin.import.mdff.values'),
        t('admin.import.mdff.days'),
      ]}
    >
      {summary.directions.map((found) => (
        <Table.Tr key={found.direction}>
          <Table.Td>{found.direction}</Table.Td>
          <Table.Td>{t(`admin.import.preview.channels.${found.channel}`)}</Table.Td>
          <Table.Td>{found.unit}</Table.Td>
          <Table.Td>{formatNumber(found.values, i18n.language)}</Table.Td>
          <DaysCell days={found.days} />
        </Table.Tr>
      ))}
    </DetailTable>
  );
}
