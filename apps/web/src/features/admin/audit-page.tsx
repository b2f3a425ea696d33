import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AdminPageHeader } from './admin-ui.tsx';

export function AuditPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <AdminPageHeader title={t('admin.audit.title')} intro={t('admin.audit.intro')} />
    </Stack>
  );
}
