import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AdminHome } from './admin-home.tsx';

/** Each administration page is its own chunk, loaded when first opened. */
function lazyNamed<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

const UsersPage = lazyNamed(() => import('./users/users-page.tsx'), 'UsersPage');
const LocationsPage = lazyNamed(() => import('./locations/locations-page.tsx'), 'LocationsPage');
const DevicesPage = lazyNamed(() => import('./devices/devices-page.tsx'), 'DevicesPage');
const ApiKeysPage = lazyNamed(() => import('./api-keys-page.tsx'), 'ApiKeysPage');
const ConnectAppsPage = lazyNamed(() => import('./connect-apps-page.tsx'), 'ConnectAppsPage');
const ImportPage = lazyNamed(() => import('./imports/import-page.tsx'), 'ImportPage');
const ExportPage = lazyNamed(() => import('./export-page.tsx'), 'ExportPage');
const SeriesPage = lazyNamed(() => import('./series/series-page.tsx'), 'SeriesPage');
const AuditPage = lazyNamed(() => import('./audit-page.tsx'), 'AuditPage');

function PageLoader() {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Loader aria-label={t('admin.loading')} />
    </Center>
  );
}

/**
 * `/admin/*` (the router guards it with `manage all`; every call is checked again by the server):
 * the landing page and the administration pages.
 */
export function AdminPage() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Routes>
        <Route index element={<AdminHome />} />
        <Route path="users" element={<UsersPage />} />
        <Route path="locations" element={<LocationsPage />} />
        <Route path="devices" element={<DevicesPage />} />
        <Route path="api-keys" element={<ApiKeysPage />} />
        <Route path="connect" element={<ConnectAppsPage />} />
        <Route path="import" element={<ImportPage />} />
        <Route path="export" element={<ExportPage />} />
        <Route path="series" element={<SeriesPage />} />
        <Route path="audit" element={<AuditPage />} />
        <Route path="*" element={<Navigate to="/admin" replace />} />
      </Routes>
    </Suspense>
  );
}
