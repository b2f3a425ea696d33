import { Button, Drawer, Switch, Tabs } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { AdminLocation } from '@cm/contracts/admin.ts';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { toFailure } from '@/lib/http-client.ts';
import { AdminTable, ConfirmDialog, useFailureToast } from '../admin-ui.tsx';
import { useListLocationsQuery, useSetLocationArchivedMutation } from './locations-api.ts';
import { AdminListPage } from '../list/admin-list-page.tsx';
import { SearchField } from '../list/search-field.tsx';
import { useListState } from '../list/use-list-state.ts';
import { LocationForm } from './location-form.tsx';
import { LocationMeters } from './location-meters.tsx';
import { LocationTariffs } from './location-tariffs.tsx';
import { LocationAlerts } from './location-alerts.tsx';
import { LocationRow } from './location-row.tsx';

const PAGE_SIZE = 20;

/** Locations: find, create, edit, archive/restore, see their meters. */
export function LocationsPage() {
  const { t } = useTranslation();
  const showFailure = useFailureToast();
  const list = useListState({ includeArchived: false });
  const { includeArchived } = list.filters;
  const [editing, setEditing] = useState<AdminLocation | 'new' | null>(null);
  const [metersOf, setMetersOf] = useState<AdminLocation | null>(null);
  const [confirmArchive, setConfirmArchive] = useState<AdminLocation | null>(null);
  const query = useListLocationsQuery({
    search: list.debouncedSearch,
    includeArchived,
    page: list.page,
    pageSize: PAGE_SIZE,
  });
  const [setArchived, archiveState] = useSetLocationArchivedMutation();

  async function handleArchived(location: AdminLocation, isArchived: boolean) {
    try {
      await setArchived({ id: location.id, isArchived }).unwrap();
      toast.success(
        isArchived
          ? t('admin.locations.archived', { name: location.publicName })
          : t('admin.locations.restored', { name: location.publicName }),
      );
    } catch (error) {
      showFailure(error);
    } finally {
      setConfirmArchive(null);
    }
  }

  const rows = query.data?.items ?? [];
  return (
    <AdminListPage
      header={{
        title: t('admin.locations.title'),
        intro: t('admin.locations.intro'),
        actions: (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
            {t('admin.locations.create')}
          </Button>
        ),
      }}
      filters={{
        label: t('admin.locations.filters'),
        fields: (
          <>
            <SearchField
              label={t('admin.locations.search')}
              placeholder={t('admin.locations.searchPlaceholder')}
              value={list.search}
              onChange={list.setSearch}
            />
            <Switch
              label={t('admin.locations.includeArchived')}
              checked={includeArchived}
              onChange={(event) => list.setFilter('includeArchived', event.currentTarget.checked)}
              mb={8}
            />
          </>
        ),
      }}
      failure={toFailure(query.error)}
      table={
        <AdminTable
          headers={[
            t('admin.locations.fields.publicName'),
            t('admin.locations.fields.timeZone'),
            t('admin.locations.fields.meters'),
            t('admin.locations.fields.status'),
          ]}
          hasActions
          caption={t('admin.locations.title')}
          isBusy={query.isFetching}
          isEmpty={rows.length === 0}
          emptyText={t('admin.locations.empty')}
          minWidth={680}
          highlightOnHover
        >
          {rows.map((location) => (
            <LocationRow
              key={location.id}
              location={location}
              onMeters={setMetersOf}
              onEdit={setEditing}
              onArchive={setConfirmArchive}
              onRestore={(target) => void handleArchived(target, false)}
            />
          ))}
        </AdminTable>
      }
      pager={{ page: list.page, pageSize: PAGE_SIZE, total: query.data?.total, onChange: list.setPage }}
    >
      <Drawer
        closeButtonProps={{ 'aria-label': t('common.close') }}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        position="right"
        size="md"
        title={
          editing === 'new' ? t('admin.locations.form.createTitle') : t('admin.locations.form.editTitle')
        }
      >
        {editing !== null ? (
          <LocationForm
            key={editing === 'new' ? 'new' : editing.id}
            location={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        ) : null}
      </Drawer>

      <Drawer
        closeButtonProps={{ 'aria-label': t('common.close') }}
        opened={metersOf !== null}
        onClose={() => setMetersOf(null)}
        position="right"
        size="lg"
        title={metersOf?.publicName ?? ''}
      >
        {metersOf ? (
          <Tabs defaultValue="meters" keepMounted={false}>
            <Tabs.List mb="md">
              <Tabs.Tab value="meters">{t('admin.locations.tabs.meters')}</Tabs.Tab>
              <Tabs.Tab value="tariffs" data-testid="tariffs-tab">
                {t('admin.locations.tabs.tariffs')}
              </Tabs.Tab>
              <Tabs.Tab value="alerts" data-testid="alerts-tab">
                {t('admin.locations.tabs.alerts')}
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="meters">
              <LocationMeters location={metersOf} />
            </Tabs.Panel>
            <Tabs.Panel value="tariffs">
              <LocationTariffs location={metersOf} />
            </Tabs.Panel>
            <Tabs.Panel value="alerts">
              <LocationAlerts location={metersOf} />
            </Tabs.Panel>
          </Tabs>
        ) : null}
      </Drawer>

      <ConfirmDialog
        subject={confirmArchive}
        title={t('admin.locations.archiveTitle')}
        message={t('admin.locations.archiveConfirm', { name: confirmArchive?.publicName ?? '' })}
        action={t('admin.locations.archiveAction')}
        color="red"
        isBusy={archiveState.isLoading}
        onConfirm={(target) => void handleArchived(target, true)}
        onCancel={() => setConfirmArchive(null)}
      />
    </AdminListPage>
  );
}
