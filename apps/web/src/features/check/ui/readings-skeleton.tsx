import { Paper, Skeleton, Stack } from '@mantine/core';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';

/** The chart's and totals' shape while they load (memo: the page renders again for every answer). */
export const ReadingsSkeleton = memo(function ReadingsSkeleton() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" aria-busy="true" aria-label={t('check.loading')}>
      <Paper withBorder p="md" radius="md">
        <Skeleton height={20} width="30%" mb="md" />
        <Skeleton height={60} />
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Skeleton height={20} width="20%" mb="md" />
        <Skeleton height={300} />
      </Paper>
    </Stack>
  );
});
