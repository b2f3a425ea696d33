import { Alert, Badge, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconInfoCircle } from '@tabler/icons-react';
import type { ImportPreview } from '@cm/contracts/import-jobs.ts';
import { useTranslation } from 'react-i18next';
import { formatEnergy, formatNumber, formatZonedDateTime, readerTimeZone } from '@/lib/format.ts';
import classes from '../admin.module.css';
import { DetailTable, LineProblems } from './detail-table.tsx';
import { BlocksSummaryTable } from './blocks-summary.tsx';
import { MdffSummaryTable } from './mdff-summary.tsx';
import { ReconciliationTable } from './reconciliation-table.tsx';
import { AdminPanel } from '../admin-ui.tsx';

type PreviewRow = ImportPreview['first'][number];

/** Days shown in the preview's per-day table before "and N more days". */
const SHOWN_DAYS = 14;

function RowsTable({
  rows,
  caption,
  timeZone,
}: {
  rows: PreviewRow[];
  caption: string;
  /** The meters' location's zone; the reader's when the file names no known meter. */
  timeZone: string;
}) {
  const { t, i18n } = useTranslation();
  if (rows.length === 0) return null;
  return (
    <DetailTable
      caption={caption}
      minWidth={640}
      headers={[
        t('admin.import.line'),
        t('admin.devices.fields.meterNumber'),
        t('admin.import.preview.channel'),
        t('admin.import.preview.from'),
        t('admin.import.preview.to'),
        t('admin.import.preview.value'),
        t('admin.import.preview.quality'),
      ]}
    >
      {rows.map((row) => (
        <Table.Tr key={`${row.line}-${row.channel}-${row.start}`}>
          <Table.Td>{formatNumber(row.line, i18n.language, { useGrouping: false })}</Table.Td>
          <Table.Td className={classes.mono}>{row.meterNumber}</Table.Td>
          <Table.Td>{t(`admin.import.preview.channels.${row.channel}`)}</Table.Td>
          <Table.Td className={classes.nowrap}>
            {formatZonedDateTime(row.start, i18n.language, timeZone)}
          </Table.Td>
          <Table.Td className={classes.nowrap}>
            {row.end ? formatZonedDateTime(row.end, i18n.language, timeZone) : '—'}
          </Table.Td>
          <Table.Td className={classes.nowrap}>
            {row.kind === 'register'
              ? t('admin.import.preview.register', {
                  value: formatNumber(row.value, i18n.language, { maximumFractionDigits: 6 }),
                })
              : formatEnergy(row.value, i18n.language, 6)}
          </Table.Td>
          <Table.Td>{t(`admin.import.preview.qualities.${row.quality}`)}</Table.Td>
        </Table.Tr>
      ))}
    </DetailTable>
  );
}

/** What the file holds, read as it would be imported: nothing is stored yet. */
export function PreviewPanel({ preview }: { preview: ImportPreview }) {
  const { t, i18n } = useTranslation();
  const timeZone = preview.meters.find((meter) => meter.known)?.timeZone ?? readerTimeZone();
  const n = (value: number) => formatNumber(value, i18n.language);
  return (
    <AdminPanel labelledBy="cm-preview-title" testId="import-preview">
      <Stack gap="md">
        <Title order={2} size="h4" id="cm-preview-title">
          {t('admin.import.preview.title')}
        </Title>
        <Alert
          color="blue"
          variant="light"
          icon={<IconInfoCircle aria-hidden />}
          title={t('admin.import.preview.detected')}
        >
          <Text size="sm" data-testid="import-detected">
            {preview.reason}
          </Text>
        </Alert>
        {preview.blocks ? <BlocksSummaryTable summary={preview.blocks} /> : null}
        {preview.refusal ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle aria-hidden />}
            title={t('admin.import.tone.refused')}
            role="alert"
          >
            {preview.refusal}
          </Alert>
        ) : (
          <>
            <Text size="sm" data-testid="import-preview-counts">
              {t('admin.import.preview.counts', {
                rows: n(preview.rowsRead),
                readings: n(preview.readings),
                rejected: n(preview.rejectedCount),
              })}
            </Text>
            <DetailTable
              caption={t('admin.import.preview.meters')}
              minWidth={640}
              striped={false}
              testId="import-preview-meters"
              headers={[
                t('admin.devices.fields.meterNumber'),
                t('admin.import.preview.location'),
                t('admin.import.preview.channel'),
                t('admin.import.preview.readings'),
                t('admin.import.preview.interval'),
                t('admin.import.preview.span'),
              ]}
            >
              {preview.meters.map((meter) => (
                <Table.Tr key={meter.meterNumber}>
                  <Table.Td className={classes.mono}>
                    <Group gap={6} wrap="nowrap">
                      {meter.meterNumber}
                      {meter.known ? null : (
                        <Badge color="red" variant="light" size="sm">
                          {t('admin.import.preview.unknownMeter', { count: meter.lines })}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{meter.location ?? '—'}</Table.Td>
                  <Table.Td>
                    {meter.channels
                      .map((channel) => t(`admin.import.preview.channels.${channel}`))
                      .join(', ') || '—'}
                  </Table.Td>
                  <Table.Td>{n(meter.readings)}</Table.Td>
                  <Table.Td>
                    {meter.intervalMinutes === null
                      ? '—'
                      : t('admin.import.preview.minutes', { count: meter.intervalMinutes })}
                  </Table.Td>
                  <Table.Td className={classes.nowrap}>
                    {meter.from && meter.to
                      ? `${formatZonedDateTime(meter.from, i18n.language, meter.timeZone ?? readerTimeZone())} → ${formatZonedDateTime(meter.to, i18n.language, meter.timeZone ?? readerTimeZone())}`
                      : '—'}
                  </Table.Td>
                </Table.Tr>
              ))}
            </DetailTable>
            {preview.mdff ? <MdffSummaryTable summary={preview.mdff} /> : null}
            {(preview.reconciliation ?? []).map((item) => (
              <ReconciliationTable
                key={`${item.meterNumber} ${item.channel}`}
                item={item}
                timeZone={
                  preview.meters.find((meter) => meter.meterNumber === item.meterNumber)?.timeZone ?? timeZone
                }
              />
            ))}
            {preview.notes.length > 0 ? (
              <Stack gap={4}>
                <Text size="sm" fw={600}>
                  {t('admin.import.preview.notes')}
                </Text>
                <ul className={classes.plainList} data-testid="import-preview-notes">
                  {preview.notes.map((note) => (
                    <Text key={note} component="li" size="sm">
                      {note}
                    </Text>
                  ))}
                </ul>
              </Stack>
            ) : null}
            <RowsTable rows={preview.first} caption={t('admin.import.preview.first')} timeZone={timeZone} />
            <RowsTable rows={preview.last} caption={t('admin.import.preview.last')} timeZone={timeZone} />
            {preview.days.length > 0 ? (
              <DetailTable
                caption={t('admin.import.preview.days', { count: preview.days.length })}
                minWidth={360}
                striped={false}
                testId="import-preview-days"
                headers={[
                  t('admin.import.preview.day'),
                  t('admin.import.preview.channels.import'),
                  t('admin.import.preview.channels.export'),
                ]}
              >
                {[
                  ...preview.days.slice(0, SHOWN_DAYS / 2),
                  ...(preview.days.length > SHOWN_DAYS
                    ? preview.days.slice(-SHOWN_DAYS / 2)
                    : preview.days.slice(SHOWN_DAYS / 2)),
                ].map((day) => (
                  <Table.Tr key={day.date}>
                    <Table.Td className={classes.nowrap}>{day.date}</Table.Td>
                    <Table.Td>{n(day.import)}</Table.Td>
                    <Table.Td>{n(day.export)}</Table.Td>
                  </Table.Tr>
                ))}
              </DetailTable>
            ) : null}
            {preview.problems.length > 0 ? (
              <LineProblems
                problems={preview.problems}
                caption={t('admin.import.preview.problems', { count: preview.rejectedCount })}
                testId="import-preview-problems"
              />
            ) : null}
          </>
        )}
      </Stack>
    </AdminPanel>
  );
}
