import { Button, Group, Modal, Select, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { AdminUser } from '@cm/contracts/admin.ts';
import { Role, type RoleId } from '@cm/contracts/enums.ts';
import { useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { toFailure } from '@/lib/http-client.ts';
import { AdminTable, ConfirmDialog, OneTimeSecret, useFailureToast } from '../admin-ui.tsx';
import classes from '../admin.module.css';
import { useListUsersQuery, useResetPasswordMutation, useSetUserDisabledMutation } from './users-api.ts';
import { AdminListPage } from '../list/admin-list-page.tsx';
import { SearchField } from '../list/search-field.tsx';
import { useListState } from '../list/use-list-state.ts';
import { useLocationOptions } from '../use-location-options.ts';
import { UserDrawer } from './user-drawer.tsx';
import { UserRow } from './user-row.tsx';

const PAGE_SIZE = 20;

type RoleFilter = 'all' | '1' | '2';
type StatusFilter = 'all' | 'enabled' | 'disabled';

/** The role a filter value asks for (all: none). */
const roleIds: Record<RoleFilter, RoleId | undefined> = { all: undefined, '1': Role.Admin, '2': Role.Client };

/** Users: find, create, edit, disable/enable, reset a password. */
export function UsersPage() {
  const { t } = useTranslation();
  const showFailure = useFailureToast();
  const list = useListState<{ role: RoleFilter; status: StatusFilter }>({ role: 'all', status: 'all' });
  const { role, status } = list.filters;
  const [editing, setEditing] = useState<AdminUser | 'new' | null>(null);
  const [confirmReset, setConfirmReset] = useState<AdminUser | null>(null);
  const [confirmDisable, setConfirmDisable] = useState<AdminUser | null>(null);
  const [resetResult, setResetResult] = useState<{ user: AdminUser; password: string } | null>(null);

  const query = useListUsersQuery({
    search: list.debouncedSearch,
    role: roleIds[role],
    disabled: status === 'all' ? undefined : status === 'disabled',
    page: list.page,
    pageSize: PAGE_SIZE,
  });
  const [setDisabled] = useSetUserDisabledMutation();
  const [resetPassword, resetState] = useResetPasswordMutation();
  const { options } = useLocationOptions();
  const locationNames = useMemo(() => new Map(options.map((o) => [Number(o.value), o.label])), [options]);

  /** Sets whether `user` may sign in; disabling offers to undo it from the notice. */
  async function applyDisabled(user: AdminUser, isDisabled: boolean) {
    try {
      await setDisabled({ id: user.id, isDisabled }).unwrap();
      if (!isDisabled) {
        toast.success(t('admin.users.enabled', { name: user.fullName }));
        return;
      }
      toast.success(
        (notice) => (
          <Group gap="sm" wrap="nowrap">
            <Text size="sm">{t('admin.users.disabled', { name: user.fullName })}</Text>
            <Button
              size="compact-sm"
              variant="default"
              // Its whole word, whatever the sentence beside it takes (issue 34: "Und").
              style={{ flexShrink: 0 }}
              onClick={() => {
                toast.dismiss(notice.id);
                void applyDisabled(user, false);
              }}
            >
              {t('admin.users.undo')}
            </Button>
          </Group>
        ),
        // Ten seconds with a button: at the bottom, where it covers none of the page's own
        // actions ("New user" sits under the top-right corner); other notices stay top-right.
        { duration: 10_000, position: 'bottom-center' },
      );
    } catch (error) {
      showFailure(error, 'user');
    }
  }

  // Disabling signs the user out at once: asked first. Enabling again is not.
  function handleToggleDisabled(user: AdminUser) {
    if (user.isDisabled) void applyDisabled(user, false);
    else setConfirmDisable(user);
  }

  async function handleReset(user: AdminUser) {
    try {
      const result = await resetPassword(user.id).unwrap();
      setConfirmReset(null);
      setResetResult({ user: result.user, password: result.temporaryPassword });
    } catch (error) {
      setConfirmReset(null);
      showFailure(error, 'user');
    }
  }

  const rows = query.data?.items ?? [];

  return (
    <AdminListPage
      header={{
        title: t('admin.users.title'),
        intro: t('admin.users.intro'),
        actions: (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
            {t('admin.users.create')}
          </Button>
        ),
      }}
      filters={{
        label: t('admin.users.filters'),
        fields: (
          <>
            <SearchField
              label={t('admin.users.search')}
              placeholder={t('admin.users.searchPlaceholder')}
              value={list.search}
              onChange={list.setSearch}
            />
            <Select
              className={classes.filterField}
              label={t('admin.users.fields.role')}
              value={role}
              onChange={(value) => list.setFilter('role', value === '1' || value === '2' ? value : 'all')}
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
                list.setFilter('status', value === 'enabled' || value === 'disabled' ? value : 'all')
              }
              data={[
                { value: 'all', label: t('admin.users.allStatuses') },
                { value: 'enabled', label: t('admin.users.status.enabled') },
                { value: 'disabled', label: t('admin.users.status.disabled') },
              ]}
              allowDeselect={false}
            />
          </>
        ),
      }}
      failure={toFailure(query.error)}
      table={
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
            <UserRow
              key={user.id}
              user={user}
              locationNames={locationNames}
              onEdit={setEditing}
              onReset={setConfirmReset}
              onToggleDisabled={handleToggleDisabled}
            />
          ))}
        </AdminTable>
      }
      pager={{ page: list.page, pageSize: PAGE_SIZE, total: query.data?.total, onChange: list.setPage }}
    >
      <UserDrawer user={editing} onClose={() => setEditing(null)} />

      <ConfirmDialog
        subject={confirmReset}
        title={t('admin.users.resetPassword')}
        message={t('admin.users.resetConfirm', { name: confirmReset?.fullName ?? '' })}
        action={t('admin.users.resetPassword')}
        color="orange"
        isBusy={resetState.isLoading}
        onConfirm={(target) => void handleReset(target)}
        onCancel={() => setConfirmReset(null)}
      />

      <ConfirmDialog
        subject={confirmDisable}
        title={t('admin.users.disableTitle', { name: confirmDisable?.fullName ?? '' })}
        message={t('admin.users.disableConfirm', { name: confirmDisable?.fullName ?? '' })}
        action={t('admin.users.disable')}
        color="red"
        onConfirm={(target) => {
          setConfirmDisable(null);
          void applyDisabled(target, true);
        }}
        onCancel={() => setConfirmDisable(null)}
      />

      <Modal
        closeButtonProps={{ 'aria-label': t('common.close') }}
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
    </AdminListPage>
  );
}
