import { Anchor, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSuggestions } from '@/lib/bookmarks-api.ts';
import classes from '../check.module.css';

/**
 * Where to start: the caller's locations and meters as links. It reads the suggestions itself, so
 * their arrival re-renders this panel and the lookup, not the whole page.
 */
export function StartPanel() {
  const { t } = useTranslation();
  const suggestions = useSuggestions();
  return (
    <Paper withBorder p="md" radius="md" className={classes.panel}>
      <Text fw={600}>{t('check.start.title')}</Text>
      <Text size="sm" c="dimmed" mb="xs">
        {t('check.start.text')}
      </Text>
      <Group gap="xs" wrap="wrap">
        {suggestions
          .filter((s) => s.kind !== 'page')
          .slice(0, 8)
          .map((s) => (
            <Anchor key={s.id} component={Link} to={s.link} size="sm" className={classes.chipLink}>
              {s.title}
            </Anchor>
          ))}
      </Group>
    </Paper>
  );
}
