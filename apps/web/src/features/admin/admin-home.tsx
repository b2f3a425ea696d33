import { Stack, Text, ThemeIcon } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { adminSections } from './admin-sections.tsx';
import { AdminPageHeader } from './admin-ui.tsx';
import classes from './admin.module.css';

/** `/admin`: one card per administration page. */
export function AdminHome() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" className={classes.page}>
      <AdminPageHeader title={t('admin.title')} intro={t('admin.intro')} />
      <nav aria-label={t('admin.title')}>
        <ul className={classes.cards}>
          {adminSections.map(({ id, path, titleKey, introKey, Icon }) => (
            <li key={id}>
              <Link to={path} className={classes.card}>
                <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
                  <Icon size={22} stroke={1.75} aria-hidden />
                </ThemeIcon>
                <div>
                  <Text fw={600}>{t(titleKey)}</Text>
                  <Text size="sm" c="dimmed">
                    {t(introKey)}
                  </Text>
                </div>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </Stack>
  );
}
