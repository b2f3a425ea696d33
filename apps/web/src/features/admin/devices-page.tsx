import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AdminPageHeader } from './admin-ui.tsx';

export function DevicesPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <AdminPageHeader title={t('admin.devices.title')} intro={t('admin.devices.intro')} />
    </Stack>
  );
}
