import { ActionIcon, Menu, Table, Text, Tooltip } from '@mantine/core';
import { IconDots, IconKey, IconPencil, IconUserCheck, IconUserOff } from '@tabler/icons-react';
import type { AdminUser } from '@cm/contracts/admin.ts';
import { Role } from '@cm/contracts/enums.ts';
import { useTranslation } from 'react-i18next';
import { formatRelative, formatZonedDateTime, readerTimeZone } from '@/lib/format.ts';
import classes from '../admin.module.css';
import { ToneBadge } from '@/components/tone-badge.tsx';

interface UserRowProps {
  user: AdminUser;
  /** Location names by id, for a client's locations. */
  locationNames: Map<number, string>;
  onEdit: (user: AdminUser) => void;
  onReset: (user: AdminUser) => void;
  onToggleDisabled: (user: AdminUser) => void;
}

/** One row of the user table: who, role, locations, status, last login, and the actions. */
export function UserRow({ user, locationNames, onEdit, onReset, onToggleDisabled }: UserRowProps) {
  const { t, i18n } = useTranslation();
  return (
    <Table.Tr data-testid={`user-row-${user.email}`}>
      <Table.Td>
        <Text size="sm" fw={600}>
          {user.fullName}
        </Text>
        <Text size="xs" c="dimmed" className={classes.mono}>
          {user.email}
        </Text>
      </Table.Td>
      <Table.Td className={classes.nowrap}>
        {/* Own badges, which never cut their word short (Mantine's did: "ADMINISTRA…", "ENA…"). */}
        <ToneBadge tone={user.role === Role.Admin ? 'grape' : 'blue'}>
          {t(user.role === Role.Admin ? 'admin.users.role.admin' : 'admin.users.role.client')}
        </ToneBadge>
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
        <ToneBadge tone={user.isDisabled ? 'gray' : 'green'}>
          {user.isDisabled ? t('admin.users.status.disabled') : t('admin.users.status.enabled')}
        </ToneBadge>
        {user.mustChangePassword ? (
          <Text size="xs" c="dimmed">
            {t('admin.users.mustChangePassword')}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td className={classes.nowrap}>
        {user.lastLoginAt ? (
          <Tooltip label={formatZonedDateTime(user.lastLoginAt, i18n.language, readerTimeZone())}>
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
            onClick={() => onEdit(user)}
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
            <Menu.Item leftSection={<IconKey size={16} aria-hidden />} onClick={() => onReset(user)}>
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
              onClick={() => onToggleDisabled(user)}
            >
              {user.isDisabled ? t('admin.users.enable') : t('admin.users.disable')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Table.Td>
    </Table.Tr>
  );
}
