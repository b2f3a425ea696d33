import { Select, Table, Text, TextInput } from '@mantine/core';
import { auditActions } from '@cm/contracts/admin.ts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readerTimeZone, utcOffsetText } from '@/lib/format.ts';
import { toFailure } from '@/lib/http-client.ts';
import { useListAuditQuery } from './audit-api.ts';
import { useListUsersQuery } from './users/users-api.ts';
import { AdminTable } from './admin-ui.tsx';
import { auditSentence, entryDetail } from './audit-detail.ts';
import { AdminListPage } from './list/admin-list-page.tsx';
import { useListState } from './list/use-list-state.ts';
import { zonedLocalToIso } from './zoned-time.ts';
import classes from './admin.module.css';

const PAGE_SIZE = 50;
/** The people the actor filter offers (the administrators and clients a log names). */
const ACTOR_CHOICES = 100;

/** Target types the server writes; the filter offers them, the table shows whatever comes. */
const targetTypeKeys: Record<string, string> = {
  user: 'admin.audit.targetTypes.user',
  location: 'admin.audit.targetTypes.location',
  device: 'admin.audit.targetTypes.device',
  meter: 'admin.audit.targetTypes.meter',
  'api-key': 'admin.audit.targetTypes.apiKey',
  readings: 'admin.audit.targetTypes.readings',
  'price-series': 'admin.audit.targetTypes.priceSeries',
  'carbon-series': 'admin.audit.targetTypes.carbonSeries',
};

interface AuditFilters {
  targetType: string | null;
  actorUserId: string | null;
  action: string | null;
  /** Local dates (YYYY-MM-DD) in the reader's zone; `to` included. */
  from: string;
  to: string;
}

/** A local date's start in `timeZone` as an instant with offset; the day after for an inclusive end. */
function dayStart(date: string, timeZone: string, daysLater = 0): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + daysLater);
  return zonedLocalToIso(`${day.toISOString().slice(0, 10)}T00:00`, timeZone) ?? undefined;
}

/** The audit log, newest first, in sentences, filtered by time, actor, action and target. */
export function AuditPage() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  // The log is not one location's: its times are the reader's, and say so.
  const timeZone = readerTimeZone();
  // The target id is typed: it is the list's search.
  const list = useListState<AuditFilters>({
    targetType: null,
    actorUserId: null,
    action: null,
    from: '',
    to: '',
  });
  const { filters } = list;
  const query = useListAuditQuery({
    targetType: filters.targetType ?? undefined,
    targetId: list.debouncedSearch,
    actorUserId: filters.actorUserId === null ? undefined : Number(filters.actorUserId),
    action: auditActions.find((action) => action === filters.action),
    from: dayStart(filters.from, timeZone),
    to: dayStart(filters.to, timeZone, 1),
    page: list.page,
    pageSize: PAGE_SIZE,
  });
  const people = useListUsersQuery({ page: 1, pageSize: ACTOR_CHOICES });
  const rows = query.data?.items ?? [];
  // 24-hour times with seconds, in the reader's zone (said in the intro).
  const time = useMemo(
    () =>
      new Intl.DateTimeFormat(locale, {
        dateStyle: 'medium',
        timeStyle: 'medium',
        hourCycle: 'h23',
        timeZone,
      }),
    [locale, timeZone],
  );
  // The offset as the page opened (said beside the zone's name).
  const [openedAt] = useState(() => Date.now());
  const offset = utcOffsetText(openedAt, timeZone);

  return (
    <AdminListPage
      header={{ title: t('admin.audit.title'), intro: t('admin.audit.intro', { zone: timeZone, offset }) }}
      filters={{
        label: t('admin.audit.filters'),
        fields: (
          <>
            {(['from', 'to'] as const).map((bound) => (
              <TextInput
                key={bound}
                className={classes.filterField}
                type="date"
                label={t(`admin.audit.${bound}`)}
                value={filters[bound]}
                onChange={(event) => list.setFilter(bound, event.currentTarget.value)}
              />
            ))}
            <Select
              className={classes.filterField}
              label={t('admin.audit.actor')}
              placeholder={t('admin.audit.anyActor')}
              data={(people.data?.items ?? []).map((user) => ({
                value: String(user.id),
                label: user.fullName || user.email,
              }))}
              value={filters.actorUserId}
              onChange={(value) => list.setFilter('actorUserId', value)}
              searchable
              clearable
            />
            <Select
              className={classes.filterField}
              label={t('admin.audit.action')}
              placeholder={t('admin.audit.anyAction')}
              data={auditActions.map((action) => ({
                value: action,
                label: t(`admin.audit.actions.${action}`),
              }))}
              value={filters.action}
              onChange={(value) => list.setFilter('action', value)}
              clearable
            />
            <Select
              className={classes.filterField}
              label={t('admin.audit.targetType')}
              placeholder={t('admin.audit.anyTarget')}
              data={Object.entries(targetTypeKeys).map(([value, key]) => ({ value, label: t(key) }))}
              value={filters.targetType}
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
          headers={[t('admin.audit.at'), t('admin.audit.what'), t('admin.audit.detail')]}
          isBusy={query.isFetching}
          isEmpty={rows.length === 0}
          emptyText={t('admin.audit.empty')}
          minWidth={560}
        >
          {rows.map((entry) => (
            <Table.Tr key={entry.id} data-testid={`audit-${entry.id}`}>
              <Table.Td className={classes.nowrap}>
                <Text size="sm" component="time" dateTime={entry.at}>
                  {time.format(new Date(entry.at))}
                </Text>
              </Table.Td>
              <Table.Td data-testid="audit-sentence">{auditSentence(entry, t)}</Table.Td>
              <Table.Td data-testid="audit-detail">
                <Text size="xs" lineClamp={4}>
                  {entryDetail(entry, { t, locale, timeZone }).join(' · ')}
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
