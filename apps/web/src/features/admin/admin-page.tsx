import { Paper, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { PRODUCT_NAME } from '@/lib/config.ts';

/** Landing page of /admin/* (other engineers add the administration screens). */
export function AdminPage() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('admin.title')} · ${PRODUCT_NAME}`);
  return (
    <Paper p="xl" radius="md" withBorder>
      <Title order={1} mb="sm">
        {t('admin.title')}
      </Title>
      <Text c="dimmed">{t('admin.intro')}</Text>
    </Paper>
  );
}
