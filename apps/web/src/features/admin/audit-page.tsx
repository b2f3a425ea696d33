import { Code, Paper, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format.ts';
import { toAdminFailure, useListAuditQuery } from './api.ts';
import { AdminPageHeader, FailureAlert, ListPager } from './admin-ui.tsx';
import { auditDetail } from './audit-detail.ts';
import classes from './admin.module.css';

const PAGE_SIZE = 50;

/** Target types the server writes; the filter offers them, the table shows whatever comes. */
const targetTypeKeys: Record<string, string> = {
  user: 'admin.audit.targetTypes.user',
  location: 'admin.audit.targetTypes.location',
  device: 'admin.audit.targetTypes.device',
  meter: 'admin.audit.targetTypes.meter',
  'api-key': 'admin.audit.targetTypes.apiKey',
  readings: 'admin.audit.targetTypes.readings',
};

/** The audit log, newest first, filtered by target. */
export function AuditPage() {
  const { t, i18n } = useTranslation();
  const [targetType, setTargetType] = useState<string | null>(null);
  const [targetId, setTargetId] = useState('');
  const [debouncedId] = useDebouncedValue(targetId.trim(), 250);
  const [page, setPage] = useState(1);
  const query = useListAuditQuery({
    targetType: targetType ?? undefined,
    targetId: debouncedId,
    page,
    pageSize: PAGE_SIZE,
  });
  const rows = query.data?.items ?? [];

  return (
    <Stack gap="md" className={classes.page}>
      <AdminPageHeader title={t('admin.audit.title')} intro={t('admin.audit.intro')} />
      <Paper withBorder p="md" radius="md" className={classes.panel}>
        <Stack gap="md">
          <div className={classes.filters} role="search" aria-label={t('admin.audit.filters')}>
            <Select
              className={classes.filterField}
              label={t('admin.audit.targetType')}
              placeholder={t('admin.audit.anyTarget')}
              data={Object.entries(targetTypeKeys).map(([value, key]) => ({ value, label: t(key) }))}
              value={targetType}
              onChange={(value) => {
                setTargetType(value);
                setPage(1);
              }}
              clearable
            />
            <TextInput
              className={classes.filterField}
              label={t('admin.audit.targetId')}
              value={targetId}
              onChange={(event) => {
                setTargetId(event.currentTarget.value);
                setPage(1);
              }}
            />
          </div>
          <FailureAlert failure={toAdminFailure(query.error)} />
          <div className={classes.tableWrap}>
            <Table striped verticalSpacing="xs" aria-busy={query.isFetching} miw={720}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('admin.audit.at')}</Table.Th>
                  <Table.Th>{t('admin.audit.actor')}</Table.Th>
                  <Table.Th>{t('admin.audit.action')}</Table.Th>
                  <Table.Th>{t('admin.audit.target')}</Table.Th>
                  <Table.Th>{t('admin.audit.detail')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.length === 0 && !query.isFetching ? (
                  <Table.Tr>
                    <Table.Td colSpan={5}>
                      <Text size="sm" c="dimmed" ta="center" py="md">
                        {t('admin.audit.empty')}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : null}
                {rows.map((entry) => (
                  <Table.Tr key={entry.id}>
                    <Table.Td className={classes.nowrap}>
                      <Text size="sm" component="time" dateTime={entry.at}>
                        {formatDateTime(entry.at, i18n.language)}
                      </Text>
                    </Table.Td>
                    <Table.Td className={classes.nowrap}>
                      {entry.actorUserId !== null
                        ? t('admin.audit.actorUser', { id: entry.actorUserId })
                        : entry.actorApiKeyId !== null
                          ? t('admin.audit.actorApiKey', { id: entry.actorApiKeyId })
                          : t('admin.audit.actorSystem')}
                    </Table.Td>
                    <Table.Td>
                      <Code>{entry.action}</Code>
                    </Table.Td>
                    <Table.Td className={classes.mono}>
                      {targetTypeKeys[entry.targetType]
                        ? t(targetTypeKeys[entry.targetType] ?? '')
                        : entry.targetType}
                      {entry.targetId === null ? null : ` ${entry.targetId}`}
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs" className={classes.mono} lineClamp={3}>
                        {auditDetail(entry.detail)}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
          {query.data ? (
            <ListPager page={page} pageSize={PAGE_SIZE} total={query.data.total} onChange={setPage} />
          ) : null}
        </Stack>
      </Paper>
    </Stack>
  );
}
