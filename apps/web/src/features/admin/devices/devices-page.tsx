import {
  ActionIcon,
  Badge,
  Button,
  Drawer,
  Group,
  Menu,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
  Tree,
  useTree,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconAccessPoint,
  IconBolt,
  IconBox,
  IconChevronDown,
  IconDots,
  IconExchange,
  IconPencil,
  IconPlus,
  IconSearch,
  IconSwitchHorizontal,
} from '@tabler/icons-react';
import type { AdminDevice, DeviceNode } from '@cm/contracts/admin.ts';
import { DeviceType, deviceStatuses, type DeviceStatus } from '@cm/contracts/enums.ts';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatDateTime, formatRelative } from '@/lib/format.ts';
import { toFailure } from '@/lib/http-client.ts';
import { useGetDeviceTreeQuery, useListDevicesQuery } from './api.ts';
import { AdminPageHeader, AdminTable, FailureAlert, ListPager } from './admin-ui.tsx';
import {
  EditDeviceForm,
  ExchangeMeterForm,
  MoveMeterForm,
  NewDeviceForm,
  NewMeterForm,
} from './device-forms.tsx';
import {
  devicePriorityLabels,
  deviceStatusLabels,
  priorityIds,
  toPriorityId,
  toStatus,
} from '@/components/device-status.ts';
import { typeKeys } from './device-labels.ts';
import { branchValues, deviceName, indexTree, toTreeItems, treeCounts } from './device-tree.ts';
import { useLocationOptions } from './use-location-options.ts';
import classes from './admin.module.css';

const PAGE_SIZE = 25;

type Dialog =
  | { kind: 'newDevice' }
  | { kind: 'newMeter' }
  | { kind: 'edit'; device: AdminDevice }
  | { kind: 'move'; device: AdminDevice }
  | { kind: 'exchange'; device: AdminDevice };

function TypeIcon({ type }: { type: number }) {
  if (type === DeviceType.AccessPoint) return <IconAccessPoint size={16} aria-hidden />;
  if (type === DeviceType.Cube) return <IconBox size={16} aria-hidden />;
  return <IconBolt size={16} aria-hidden />;
}

function StatusBadge({ status }: { status: DeviceStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="dot" color={deviceStatusLabels[status].color} size="sm">
      {t(deviceStatusLabels[status].key)}
    </Badge>
  );
}

function PriorityBadge({ priority }: { priority: number }) {
  const { t } = useTranslation();
  const { key, color } = devicePriorityLabels[toPriorityId(priority)];
  return (
    <Badge variant="light" color={color} size="sm">
      {t(key)}
    </Badge>
  );
}

function LastSeen({ at }: { at: string | null }) {
  const { t, i18n } = useTranslation();
  if (!at) {
    return (
      <Text size="sm" c="dimmed">
        {t('admin.devices.neverSeen')}
      </Text>
    );
  }
  return (
    <Tooltip label={formatDateTime(at, i18n.language)}>
      <Text size="sm" component="time" dateTime={at}>
        {formatRelative(at, i18n.language)}
      </Text>
    </Tooltip>
  );
}

/** AccessPoint → Cube → Meter, keyboard-navigable (arrows open and close branches). */
function DeviceTreePanel({
  roots,
  onEdit,
}: {
  roots: readonly DeviceNode[];
  onEdit: (device: AdminDevice) => void;
}) {
  const { t } = useTranslation();
  const items = useMemo(() => toTreeItems(roots), [roots]);
  const byId = useMemo(() => indexTree(roots), [roots]);
  const counts = treeCounts(roots);
  const tree = useTree();
  const branches = useMemo(() => branchValues(items), [items]);
  const branchKey = branches.join(',');
  useEffect(() => {
    tree.setExpandedState(Object.fromEntries(branches.map((value) => [value, true])));
    // Open every branch when the location's tree changes, not on each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [branchKey]);

  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      className={classes.panel}
      component="section"
      aria-labelledby="cm-device-tree-title"
    >
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="cm-device-tree-title">
            {t('admin.devices.tree')}
          </Title>
          <Text size="xs" c="dimmed">
            {t('admin.devices.treeCounts', counts)}
          </Text>
        </div>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('admin.devices.treeEmpty')}
          </Text>
        ) : (
          <Tree
            data={items}
            tree={tree}
            withLines
            levelOffset="md"
            aria-labelledby="cm-device-tree-title"
            renderNode={({ node, expanded, hasChildren, elementProps }) => {
              const device = byId.get(Number(node.value));
              return (
                <div
                  {...elementProps}
                  className={`${elementProps.className} ${classes.treeNode}`}
                  data-testid={`tree-${String(node.label)}`}
                >
                  {hasChildren ? (
                    <IconChevronDown
                      size={14}
                      aria-hidden
                      style={{ transform: expanded ? undefined : 'rotate(-90deg)' }}
                    />
                  ) : (
                    <span style={{ width: 14 }} aria-hidden />
                  )}
                  {device ? <TypeIcon type={device.type} /> : null}
                  <Text
                    size="sm"
                    fw={device?.type === DeviceType.Meter ? 400 : 600}
                    className={classes.mono}
                    td={device?.meter?.removedAt ? 'line-through' : undefined}
                  >
                    {node.label}
                  </Text>
                  {device ? (
                    <>
                      <span className="cm-visually-hidden">
                        {t(typeKeys[device.type] ?? 'admin.devices.type.meter')}
                      </span>
                      {device.meter?.removedAt ? (
                        <Badge size="xs" variant="outline" color="gray">
                          {t('admin.devices.removedBadge')}
                        </Badge>
                      ) : device.status !== 'active' ? (
                        <StatusBadge status={device.status} />
                      ) : null}
                      {device.meter && !device.meter.removedAt ? (
                        <Text size="xs" c="dimmed">
                          {t('admin.devices.positionShort', { meterInd: device.meter.meterInd })}
                        </Text>
                      ) : null}
                      <ActionIcon
                        size="sm"
                        variant="subtle"
                        color="gray"
                        ms="auto"
                        aria-label={t('admin.devices.edit', { name: deviceName(device) })}
                        onClick={(event) => {
                          event.stopPropagation();
                          onEdit(device);
                        }}
                      >
                        <IconPencil size={14} aria-hidden />
                      </ActionIcon>
                    </>
                  ) : null}
                </div>
              );
            }}
          />
        )}
      </Stack>
    </Paper>
  );
}

/** The device network: per location, a tree and a filterable table; create, edit, move and exchange. */
export function DevicesPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const locationParam = params.get('location');
  const locationId = locationParam && /^\d+$/.test(locationParam) ? Number(locationParam) : null;
  const { options } = useLocationOptions();
  const location = options.find((option) => option.value === String(locationId)) ?? null;
  const [type, setType] = useState<string | null>(null);
  const [priority, setPriority] = useState<string | null>(null);
  const [status, setStatus] = useState<DeviceStatus | null>(null);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 250);
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<Dialog | null>(null);

  const treeQuery = useGetDeviceTreeQuery(locationId ?? 0, { skip: locationId === null });
  const roots = useMemo(() => treeQuery.data?.roots ?? [], [treeQuery.data]);
  const listQuery = useListDevicesQuery({
    locationId: locationId ?? undefined,
    type: type ? Number(type) : undefined,
    priority: priority ? Number(priority) : undefined,
    status: status ?? undefined,
    search: debouncedSearch,
    page,
    pageSize: PAGE_SIZE,
  });
  const timeZone = location?.timeZone ?? 'UTC';
  const close = () => setDialog(null);
  const filtered = (apply: () => void) => {
    apply();
    setPage(1);
  };

  const dialogTitle =
    dialog === null
      ? ''
      : dialog.kind === 'newDevice'
        ? t('admin.devices.addDevice')
        : dialog.kind === 'newMeter'
          ? t('admin.devices.addMeter')
          : dialog.kind === 'edit'
            ? t('admin.devices.edit', { name: deviceName(dialog.device) })
            : dialog.kind === 'move'
              ? t('admin.move.title', { meterNumber: deviceName(dialog.device) })
              : t('admin.exchange.title', { meterNumber: deviceName(dialog.device) });
  const dialogZone =
    dialog && 'device' in dialog
      ? (options.find((o) => o.value === String(dialog.device.locationId))?.timeZone ?? timeZone)
      : timeZone;
  const rows = listQuery.data?.items ?? [];

  return (
    <Stack gap="md" className={classes.page}>
      <AdminPageHeader
        title={t('admin.devices.title')}
        intro={t('admin.devices.intro')}
        actions={
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
          ) : null
        }
      />
      <Paper withBorder p="md" radius="md" className={classes.panel}>
        <Select
          label={t('admin.devices.location')}
          description={t('admin.devices.locationHint')}
          placeholder={t('admin.devices.allLocations')}
          data={options.map(({ value, label }) => ({ value, label }))}
          value={locationId === null ? null : String(locationId)}
          onChange={(value) => {
            setPage(1);
            setParams(value ? { location: value } : {}, { replace: true });
          }}
          searchable
          clearable
          maw={480}
          nothingFoundMessage={t('admin.users.form.noLocation')}
        />
      </Paper>

      <div className={locationId !== null ? classes.split : undefined}>
        {locationId !== null ? (
          <div>
            <FailureAlert failure={toFailure(treeQuery.error)} />
            {treeQuery.data ? (
              <DeviceTreePanel roots={roots} onEdit={(device) => setDialog({ kind: 'edit', device })} />
            ) : null}
          </div>
        ) : null}
        <Paper
          withBorder
          p="md"
          radius="md"
          className={classes.panel}
          component="section"
          aria-labelledby="cm-device-table-title"
        >
          <Stack gap="md">
            <Title order={2} size="h4" id="cm-device-table-title">
              {t('admin.devices.table')}
            </Title>
            <div className={classes.filters} role="search" aria-label={t('admin.devices.filters')}>
              <TextInput
                className={classes.filterGrow}
                label={t('admin.devices.search')}
                placeholder={t('admin.devices.searchPlaceholder')}
                leftSection={<IconSearch size={16} aria-hidden />}
                value={search}
                type="search"
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  filtered(() => setSearch(value));
                }}
              />
              <Select
                className={classes.filterField}
                label={t('admin.devices.fields.type')}
                placeholder={t('admin.devices.anyType')}
                data={[DeviceType.AccessPoint, DeviceType.Cube, DeviceType.Meter].map((id) => ({
                  value: String(id),
                  label: t(typeKeys[id] ?? ''),
                }))}
                value={type}
                onChange={(value) => filtered(() => setType(value))}
                clearable
              />
              <Select
                className={classes.filterField}
                label={t('admin.devices.fields.priority')}
                placeholder={t('admin.devices.anyPriority')}
                data={priorityIds.map((id) => ({
                  value: String(id),
                  label: t(devicePriorityLabels[id].key),
                }))}
                value={priority}
                onChange={(value) => filtered(() => setPriority(value))}
                clearable
              />
              <Select
                className={classes.filterField}
                label={t('admin.devices.fields.status')}
                placeholder={t('admin.devices.anyStatus')}
                data={deviceStatuses.map((value) => ({ value, label: t(deviceStatusLabels[value].key) }))}
                value={status}
                onChange={(value) => filtered(() => setStatus(toStatus(value)))}
                clearable
              />
            </div>
            <FailureAlert failure={toFailure(listQuery.error)} />
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
              {rows.map((device) => {
                const name = deviceName(device);
                const isCurrentMeter = device.meter !== null && device.meter.removedAt === null;
                return (
                  <Table.Tr key={device.id} data-testid={`device-row-${name}`}>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        <TypeIcon type={device.type} />
                        {device.meter ? (
                          <Text
                            component={Link}
                            to={`/check?meter=${encodeURIComponent(device.meter.meterNumber)}`}
                            size="sm"
                            fw={600}
                            className={classes.mono}
                            c="blue"
                          >
                            {name}
                          </Text>
                        ) : (
                          <Text size="sm" fw={600} className={classes.mono}>
                            {name}
                          </Text>
                        )}
                      </Group>
                      {device.meter ? (
                        <Text size="xs" c="dimmed">
                          {device.meter.removedAt
                            ? t('admin.devices.removedOn', {
                                date: formatDateTime(
                                  device.meter.removedAt,
                                  i18n.language,
                                  device.locationId === locationId ? timeZone : undefined,
                                ),
                              })
                            : t('admin.devices.positionShort', { meterInd: device.meter.meterInd })}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>{t(typeKeys[device.type] ?? 'admin.devices.type.meter')}</Table.Td>
                    {locationId === null ? (
                      <Table.Td>
                        <Text
                          size="sm"
                          component={Link}
                          to={`/admin/devices?location=${device.locationId}`}
                          c="blue"
                        >
                          {device.locationName}
                        </Text>
                      </Table.Td>
                    ) : null}
                    <Table.Td className={classes.mono}>{device.parentSerial ?? '—'}</Table.Td>
                    <Table.Td>
                      <PriorityBadge priority={device.priority} />
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge status={device.status} />
                    </Table.Td>
                    <Table.Td className={classes.nowrap}>
                      <LastSeen at={device.lastSeenAt} />
                    </Table.Td>
                    <Table.Td className={classes.nowrap}>
                      <Tooltip label={t('admin.devices.edit', { name })}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('admin.devices.edit', { name })}
                          onClick={() => setDialog({ kind: 'edit', device })}
                        >
                          <IconPencil size={18} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                      {isCurrentMeter ? (
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <ActionIcon
                              variant="subtle"
                              color="gray"
                              aria-label={t('admin.devices.more', { name })}
                            >
                              <IconDots size={18} aria-hidden />
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            <Menu.Item
                              leftSection={<IconSwitchHorizontal size={16} aria-hidden />}
                              onClick={() => setDialog({ kind: 'move', device })}
                            >
                              {t('admin.move.action')}
                            </Menu.Item>
                            <Menu.Item
                              leftSection={<IconExchange size={16} aria-hidden />}
                              onClick={() => setDialog({ kind: 'exchange', device })}
                            >
                              {t('admin.exchange.action')}
                            </Menu.Item>
                          </Menu.Dropdown>
                        </Menu>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </AdminTable>
            {listQuery.data ? (
              <ListPager page={page} pageSize={PAGE_SIZE} total={listQuery.data.total} onChange={setPage} />
            ) : null}
          </Stack>
        </Paper>
      </div>

      <Drawer opened={dialog !== null} onClose={close} position="right" size="md" title={dialogTitle}>
        {dialog?.kind === 'newDevice' && locationId !== null ? (
          <NewDeviceForm locationId={locationId} timeZone={timeZone} roots={roots} onDone={close} />
        ) : null}
        {dialog?.kind === 'newMeter' && locationId !== null ? (
          <NewMeterForm locationId={locationId} timeZone={timeZone} roots={roots} onDone={close} />
        ) : null}
        {dialog?.kind === 'edit' ? (
          <EditDeviceForm key={dialog.device.id} device={dialog.device} roots={roots} onDone={close} />
        ) : null}
        {dialog?.kind === 'move' ? <MoveMeterSection device={dialog.device} onDone={close} /> : null}
        {dialog?.kind === 'exchange' ? (
          <ExchangeMeterForm
            key={dialog.device.id}
            device={dialog.device}
            timeZone={dialogZone}
            onDone={close}
          />
        ) : null}
      </Drawer>
    </Stack>
  );
}

/** Moving needs the meter's own location's Cubes, which may not be the tree on screen. */
function MoveMeterSection({ device, onDone }: { device: AdminDevice; onDone: () => void }) {
  const query = useGetDeviceTreeQuery(device.locationId);
  if (!query.data) return <FailureAlert failure={toFailure(query.error)} />;
  return <MoveMeterForm device={device} roots={query.data.roots} onDone={onDone} />;
}
