import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AdminPageHeader } from './admin-ui.tsx';

export function ExportPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <AdminPageHeader title={t('admin.export.title')} intro={t('admin.export.intro')} />
    </Stack>
  );
}
