import { Button, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PRODUCT_NAME, ROOT_ROUTE } from '@/lib/config.ts';

/** 404. */
export function NotFoundPage() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('errors.notFound.title')} · ${PRODUCT_NAME}`);
  return (
    <Stack align="center" gap="md" py="xl" ta="center">
      <Text fz={64} fw={800} c="dimmed" aria-hidden>
        404
      </Text>
      <Title order={1}>{t('errors.notFound.title')}</Title>
      <Text c="dimmed">{t('errors.notFound.text')}</Text>
      <Button component={Link} to={ROOT_ROUTE}>
        {t('errors.backHome')}
      </Button>
    </Stack>
  );
}
