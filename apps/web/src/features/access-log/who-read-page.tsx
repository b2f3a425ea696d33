import { Alert, Anchor, Box, Button, Group, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconFileDownload } from '@tabler/icons-react';
import type { AccessLogEntry } from '@cm/contracts/access-log.ts';
import { itemSuggestionLink } from '@cm/contracts/suggestion-ids.ts';
import { useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PRODUCT_NAME } from '@/lib/config.ts';
import { downloadFile, dispositionName } from '@/lib/download-file.ts';
import { readerTimeZone } from '@/lib/format.ts';
import { toFailure } from '@/lib/http-client.ts';
import { accessLogCsvUrl, useGetAccessLogQuery } from './access-log-api.ts';
import { pagerLabels } from '@/components/pager-labels.ts';

const PAGE_SIZE = 50;

/**
 * "Who read my data" (issue 37): every read of one meter's data by someone other than its
 * customer in the web app — an administrator, an API key, a webhook, a file, an app — newest
 * first, with the range and the kind of data read; the whole log as CSV.
 */
export function WhoReadPage() {
  const { t, i18n } = useTranslation();
  const meterNumber = useParams().meterNumber ?? '';
  const [page, setPage] = useState(1);
  const [isSaving, setSaving] = useState(false);
  useDocumentTitle(`${t('accessLog.title', { meterNumber })} · ${PRODUCT_NAME}`);
  const query = useGetAccessLogQuery({ meterNumber, page, pageSize: PAGE_SIZE });
  const timeZone = readerTimeZone();
  const time = useMemo(
    () =>
      new Intl.DateTimeFormat(i18n.language, {
        dateStyle: 'medium',
        timeStyle: 'short',
        hourCycle: 'h23',
        timeZone,
      }),
    [i18n.language, timeZone],
  );
  const failure = toFailure(query.error);
  const rows = query.data?.items ?? [];
  const total = query.data?.total ?? 0;

  const range = (entry: AccessLogEntry) =>
    entry.from === null || entry.to === null
      ? '—'
      : t('accessLog.range', {
          from: time.format(new Date(entry.from)),
          to: time.format(new Date(entry.to)),
        });

  async function handleCsv() {
    setSaving(true);
    const fallback = `who-read-${meterNumber}.csv`;
    const result = await downloadFile(
      accessLogCsvUrl(meterNumber),
      fallback,
      undefined,
      (disposition) => dispositionName(disposition) ?? fallback,
    );
    setSaving(false);
    if (!result.ok) toast.error(t('accessLog.csvFailed'), { id: 'access-log-csv' });
  }

  return (
    <Stack gap="md" maw={1100}>
      <div>
        <Title order={1}>{t('accessLog.title', { meterNumber })}</Title>
        <Text c="dimmed" size="sm">
          {t('accessLog.intro', { zone: timeZone })}
        </Text>
        <Anchor component={Link} to={itemSuggestionLink('meter', meterNumber)} size="sm">
          {t('accessLog.backToMeter', { meterNumber })}
        </Anchor>
      </div>
      {failure ? (
        <Alert color="red" role="alert">
          {failure.status === 404 ? t('accessLog.notFound') : (failure.message ?? t('accessLog.failed'))}
        </Alert>
      ) : (
        <>
          <Group justify="space-between">
            <Text size="sm" role="status">
              {query.isLoading ? t('accessLog.loading') : t('accessLog.count', { count: total })}
            </Text>
            <Button
              size="xs"
              variant="default"
              leftSection={<IconFileDownload size={14} aria-hidden />}
              loading={isSaving}
              onClick={() => void handleCsv()}
              data-testid="access-log-csv"
            >
              {t('accessLog.csv')}
            </Button>
          </Group>
          <Box
            style={{ overflowX: 'auto' }}
            tabIndex={0}
            role="region"
            aria-label={t('accessLog.title', { meterNumber })}
          >
            <Table striped miw={640} data-testid="access-log">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('accessLog.at')}</Table.Th>
                  <Table.Th>{t('accessLog.by')}</Table.Th>
                  <Table.Th>{t('accessLog.how')}</Table.Th>
                  <Table.Th>{t('accessLog.data')}</Table.Th>
                  <Table.Th>{t('accessLog.rangeHeader')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((entry) => (
                  <Table.Tr key={entry.id} data-testid="access-log-row">
                    <Table.Td>
                      <Text size="sm" component="time" dateTime={entry.at}>
                        {time.format(new Date(entry.at))}
                      </Text>
                    </Table.Td>
                    <Table.Td>{entry.by}</Table.Td>
                    <Table.Td>
                      {t(`accessLog.channels.${entry.channel}`)}
                      <Text size="xs" c="dimmed">
                        {entry.what}
                      </Text>
                    </Table.Td>
                    <Table.Td>{entry.data.map((kind) => t(`accessLog.kinds.${kind}`)).join(', ')}</Table.Td>
                    <Table.Td>{range(entry)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Box>
          {!query.isLoading && rows.length === 0 ? <Text c="dimmed">{t('accessLog.empty')}</Text> : null}
          {total > PAGE_SIZE ? (
            <Pagination
              total={Math.ceil(total / PAGE_SIZE)}
              value={page}
              onChange={setPage}
              size="sm"
              {...pagerLabels(t)}
            />
          ) : null}
        </>
      )}
    </Stack>
  );
}
