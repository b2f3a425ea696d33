import {
  IconApi,
  IconPlugConnected,
  IconBuildingCommunity,
  IconChartLine,
  IconDevices,
  IconFileExport,
  IconFileImport,
  IconHistory,
  IconUsers,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';

/** One administration page: where it lives and what the landing page says about it. */
export interface AdminSection {
  id: string;
  path: string;
  titleKey: string;
  introKey: string;
  Icon: ComponentType<{ size?: number; stroke?: number; 'aria-hidden'?: boolean }>;
}

/** The administration pages, in the order the landing page shows them. */
export const adminSections: readonly AdminSection[] = [
  {
    id: 'users',
    path: 'users',
    titleKey: 'admin.users.title',
    introKey: 'admin.users.intro',
    Icon: IconUsers,
  },
  {
    id: 'locations',
    path: 'locations',
    titleKey: 'admin.locations.title',
    introKey: 'admin.locations.intro',
    Icon: IconBuildingCommunity,
  },
  {
    id: 'devices',
    path: 'devices',
    titleKey: 'admin.devices.title',
    introKey: 'admin.devices.intro',
    Icon: IconDevices,
  },
  {
    id: 'apiKeys',
    path: 'api-keys',
    titleKey: 'admin.apiKeys.title',
    introKey: 'admin.apiKeys.intro',
    Icon: IconApi,
  },
  {
    id: 'connect',
    path: 'connect',
    titleKey: 'admin.connect.title',
    introKey: 'admin.connect.cardIntro',
    Icon: IconPlugConnected,
  },
  {
    id: 'import',
    path: 'import',
    titleKey: 'admin.import.title',
    introKey: 'admin.import.intro',
    Icon: IconFileImport,
  },
  {
    id: 'export',
    path: 'export',
    titleKey: 'admin.export.title',
    introKey: 'admin.export.intro',
    Icon: IconFileExport,
  },
  {
    id: 'series',
    path: 'series',
    titleKey: 'admin.series.title',
    introKey: 'admin.series.intro',
    Icon: IconChartLine,
  },
  {
    id: 'audit',
    path: 'audit',
    titleKey: 'admin.audit.title',
    introKey: 'admin.audit.cardIntro',
    Icon: IconHistory,
  },
];
