import { Alert, Button, Stack, Table, Text, Title } from '@mantine/core';
import {
  IconAlertCircle,
  IconAlertTriangle,
  IconCircleCheck,
  IconDownload,
  IconInfoCircle,
} from '@tabler/icons-react';
import type { ImportReport } from '@cm/contracts/admin.ts';
import { useTranslation } from 'react-i18next';
import { formatEnergy, formatNumber, formatZonedDateTime } from '@/lib/format.ts';
import { downloadFile } from '@/lib/download-file.ts';
import classes from '../admin.module.css';
import { DetailTable, LineProblems } from './detail-table.tsx';
import { ReconciliationTable } from './reconciliation-table.tsx';
import {
  rejectedOverflow,
  reportCounts,
  reportMessage,
  reportTone,
  type ReportTone,
} from './import-report.ts';
import { AdminPanel } from '../admin-ui.tsx';

const toneStyle: Record<ReportTone, { color: string; titleKey: string }> = {
  stored: { color: 'teal', titleKey: 'admin.import.tone.stored' },
  storedWithProblems: { color: 'orange', titleKey: 'admin.import.tone.storedWithProblems' },
  nothingNew: { color: 'blue', titleKey: 'admin.import.tone.nothingNew' },
  nothingStored: { color: 'orange', titleKey: 'admin.import.tone.nothingStored' },
  refused: { color: 'red', titleKey: 'admin.import.tone.refused' },
};

function ToneIcon({ tone }: { tone: ReportTone }) {
  if (tone === 'stored') return <IconCircleCheck aria-hidden />;
  if (tone === 'refused') return <IconAlertCircle aria-hidden />;
  if (tone === 'nothingNew') return <IconInfoCircle aria-hidden />;
  return <IconAlertTriangle aria-hidden />;
}

/** The report of one import: headline, counts, rejected lines and conflicts. */
export function ImportReportView({
  report,
  fileName,
  isStrict,
  zoneOf,
  rejectedCsvUrl,
}: {
  report: ImportReport;
  fileName: string;
  isStrict: boolean;
  /** The zone of a meter's location: a conflict's time is said there, with its offset. */
  zoneOf: (meterNumber: string) => string;
  /** Where the refused lines download as CSV. */
  rejectedCsvUrl: string | null;
}) {
  const { t, i18n } = useTranslation();
  const tone = reportTone(report);
  const message = reportMessage(report, isStrict);
  const overflow = rejectedOverflow(report);
  return (
    <AdminPanel labelledBy="cm-report-title" testId="import-report">
      <Stack gap="md">
        <Title order={2} size="h4" id="cm-report-title">
          {t('admin.import.report', { file: fileName })}
        </Title>
        <Alert
          color={toneStyle[tone].color}
          variant="light"
          icon={<ToneIcon tone={tone} />}
          title={t(toneStyle[tone].titleKey)}
          // The icon and the tint carry the tone; the title keeps the text colour (4.5:1 on the tint).
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
          role="status"
        >
          {t(message.key, message.values)}
        </Alert>
        {report.notes.length > 0 ? (
          <Stack gap={4} component="ul" className={classes.plainList} data-testid="import-notes">
            {report.notes.map((note) => (
              <Text key={note} component="li" size="sm">
                {note}
              </Text>
            ))}
          </Stack>
        ) : null}
        <dl className={classes.counts} style={{ margin: 0 }}>
          {reportCounts(report).map((count) => (
            <div
              key={count.key}
              className={classes.count}
              data-testid={`count-${count.key.split('.').pop() ?? ''}`}
            >
              <Text component="dt" size="xs" c="dimmed">
                {t(count.key)}
              </Text>
              <Text
                component="dd"
                fw={700}
                size="lg"
                m={0}
                c={count.isProblem ? 'var(--mantine-color-error)' : undefined}
              >
                {formatNumber(count.value, i18n.language)}
              </Text>
            </div>
          ))}
        </dl>
        {(report.reconciliation ?? []).map((item) => (
          <ReconciliationTable
            key={`${item.meterNumber} ${item.channel}`}
            item={item}
            timeZone={zoneOf(item.meterNumber)}
          />
        ))}
        {report.rejected.length > 0 ? (
          <Stack gap="xs">
            <Title order={3} size="h5" id="cm-rejected-title">
              {t('admin.import.rejectedTitle')}
            </Title>
            <LineProblems problems={report.rejected} labelledBy="cm-rejected-title" testId="rejected-lines" />
            {overflow > 0 ? (
              <Text size="sm" c="dimmed">
                {t('admin.import.moreRejected', { count: overflow })}
              </Text>
            ) : null}
            {rejectedCsvUrl ? (
              <Button
                variant="subtle"
                size="compact-sm"
                leftSection={<IconDownload size={14} aria-hidden />}
                onClick={() => void downloadFile(rejectedCsvUrl, `${fileName}-rejected.csv`)}
                style={{ alignSelf: 'flex-start' }}
              >
                {t('admin.import.downloadRejected')}
              </Button>
            ) : null}
          </Stack>
        ) : null}
        {report.conflicts.length > 0 ? (
          <Stack gap="xs">
            <Title order={3} size="h5" id="cm-conflicts-title">
              {t('admin.import.conflictsTitle')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('admin.import.conflictsHint')}
            </Text>
            <DetailTable
              labelledBy="cm-conflicts-title"
              minWidth={560}
              headers={[
                t('admin.import.line'),
                t('admin.devices.fields.meterNumber'),
                t('admin.import.at'),
                t('admin.import.stored'),
                t('admin.import.incoming'),
              ]}
            >
              {report.conflicts.map((conflict) => (
                <Table.Tr key={`${conflict.line}-${conflict.at}`}>
                  <Table.Td>{conflict.line}</Table.Td>
                  <Table.Td className={classes.mono}>{conflict.meterNumber}</Table.Td>
                  <Table.Td className={classes.nowrap}>
                    {formatZonedDateTime(conflict.at, i18n.language, zoneOf(conflict.meterNumber))}
                  </Table.Td>
                  <Table.Td className={classes.nowrap}>
                    {formatEnergy(conflict.stored, i18n.language)}
                  </Table.Td>
                  <Table.Td className={classes.nowrap}>
                    {formatEnergy(conflict.incoming, i18n.language)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </DetailTable>
          </Stack>
        ) : null}
      </Stack>
    </AdminPanel>
  );
}
