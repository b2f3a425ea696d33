import { Avatar, Menu, UnstyledButton } from '@mantine/core';
import { IconAdjustmentsHorizontal, IconKey, IconLogout } from '@tabler/icons-react';
import { Role } from '@cm/contracts/enums.ts';
import { useTranslation } from 'react-i18next';
import { type ComponentPropsWithRef } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '@/app/hooks.ts';
import { logout } from '@/features/auth/auth-slice.ts';
import { CHANGE_PASSWORD_ROUTE } from '@/features/auth/routes.ts';
import { LOGIN_ROUTE } from '@/lib/config.ts';
import { MountOnUse } from './mount-on-use.tsx';
import classes from './user-menu.module.css';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const first = parts[0]?.[0] ?? '';
  const last = parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '';
  return `${first}${last}`.toUpperCase();
}

/** The user menu: who is logged in, the layout customizer, change password and logout. */
export function UserMenu({ onOpenCustomizer }: { onOpenCustomizer: () => void }) {
  return (
    <MountOnUse
      idle={<UserButton />}
      active={(firstUse) => (
        <UserMenuOpened onOpenCustomizer={onOpenCustomizer} isOpenedAtOnce={firstUse === 'press'} />
      )}
    />
  );
}

/** Who is logged in, as the menu's button; as the menu's target it takes its ref and attributes too. */
function UserButton(target: ComponentPropsWithRef<'button'>) {
  const { t } = useTranslation();
  const user = useAppSelector((state) => state.auth.user);
  const role = useAppSelector((state) => state.auth.role);
  const name = user?.fullName || user?.email || '';
  const roleLabel = role === Role.Admin ? t('role.admin') : t('role.client');
  return (
    <UnstyledButton
      aria-haspopup="menu"
      aria-expanded={false}
      {...target}
      className={classes.target}
      aria-label={t('userMenu.label', { name })}
    >
      <span className={classes.identity} aria-hidden>
        <span className={classes.name}>{name}</span>
        <span className={classes.role}>{roleLabel}</span>
      </span>
      <Avatar color="blue" radius="xl" aria-hidden>
        {initials(name)}
      </Avatar>
    </UnstyledButton>
  );
}

function UserMenuOpened({
  onOpenCustomizer,
  isOpenedAtOnce,
}: {
  onOpenCustomizer: () => void;
  isOpenedAtOnce: boolean;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const user = useAppSelector((state) => state.auth.user);

  async function handleLogout() {
    await dispatch(logout());
    void navigate(LOGIN_ROUTE, { replace: true });
  }

  return (
    <Menu position="bottom-end" width={240} withinPortal defaultOpened={isOpenedAtOnce}>
      <Menu.Target>
        <UserButton />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user?.email}</Menu.Label>
        <Menu.Item
          leftSection={<IconAdjustmentsHorizontal size={16} aria-hidden />}
          onClick={onOpenCustomizer}
        >
          {t('customizer.open')}
        </Menu.Item>
        <Menu.Item
          component={Link}
          to={CHANGE_PASSWORD_ROUTE}
          // Back to this page afterwards.
          state={{ from: `${location.pathname}${location.search}${location.hash}` }}
          leftSection={<IconKey size={16} aria-hidden />}
        >
          {t('userMenu.changePassword')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} aria-hidden />}
          onClick={() => void handleLogout()}
        >
          {t('auth.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
