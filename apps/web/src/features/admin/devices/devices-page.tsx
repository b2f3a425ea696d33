import { Button, Drawer, Select } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { AdminDevice } from '@cm/contracts/admin.ts';
import { DeviceType, deviceStatuses, type DeviceStatus } from '@cm/contracts/enums.ts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  devicePriorityLabels,
  deviceStatusLabels,
  priorityIds,
  toStatus,
} from '@/components/device-status.ts';
import { toFailure } from '@/lib/http-client.ts';
import { AdminPanel, AdminTable, FailureAlert } from '../admin-ui.tsx';
import classes from '../admin.module.css';
import { useGetDeviceTreeQuery, useListDevicesQuery } from './devices-api.ts';
import { AdminListPage } from '../list/admin-list-page.tsx';
import { SearchField } from '../list/search-field.tsx';
import { useListState } from '../list/use-list-state.ts';
import { useLocationOptions } from '../use-location-options.ts';
import { DeviceDialogBody, deviceDialogTitle, type DeviceDialog } from './device-dialog.tsx';
import { typeKeys } from './device-labels.ts';
import { DeviceRow } from './device-row.tsx';
import { DeviceTreePanel } from './device-tree-panel.tsx';

const PAGE_SIZE = 25;

interface DeviceFilters {
  type: string | null;
  priority: string | null;
  status: DeviceStatus | null;
}

/** The device network: per location, a tree and a filterable table; create, edit, move and exchange. */
export function DevicesPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const locationParam = params.get('location');
  const locationId = locationParam && /^\d+$/.test(locationParam) ? Number(locationParam) : null;
  const { options } = useLocationOptions();
  const location = options.find((option) => option.value === String(locationId)) ?? null;
  const list = useListState<DeviceFilters>({ type: null, priority: null, status: null });
  const [dialog, setDialog] = useState<DeviceDialog | null>(null);

  const treeQuery = useGetDeviceTreeQuery(locationId ?? 0, { skip: locationId === null });
  const roots = useMemo(() => treeQuery.data?.roots ?? [], [treeQuery.data]);
  const { filters } = list;
  const listQuery = useListDevicesQuery({
    locationId: locationId ?? undefined,
    type: filters.type ? Number(filters.type) : undefined,
    priority: filters.priority ? Number(filters.priority) : undefined,
    status: filters.status ?? undefined,
    search: list.debouncedSearch,
    page: list.page,
    pageSize: PAGE_SIZE,
  });
  const timeZone = location?.timeZone ?? 'UTC';
  const close = () => setDialog(null);
  const zoneOf = (device: AdminDevice) =>
    options.find((option) => option.value === String(device.locationId))?.timeZone ?? timeZone;
  const rows = listQuery.data?.items ?? [];

  return (
    <AdminListPage
      header={{
        title: t('admin.devices.title'),
        intro: t('admin.devices.intro'),
        actions:
          locationId !== null ? (
            <>
              <Button
                variant="light"
                leftSection={<IconPlus size={16} aria-hidden />}
                onClick={() => setDialog({ kind: 'newDevice' })}
              >
                {t('admin.devices.addDevice')}
              </Button>
              <Button
                leftSection={<IconPlus size={16} aria-hidden />}
                onClick={() => setDialog({ kind: 'newMeter' })}
              >
                {t('admin.devices.addMeter')}
              </Button>
            </>
          ) : null,
      }}
      before={
        <AdminPanel>
          <Select
            label={t('admin.devices.location')}
            description={t('admin.devices.locationHint')}
            placeholder={t('admin.devices.allLocations')}
            data={options.map(({ value, label }) => ({ value, label }))}
            value={locationId === null ? null : String(locationId)}
            onChange={(value) => {
              list.setPage(1);
              setParams(value ? { location: value } : {}, { replace: true });
            }}
            searchable
            clearable
            maw={480}
            nothingFoundMessage={t('admin.users.form.noLocation')}
          />
        </AdminPanel>
      }
      aside={
        locationId === null ? undefined : (
          <div>
            <FailureAlert failure={toFailure(treeQuery.error)} />
            {treeQuery.data ? (
              <DeviceTreePanel roots={roots} onEdit={(device) => setDialog({ kind: 'edit', device })} />
            ) : null}
          </div>
        )
      }
      listTitle={{ id: 'cm-device-table-title', text: t('admin.devices.table') }}
      filters={{
        label: t('admin.devices.filters'),
        fields: (
          <>
            <SearchField
              label={t('admin.devices.search')}
              placeholder={t('admin.devices.searchPlaceholder')}
              value={list.search}
              onChange={list.setSearch}
            />
            <Select
              className={classes.filterField}
              label={t('admin.devices.fields.type')}
              placeholder={t('admin.devices.anyType')}
              data={[DeviceType.AccessPoint, DeviceType.Cube, DeviceType.Meter].map((id) => ({
                value: String(id),
                label: t(typeKeys[id] ?? ''),
              }))}
              value={filters.type}
              onChange={(value) => list.setFilter('type', value)}
              clearable
            />
            <Select
              className={classes.filterField}
              label={t('admin.devices.fields.priority')}
              placeholder={t('admin.devices.anyPriority')}
              data={priorityIds.map((id) => ({ value: String(id), label: t(devicePriorityLabels[id].key) }))}
              value={filters.priority}
              onChange={(value) => list.setFilter('priority', value)}
              clearable
            />
            <Select
              className={classes.filterField}
              label={t('admin.devices.fields.status')}
              placeholder={t('admin.devices.anyStatus')}
              data={deviceStatuses.map((value) => ({ value, label: t(deviceStatusLabels[value].key) }))}
              value={filters.status}
              onChange={(value) => list.setFilter('status', toStatus(value))}
              clearable
            />
          </>
        ),
      }}
      failure={toFailure(listQuery.error)}
      table={
        <AdminTable
          headers={[
            t('admin.devices.fields.device'),
            t('admin.devices.fields.type'),
            ...(locationId === null ? [t('admin.devices.location')] : []),
            t('admin.devices.fields.parent'),
            t('admin.devices.fields.priority'),
            t('admin.devices.fields.status'),
            t('admin.devices.fields.lastSeen'),
          ]}
          hasActions
          isBusy={listQuery.isFetching}
          isEmpty={rows.length === 0}
          emptyText={t('admin.devices.empty')}
          minWidth={720}
          highlightOnHover
        >
          {rows.map((device) => (
            <DeviceRow
              key={device.id}
              device={device}
              locationId={locationId}
              timeZone={zoneOf(device)}
              onDialog={setDialog}
            />
          ))}
        </AdminTable>
      }
      pager={{ page: list.page, pageSize: PAGE_SIZE, total: listQuery.data?.total, onChange: list.setPage }}
    >
      <Drawer
        closeButtonProps={{ 'aria-label': t('common.close') }}
        opened={dialog !== null}
        onClose={close}
        position="right"
        size="md"
        title={dialog ? deviceDialogTitle(dialog, t) : ''}
      >
        {dialog ? (
          <DeviceDialogBody
            dialog={dialog}
            location={locationId === null ? null : { id: locationId, timeZone, roots }}
            zoneOf={zoneOf}
            onDone={close}
          />
        ) : null}
      </Drawer>
    </AdminListPage>
  );
}
