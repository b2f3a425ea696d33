import { Button, FileInput, Group, Stack, Text } from '@mantine/core';
import { IconFileUpload, IconUpload, IconX } from '@tabler/icons-react';
import { useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPercent } from '@/lib/format.ts';
import type { Failure } from '@/lib/http-client.ts';
import { AdminPanel, FailureAlert } from '../admin-ui.tsx';
import classes from '../admin.module.css';
import { ProgressBar } from './progress-bar.tsx';

/**
 * Where a file is dropped or chosen; while it is sent, how much of it, with a cancel. `sent`: the
 * fraction sent (null: no upload going); `failure`: the last upload's.
 */
export function UploadPanel({
  file,
  sent,
  failure,
  onPick,
  onAbort,
}: {
  file: File | null;
  sent: number | null;
  failure: Failure | null;
  onPick: (file: File) => void;
  onAbort: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [isOver, setIsOver] = useState(false);

  function handleDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setIsOver(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) onPick(dropped);
  }

  return (
    <AdminPanel>
      <Stack gap="sm">
        <div
          className={classes.dropZone}
          data-over={isOver || undefined}
          onDragOver={(event) => {
            event.preventDefault();
            setIsOver(true);
          }}
          onDragLeave={() => setIsOver(false)}
          onDrop={handleDrop}
          data-testid="import-drop-zone"
        >
          <Stack gap="xs" align="center">
            <IconFileUpload size={32} aria-hidden />
            <Text size="sm">{t('admin.import.drop')}</Text>
            <FileInput
              aria-label={t('admin.import.file')}
              placeholder={t('admin.import.filePlaceholder')}
              value={file}
              onChange={(next) => next && onPick(next)}
              leftSection={<IconUpload size={16} aria-hidden />}
              w={360}
              maw="100%"
              name="file"
            />
            <Text size="xs" c="dimmed">
              {t('admin.import.fileHint')}
            </Text>
          </Stack>
        </div>
        {sent !== null ? (
          <Group align="flex-end" gap="sm">
            <div style={{ flex: 1 }}>
              <ProgressBar
                label={t('admin.import.uploading', { percent: formatPercent(sent, i18n.language) })}
                percent={Math.round(sent * 100)}
                isIndeterminate={false}
              />
            </div>
            <Button variant="default" leftSection={<IconX size={16} aria-hidden />} onClick={onAbort}>
              {t('admin.actions.cancel')}
            </Button>
          </Group>
        ) : null}
        {failure ? <FailureAlert failure={failure} /> : null}
      </Stack>
    </AdminPanel>
  );
}
