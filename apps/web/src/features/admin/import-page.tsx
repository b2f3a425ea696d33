import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AdminPageHeader } from './admin-ui.tsx';

export function ImportPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <AdminPageHeader title={t('admin.import.title')} intro={t('admin.import.intro')} />
    </Stack>
  );
}
