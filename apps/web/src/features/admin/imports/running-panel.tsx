import type { ImportJob } from '@cm/contracts/import-jobs.ts';
import { Button, Group } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatNumber, formatPercent } from '@/lib/format.ts';
import { AdminPanel } from '../admin-ui.tsx';
import { ProgressBar } from './progress-bar.tsx';

/** A started job while it waits or runs: where it is, and a cancel. */
export function RunningPanel({ job, onCancel }: { job: ImportJob; onCancel: () => void }) {
  const { t, i18n } = useTranslation();
  const { progress } = job;
  const label =
    job.status === 'queued'
      ? t('admin.import.job.queued')
      : progress.phase === 'reading'
        ? t('admin.import.job.reading', {
            percent: formatPercent(progress.percent / 100, i18n.language),
            rows: formatNumber(progress.rowsRead, i18n.language),
            left:
              progress.secondsLeft === null
                ? ''
                : t('admin.import.job.left', { count: Math.max(1, progress.secondsLeft) }),
          })
        : t(`admin.import.job.${progress.phase ?? 'checking'}`, {
            rows: formatNumber(progress.rowsRead, i18n.language),
          });
  return (
    <AdminPanel testId="import-running">
      <Group align="flex-end" gap="sm">
        <div style={{ flex: 1 }}>
          <ProgressBar
            label={label}
            percent={progress.percent}
            isIndeterminate={job.status === 'queued'}
            // Checking and storing: the bar stays at the server's 90 or 95 % and moves there,
            // rather than jumping to a full bar (issue 34 low).
            isWorking={progress.phase !== 'reading'}
          />
        </div>
        <Button variant="default" leftSection={<IconX size={16} aria-hidden />} onClick={onCancel}>
          {t('admin.actions.cancel')}
        </Button>
      </Group>
    </AdminPanel>
  );
}
