import { Code, Select, Table, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format.ts';
import { toFailure } from '@/lib/http-client.ts';
import { useListAuditQuery } from './api.ts';
import { AdminTable } from './admin-ui.tsx';
import { auditDetail } from './audit-detail.ts';
import { AdminListPage } from './list/admin-list-page.tsx';
import { useListState } from './list/use-list-state.ts';
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
  // The target id is typed: it is the list's search.
  const list = useListState<{ targetType: string | null }>({ targetType: null });
  const { targetType } = list.filters;
  const query = useListAuditQuery({
    targetType: targetType ?? undefined,
    targetId: list.debouncedSearch,
    page: list.page,
    pageSize: PAGE_SIZE,
  });
  const rows = query.data?.items ?? [];

  return (
    <AdminListPage
      header={{ title: t('admin.audit.title'), intro: t('admin.audit.intro') }}
      filters={{
        label: t('admin.audit.filters'),
        fields: (
          <>
            <Select
              className={classes.filterField}
              label={t('admin.audit.targetType')}
              placeholder={t('admin.audit.anyTarget')}
              data={Object.entries(targetTypeKeys).map(([value, key]) => ({ value, label: t(key) }))}
              value={targetType}
              onChange={(value) => list.setFilter('targetType', value)}
              clearable
            />
            <TextInput
              className={classes.filterField}
              label={t('admin.audit.targetId')}
              value={list.search}
              onChange={(event) => list.setSearch(event.currentTarget.value)}
            />
          </>
        ),
      }}
      failure={toFailure(query.error)}
      table={
        <AdminTable
          headers={[
            t('admin.audit.at'),
            t('admin.audit.actor'),
            t('admin.audit.action'),
            t('admin.audit.target'),
            t('admin.audit.detail'),
          ]}
          isBusy={query.isFetching}
          isEmpty={rows.length === 0}
          emptyText={t('admin.audit.empty')}
          minWidth={720}
        >
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
        </AdminTable>
      }
      pager={{ page: list.page, pageSize: PAGE_SIZE, total: query.data?.total, onChange: list.setPage }}
    />
  );
}
