import { ActionIcon, Tooltip } from '@mantine/core';
import {
  IconApi,
  IconPlugConnected,
  IconBuildingCommunity,
  IconChartLine,
  IconChevronsLeft,
  IconChevronsRight,
  IconDevices,
  IconFileExport,
  IconFileImport,
  IconGauge,
  IconHistory,
  IconSettings,
  IconUsers,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { useAppSelector } from '@/app/hooks.ts';
import { useAppAbility } from '@/lib/ability-context.ts';
import { DEFAULT_ROUTE, PRODUCT_NAME, PRODUCT_SHORT_NAME } from '@/lib/config.ts';
import { LogoMark } from '@/components/logo-mark.tsx';
import { menuSections, type MenuItem } from './menu-items.ts';
import classes from './vertical-menu.module.css';

interface VerticalMenuProps {
  isCollapsed: boolean;
  /** Absent in the phone drawer, which has its own close button. */
  onToggleCollapsed?: () => void;
  onNavigate?: () => void;
}

const MENU_ICONS: Record<MenuItem['icon'], typeof IconGauge> = {
  check: IconGauge,
  admin: IconSettings,
  users: IconUsers,
  locations: IconBuildingCommunity,
  devices: IconDevices,
  apiKeys: IconApi,
  connect: IconPlugConnected,
  import: IconFileImport,
  export: IconFileExport,
  series: IconChartLine,
  audit: IconHistory,
};

function MenuIcon({ icon }: { icon: MenuItem['icon'] }) {
  const Icon = MENU_ICONS[icon];
  return <Icon className={classes.icon} size={20} stroke={1.75} aria-hidden />;
}

/** The vertical menu: entries the user's ability allows, collapsible to icons. */
export function VerticalMenu({ isCollapsed, onToggleCollapsed, onNavigate }: VerticalMenuProps) {
  const { t } = useTranslation();
  const ability = useAppAbility();
  const isRtl = useAppSelector((state) => state.layout.isRtl);
  const sections = menuSections
    .map((section) => ({
      ...section,
      items: section.items.filter((item) => ability.can(item.action, item.subject)),
    }))
    .filter((section) => section.items.length > 0);

  return (
    <div className={isCollapsed ? classes.collapsed : undefined} data-menu>
      <div className={classes.header}>
        <Link to={DEFAULT_ROUTE} className={classes.brand} aria-label={PRODUCT_NAME} onClick={onNavigate}>
          <LogoMark size={34} />
          <span>{isCollapsed ? PRODUCT_SHORT_NAME : PRODUCT_NAME}</span>
        </Link>
        {onToggleCollapsed && (
          <ActionIcon
            variant="subtle"
            color="gray"
            className={classes.toggle}
            onClick={onToggleCollapsed}
            aria-label={isCollapsed ? t('menu.expand') : t('menu.collapse')}
            aria-expanded={!isCollapsed}
          >
            {isCollapsed ? (
              <IconChevronsRight size={20} aria-hidden />
            ) : (
              <IconChevronsLeft size={20} aria-hidden />
            )}
          </ActionIcon>
        )}
      </div>
      <nav className={classes.nav} aria-label={t('menu.label')}>
        {sections.map((section) => (
          <section key={section.id} aria-labelledby={`menu-section-${section.id}`}>
            <h2
              id={`menu-section-${section.id}`}
              className={isCollapsed ? 'cm-visually-hidden' : classes.section}
            >
              {t(section.titleKey)}
            </h2>
            {isCollapsed && <hr className={classes.divider} aria-hidden />}
            <ul className={classes.list}>
              {section.items.map((item) => (
                <li key={item.id}>
                  <Tooltip
                    label={t(item.labelKey)}
                    position={isRtl ? 'left' : 'right'}
                    disabled={!isCollapsed}
                    withinPortal
                  >
                    <NavLink
                      to={item.path}
                      end={item.end}
                      className={classes.link}
                      onClick={onNavigate}
                      aria-label={isCollapsed ? t(item.labelKey) : undefined}
                    >
                      <MenuIcon icon={item.icon} />
                      {!isCollapsed && <span>{t(item.labelKey)}</span>}
                    </NavLink>
                  </Tooltip>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </nav>
    </div>
  );
}
