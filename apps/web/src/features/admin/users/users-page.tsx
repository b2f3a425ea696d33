import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Menu,
  Modal,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconDots,
  IconKey,
  IconPencil,
  IconPlus,
  IconSearch,
  IconUserCheck,
  IconUserOff,
} from '@tabler/icons-react';
import type { AdminUser } from '@cm/contracts/admin.ts';
import { Role } from '@cm/contracts/enums.ts';
import { useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatRelative } from '@/lib/format.ts';
import { toFailure } from '@/lib/http-client.ts';
import { useListUsersQuery, useResetPasswordMutation, useSetUserDisabledMutation } from './api.ts';
import { AdminPageHeader, AdminTable, FailureAlert, ListPager, OneTimeSecret } from './admin-ui.tsx';
import { describeFailure } from './failure-message.ts';
import { useLocationOptions } from './use-location-options.ts';
import { UserDrawer } from './user-drawer.tsx';
import classes from './admin.module.css';

const PAGE_SIZE = 20;

type RoleFilter = 'all' | '1' | '2';
type StatusFilter = 'all' | 'enabled' | 'disabled';

/** Users: find, create, edit, disable/enable, reset a password. */
export function UsersPage() {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 250);
  const [role, setRole] = useState<RoleFilter>('all');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<AdminUser | 'new' | null>(null);
  const [confirmReset, setConfirmReset] = useState<AdminUser | null>(null);
  const [resetResult, setResetResult] = useState<{ user: AdminUser; password: string } | null>(null);

  const query = useListUsersQuery({
    search: debouncedSearch,
    role: role === '1' ? Role.Admin : role === '2' ? Role.Client : undefined,
    disabled: status === 'all' ? undefined : status === 'disabled',
    page,
    pageSize: PAGE_SIZE,
  });
  const [setDisabled] = useSetUserDisabledMutation();
  const [resetPassword, resetState] = useResetPasswordMutation();
  const { options } = useLocationOptions();
  const locationNames = useMemo(() => new Map(options.map((o) => [Number(o.value), o.label])), [options]);

  async function handleToggleDisabled(user: AdminUser) {
    try {
      await setDisabled({ id: user.id, isDisabled: !user.isDisabled }).unwrap();
      toast.success(
        user.isDisabled
          ? t('admin.users.enabled', { name: user.fullName })
          : t('admin.users.disabled', { name: user.fullName }),
      );
    } catch (error) {
      const failure = toFailure(error);
      if (failure) {
        const text = describeFailure(failure, 'user');
        toast.error(t(text.key, text.values));
      }
    }
  }

  async function handleReset(user: AdminUser) {
    try {
      const result = await resetPassword(user.id).unwrap();
      setConfirmReset(null);
      setResetResult({ user: result.user, password: result.temporaryPassword });
    } catch (error) {
      setConfirmReset(null);
      const failure = toFailure(error);
      if (failure) {
        const text = describeFailure(failure, 'user');
        toast.error(t(text.key, text.values));
      }
    }
  }

  const resetFilters = (apply: () => void) => {
    apply();
    setPage(1);
  };

  const rows = query.data?.items ?? [];

  return (
    <Stack gap="md" className={classes.page}>
      <AdminPageHeader
        title={t('admin.users.title')}
        intro={t('admin.users.intro')}
        actions={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
            {t('admin.users.create')}
          </Button>
        }
      />
      <Paper withBorder p="md" radius="md" className={classes.panel}>
        <Stack gap="md">
          <div className={classes.filters} role="search" aria-label={t('admin.users.filters')}>
            <TextInput
              className={classes.filterGrow}
              label={t('admin.users.search')}
              placeholder={t('admin.users.searchPlaceholder')}
              leftSection={<IconSearch size={16} aria-hidden />}
              value={search}
              onChange={(event) => {
                const value = event.currentTarget.value;
                resetFilters(() => setSearch(value));
              }}
              type="search"
            />
            <Select
              className={classes.filterField}
              label={t('admin.users.fields.role')}
              value={role}
              onChange={(value) =>
                resetFilters(() => setRole(value === '1' || value === '2' ? value : 'all'))
              }
              data={[
                { value: 'all', label: t('admin.users.allRoles') },
                { value: '1', label: t('admin.users.role.admin') },
                { value: '2', label: t('admin.users.role.client') },
              ]}
              allowDeselect={false}
            />
            <Select
              className={classes.filterField}
              label={t('admin.users.fields.status')}
              value={status}
              onChange={(value) =>
                resetFilters(() => setStatus(value === 'enabled' || value === 'disabled' ? value : 'all'))
              }
              data={[
                { value: 'all', label: t('admin.users.allStatuses') },
                { value: 'enabled', label: t('admin.users.status.enabled') },
                { value: 'disabled', label: t('admin.users.status.disabled') },
              ]}
              allowDeselect={false}
            />
          </div>
          <FailureAlert failure={toFailure(query.error)} />
          <AdminTable
            headers={[
              t('admin.users.fields.fullName'),
              t('admin.users.fields.role'),
              t('admin.users.fields.locations'),
              t('admin.users.fields.status'),
              t('admin.users.fields.lastLogin'),
            ]}
            hasActions
            caption={t('admin.users.title')}
            isBusy={query.isFetching}
            isEmpty={rows.length === 0}
            emptyText={t('admin.users.empty')}
            minWidth={720}
            highlightOnHover
          >
            {rows.map((user) => (
              <Table.Tr key={user.id} data-testid={`user-row-${user.email}`}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {user.fullName}
                  </Text>
                  <Text size="xs" c="dimmed" className={classes.mono}>
                    {user.email}
                  </Text>
                </Table.Td>
                <Table.Td className={classes.nowrap}>
                  <Badge variant="light" color={user.role === Role.Admin ? 'grape' : 'blue'}>
                    {t(user.role === Role.Admin ? 'admin.users.role.admin' : 'admin.users.role.client')}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {user.role === Role.Admin
                      ? t('admin.users.allLocations')
                      : user.locationIds.length === 0
                        ? t('admin.users.noLocations')
                        : user.locationIds.map((id) => locationNames.get(id) ?? `#${id}`).join(', ')}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="dot" color={user.isDisabled ? 'gray' : 'teal'}>
                    {user.isDisabled ? t('admin.users.status.disabled') : t('admin.users.status.enabled')}
                  </Badge>
                  {user.mustChangePassword ? (
                    <Text size="xs" c="dimmed">
                      {t('admin.users.mustChangePassword')}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td className={classes.nowrap}>
                  {user.lastLoginAt ? (
                    <Tooltip label={formatDateTime(user.lastLoginAt, i18n.language)}>
                      <Text size="sm" component="time" dateTime={user.lastLoginAt}>
                        {formatRelative(user.lastLoginAt, i18n.language)}
                      </Text>
                    </Tooltip>
                  ) : (
                    <Text size="sm" c="dimmed">
                      {t('admin.users.neverLoggedIn')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td className={classes.nowrap}>
                  <Tooltip label={t('admin.users.edit', { name: user.fullName })}>
                    <ActionIcon
                      variant="subtle"
                      onClick={() => setEditing(user)}
                      aria-label={t('admin.users.edit', { name: user.fullName })}
                    >
                      <IconPencil size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={t('admin.users.more', { name: user.fullName })}
                      >
                        <IconDots size={18} aria-hidden />
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item
                        leftSection={<IconKey size={16} aria-hidden />}
                        onClick={() => setConfirmReset(user)}
                      >
                        {t('admin.users.resetPassword')}
                      </Menu.Item>
                      <Menu.Item
                        color={user.isDisabled ? undefined : 'red'}
                        leftSection={
                          user.isDisabled ? (
                            <IconUserCheck size={16} aria-hidden />
                          ) : (
                            <IconUserOff size={16} aria-hidden />
                          )
                        }
                        onClick={() => void handleToggleDisabled(user)}
                      >
                        {user.isDisabled ? t('admin.users.enable') : t('admin.users.disable')}
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                </Table.Td>
              </Table.Tr>
            ))}
          </AdminTable>
          {query.data ? (
            <ListPager page={page} pageSize={PAGE_SIZE} total={query.data.total} onChange={setPage} />
          ) : null}
        </Stack>
      </Paper>

      <UserDrawer user={editing} onClose={() => setEditing(null)} />

      <Modal
        opened={confirmReset !== null}
        onClose={() => setConfirmReset(null)}
        title={t('admin.users.resetPassword')}
        centered
      >
        <Stack gap="md">
          <Text size="sm">{t('admin.users.resetConfirm', { name: confirmReset?.fullName ?? '' })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirmReset(null)}>
              {t('admin.actions.cancel')}
            </Button>
            <Button
              color="orange"
              loading={resetState.isLoading}
              onClick={() => confirmReset && void handleReset(confirmReset)}
            >
              {t('admin.users.resetPassword')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal
        opened={resetResult !== null}
        onClose={() => setResetResult(null)}
        title={t('admin.users.temporaryPasswordTitle', { name: resetResult?.user.fullName ?? '' })}
        centered
        closeOnClickOutside={false}
      >
        {resetResult ? (
          <OneTimeSecret
            label={t('admin.users.temporaryPassword')}
            warning={t('admin.users.temporaryPasswordWarning')}
            value={resetResult.password}
            onDone={() => setResetResult(null)}
          />
        ) : null}
      </Modal>
    </Stack>
  );
}
