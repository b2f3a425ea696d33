import { Button, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PRODUCT_NAME, ROOT_ROUTE } from '@/lib/config.ts';

/** Shown when the user's ability does not allow a page. */
export function NotAuthorizedPage() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('errors.notAuthorized.title')} · ${PRODUCT_NAME}`);
  return (
    <Stack align="center" gap="md" py="xl" ta="center">
      <IconLock size={56} stroke={1.5} aria-hidden />
      <Title order={1}>{t('errors.notAuthorized.title')}</Title>
      <Text c="dimmed">{t('errors.notAuthorized.text')}</Text>
      <Button component={Link} to={ROOT_ROUTE}>
        {t('errors.backHome')}
      </Button>
    </Stack>
  );
}
