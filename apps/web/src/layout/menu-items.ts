import type { AbilityAction, AbilitySubject } from '@/lib/ability-context.ts';

/** A menu entry: shown only when the ability allows `action` on `subject`. */
export interface MenuItem {
  id: string;
  /** i18n key of the label. */
  labelKey: string;
  path: string;
  icon:
    | 'check'
    | 'admin'
    | 'users'
    | 'locations'
    | 'devices'
    | 'apiKeys'
    | 'connect'
    | 'import'
    | 'export'
    | 'series'
    | 'audit';
  action: AbilityAction;
  subject: AbilitySubject;
  /** Active only on this exact path (a landing page whose children have their own entries). */
  end?: boolean;
}

/** A titled group of entries. */
export interface MenuSection {
  id: string;
  titleKey: string;
  items: MenuItem[];
}

export const menuSections: MenuSection[] = [
  {
    id: 'meters',
    titleKey: 'menu.section.meters',
    items: [
      {
        id: 'check',
        labelKey: 'menu.check',
        path: '/check',
        icon: 'check',
        action: 'read',
        subject: 'Check',
      },
      {
        id: 'connected-apps',
        labelKey: 'connect.apps.title',
        path: '/connected-apps',
        icon: 'connect',
        action: 'read',
        subject: 'Check',
      },
    ],
  },
  {
    id: 'administration',
    titleKey: 'menu.section.administration',
    items: [
      {
        id: 'admin',
        labelKey: 'menu.admin',
        path: '/admin',
        icon: 'admin',
        action: 'manage',
        subject: 'all',
        end: true,
      },
      {
        id: 'admin-users',
        labelKey: 'admin.users.title',
        path: '/admin/users',
        icon: 'users',
        action: 'manage',
        subject: 'all',
      },
      {
        id: 'admin-locations',
        labelKey: 'admin.locations.title',
        path: '/admin/locations',
        icon: 'locations',
        action: 'manage',
        subject: 'all',
      },
      {
        id: 'admin-devices',
        labelKey: 'admin.devices.title',
        path: '/admin/devices',
        icon: 'devices',
        action: 'manage',
        subject: 'all',
      },
      {
        id: 'admin-api-keys',
        labelKey: 'admin.apiKeys.title',
        path: '/admin/api-keys',
        icon: 'apiKeys',
        action: 'manage',
        subject: 'all',
      },
      {
        id: 'admin-connect',
        labelKey: 'admin.connect.title',
        path: '/admin/connect',
        icon: 'connect',
        action: 'manage',
        subject: 'all',
      },
      {
        id: 'admin-import',
        labelKey: 'admin.import.title',
        path: '/admin/import',
        icon: 'import',
        action: 'manage',
        subject: 'all',
      },
      {
        id: 'admin-export',
        labelKey: 'admin.export.title',
        path: '/admin/export',
        icon: 'export',
        action: 'manage',
        subject: 'all',
      },
      {
        id: 'admin-series',
        labelKey: 'admin.series.title',
        path: '/admin/series',
        icon: 'series',
        action: 'manage',
        subject: 'all',
      },
      {
        id: 'admin-audit',
        labelKey: 'admin.audit.title',
        path: '/admin/audit',
        icon: 'audit',
        action: 'manage',
        subject: 'all',
      },
    ],
  },
];
