import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AdminPageHeader } from './admin-ui.tsx';

export function ApiKeysPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <AdminPageHeader title={t('admin.apiKeys.title')} intro={t('admin.apiKeys.intro')} />
    </Stack>
  );
}
