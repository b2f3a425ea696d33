import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Drawer,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArchive, IconBolt, IconPencil, IconPlus, IconRestore, IconSearch } from '@tabler/icons-react';
import type { AdminLocation } from '@cm/contracts/admin.ts';
import { useMemo, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate, formatNumber } from '@/lib/format.ts';
import { toFailure, type Failure } from '@/lib/http-client.ts';
import {
  useCreateLocationMutation,
  useGetLocationMetersQuery,
  useListLocationsQuery,
  useSetLocationArchivedMutation,
  useUpdateLocationMutation,
} from './api.ts';
import { AdminPageHeader, AdminTable, FailureAlert, ListPager, useFailureText } from './admin-ui.tsx';
import { describeFailure, fieldFailure } from './failure-message.ts';
import {
  locationFormFrom,
  toCreateLocationBody,
  toUpdateLocationBody,
  validateLocationForm,
  type LocationFormErrors,
  type LocationFormValues,
} from './location-form.ts';
import { browserTimeZone, timeZoneOptions } from './time-zones.ts';
import classes from './admin.module.css';

const PAGE_SIZE = 20;

/** Locations: find, create, edit, archive/restore, see their meters. */
export function LocationsPage() {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 250);
  const [includeArchived, setIncludeArchived] = useState(false);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<AdminLocation | 'new' | null>(null);
  const [metersOf, setMetersOf] = useState<AdminLocation | null>(null);
  const [confirmArchive, setConfirmArchive] = useState<AdminLocation | null>(null);
  const query = useListLocationsQuery({
    search: debouncedSearch,
    includeArchived,
    page,
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
      const failure = toFailure(error);
      if (failure) {
        const text = describeFailure(failure);
        toast.error(t(text.key, text.values));
      }
    } finally {
      setConfirmArchive(null);
    }
  }

  const rows = query.data?.items ?? [];
  return (
    <Stack gap="md" className={classes.page}>
      <AdminPageHeader
        title={t('admin.locations.title')}
        intro={t('admin.locations.intro')}
        actions={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
            {t('admin.locations.create')}
          </Button>
        }
      />
      <Paper withBorder p="md" radius="md" className={classes.panel}>
        <Stack gap="md">
          <div className={classes.filters} role="search" aria-label={t('admin.locations.filters')}>
            <TextInput
              className={classes.filterGrow}
              label={t('admin.locations.search')}
              placeholder={t('admin.locations.searchPlaceholder')}
              leftSection={<IconSearch size={16} aria-hidden />}
              value={search}
              type="search"
              onChange={(event) => {
                setSearch(event.currentTarget.value);
                setPage(1);
              }}
            />
            <Switch
              label={t('admin.locations.includeArchived')}
              checked={includeArchived}
              onChange={(event) => {
                setIncludeArchived(event.currentTarget.checked);
                setPage(1);
              }}
              mb={8}
            />
          </div>
          <FailureAlert failure={toFailure(query.error)} />
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
              <Table.Tr key={location.id}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {location.publicName}
                  </Text>
                  {location.address ? (
                    <Text size="xs" c="dimmed">
                      {location.address}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td className={classes.nowrap}>
                  <Text size="sm">{location.timeZone}</Text>
                </Table.Td>
                <Table.Td>
                  <Anchor component="button" type="button" size="sm" onClick={() => setMetersOf(location)}>
                    {t('admin.locations.meterCount', {
                      count: location.meterCount,
                      formatted: formatNumber(location.meterCount, i18n.language),
                    })}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  {location.archivedAt ? (
                    <Tooltip label={formatDate(location.archivedAt, i18n.language)}>
                      <Badge variant="light" color="gray">
                        {t('admin.locations.status.archived')}
                      </Badge>
                    </Tooltip>
                  ) : (
                    <Badge variant="light" color="teal">
                      {t('admin.locations.status.active')}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td className={classes.nowrap}>
                  <Tooltip label={t('admin.locations.edit', { name: location.publicName })}>
                    <ActionIcon
                      variant="subtle"
                      onClick={() => setEditing(location)}
                      aria-label={t('admin.locations.edit', { name: location.publicName })}
                    >
                      <IconPencil size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  {location.archivedAt ? (
                    <Tooltip label={t('admin.locations.restore', { name: location.publicName })}>
                      <ActionIcon
                        variant="subtle"
                        color="teal"
                        onClick={() => void handleArchived(location, false)}
                        aria-label={t('admin.locations.restore', { name: location.publicName })}
                      >
                        <IconRestore size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  ) : (
                    <Tooltip label={t('admin.locations.archive', { name: location.publicName })}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        onClick={() => setConfirmArchive(location)}
                        aria-label={t('admin.locations.archive', { name: location.publicName })}
                      >
                        <IconArchive size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </AdminTable>
          {query.data ? (
            <ListPager page={page} pageSize={PAGE_SIZE} total={query.data.total} onChange={setPage} />
          ) : null}
        </Stack>
      </Paper>

      <Drawer
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
        opened={metersOf !== null}
        onClose={() => setMetersOf(null)}
        position="right"
        size="lg"
        title={t('admin.locations.metersTitle', { name: metersOf?.publicName ?? '' })}
      >
        {metersOf ? <LocationMeters location={metersOf} /> : null}
      </Drawer>

      <Modal
        opened={confirmArchive !== null}
        onClose={() => setConfirmArchive(null)}
        title={t('admin.locations.archiveTitle')}
        centered
      >
        <Stack gap="md">
          <Text size="sm">
            {t('admin.locations.archiveConfirm', { name: confirmArchive?.publicName ?? '' })}
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirmArchive(null)}>
              {t('admin.actions.cancel')}
            </Button>
            <Button
              color="red"
              loading={archiveState.isLoading}
              onClick={() => confirmArchive && void handleArchived(confirmArchive, true)}
            >
              {t('admin.locations.archiveAction')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function LocationForm({ location, onDone }: { location: AdminLocation | null; onDone: () => void }) {
  const { t } = useTranslation();
  const failureText = useFailureText();
  const [values, setValues] = useState<LocationFormValues>(() =>
    locationFormFrom(location, browserTimeZone()),
  );
  const [errors, setErrors] = useState<LocationFormErrors>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const zones = useMemo(() => timeZoneOptions(location?.timeZone), [location?.timeZone]);
  const [createLocation, createState] = useCreateLocationMutation();
  const [updateLocation, updateState] = useUpdateLocationMutation();
  const set = (field: keyof LocationFormValues, value: string) =>
    setValues((current) => ({ ...current, [field]: value }));
  const serverError = (param: string) => failureText(fieldFailure(failure, [param]));

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problems = validateLocationForm(values);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setFailure(null);
    try {
      if (location === null) await createLocation(toCreateLocationBody(values)).unwrap();
      else await updateLocation({ id: location.id, body: toUpdateLocationBody(values, location) }).unwrap();
      toast.success(location === null ? t('admin.locations.created') : t('admin.locations.saved'));
      onDone();
    } catch (error) {
      setFailure(toFailure(error));
    }
  }

  const isFieldFailure =
    failure?.param === 'publicName' || failure?.param === 'address' || failure?.param === 'timeZone';
  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('admin.locations.fields.publicName')}
          description={t('admin.locations.form.nameHint')}
          value={values.publicName}
          onChange={(event) => set('publicName', event.currentTarget.value)}
          error={errors.publicName ? t(errors.publicName) : serverError('publicName')}
          required
          autoComplete="off"
          data-autofocus
        />
        <Textarea
          label={t('admin.locations.fields.address')}
          value={values.address}
          onChange={(event) => set('address', event.currentTarget.value)}
          error={errors.address ? t(errors.address) : serverError('address')}
          autosize
          minRows={2}
        />
        <Select
          label={t('admin.locations.fields.timeZone')}
          description={t('admin.locations.form.timeZoneHint')}
          data={zones}
          value={values.timeZone}
          onChange={(value) => set('timeZone', value ?? '')}
          error={errors.timeZone ? t(errors.timeZone) : serverError('timeZone')}
          searchable
          required
          limit={50}
          nothingFoundMessage={t('admin.locations.form.noTimeZone')}
          comboboxProps={{ withinPortal: true }}
        />
        {failure && !isFieldFailure ? <FailureAlert failure={failure} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            {t('admin.actions.cancel')}
          </Button>
          <Button type="submit" loading={createState.isLoading || updateState.isLoading}>
            {location === null ? t('admin.locations.form.create') : t('admin.actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function LocationMeters({ location }: { location: AdminLocation }) {
  const { t, i18n } = useTranslation();
  const query = useGetLocationMetersQuery(location.id);
  const meters = query.data ?? [];
  return (
    <Stack gap="md">
      <FailureAlert failure={toFailure(query.error)} />
      <div className={classes.tableWrap}>
        <Table verticalSpacing="xs" aria-busy={query.isFetching}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin.devices.fields.meterInd')}</Table.Th>
              <Table.Th>{t('admin.devices.fields.meterNumber')}</Table.Th>
              <Table.Th>{t('admin.devices.fields.installed')}</Table.Th>
              <Table.Th>{t('admin.devices.fields.removed')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {meters.length === 0 && !query.isFetching ? (
              <Table.Tr>
                <Table.Td colSpan={4}>
                  <Text size="sm" c="dimmed" ta="center" py="sm">
                    {t('admin.locations.noMeters')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
            {meters.map((device) =>
              device.meter ? (
                <Table.Tr key={device.id}>
                  <Table.Td>{device.meter.meterInd}</Table.Td>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={`/check?meter=${encodeURIComponent(device.meter.meterNumber)}`}
                      size="sm"
                    >
                      <IconBolt size={14} aria-hidden /> {device.meter.meterNumber}
                    </Anchor>
                  </Table.Td>
                  <Table.Td className={classes.nowrap}>
                    {formatDate(device.meter.installedAt, i18n.language, location.timeZone)}
                  </Table.Td>
                  <Table.Td className={classes.nowrap}>
                    {device.meter.removedAt
                      ? formatDate(device.meter.removedAt, i18n.language, location.timeZone)
                      : '—'}
                  </Table.Td>
                </Table.Tr>
              ) : null,
            )}
          </Table.Tbody>
        </Table>
      </div>
      <Group>
        <Button component={Link} to={`/admin/devices?location=${location.id}`} variant="light">
          {t('admin.locations.openDevices')}
        </Button>
      </Group>
    </Stack>
  );
}
