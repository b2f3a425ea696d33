import { Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { PRODUCT_NAME } from '@/lib/config.ts';

/** Placeholder for the check page (built in its own issue). */
export function CheckPage() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('check.title')} · ${PRODUCT_NAME}`);
  return <Title order={1}>{t('check.title')}</Title>;
}
