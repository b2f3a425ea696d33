import type { ImportJob, StartImportBody } from '@cm/contracts/import-jobs.ts';
import { Alert, Button, Group, Stack, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '@/lib/format.ts';
import { toFailure, type Failure } from '@/lib/http-client.ts';
import { AdminPanel, FailureAlert } from '../admin-ui.tsx';
import type { PreviewMeters } from './import-machine.ts';
import { useImportOptions } from './import-options.ts';
import { usePreviewImportMutation } from './imports-api.ts';
import { NewMetersPanel } from './new-meters.tsx';
import { OptionsFields } from './options-fields.tsx';
import { PreviewPanel } from './preview-panel.tsx';

/**
 * An uploaded file before its import: how to read it, the preview following the options a
 * moment after the last key, the meters it names that are not on the site, and the start.
 * `failure`: the start's, shown on the meter number field or above the button.
 */
export function PreviewStep({
  uploaded,
  failure,
  onStart,
}: {
  uploaded: ImportJob;
  failure: Failure | null;
  onStart: (id: string, body: StartImportBody, meters: PreviewMeters) => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const options = useImportOptions(uploaded);
  const [preview, previewState] = usePreviewImportMutation();
  const [isStarting, setIsStarting] = useState(false);
  const { source } = options;
  const [settled] = useDebouncedValue(source, 400);
  useEffect(() => {
    void preview({ id: uploaded.id, source: settled });
  }, [uploaded.id, settled, preview]);

  const shown = previewState.data;
  // Meters the file names that are not on the site: they may be created from the preview.
  const unknownMeters = [
    ...new Set([
      ...(shown?.meters ?? []).filter((meter) => !meter.known).map((meter) => meter.meterNumber),
      ...(shown?.mdff?.series ?? []).flatMap((series) =>
        !series.known && series.channel !== null && series.meterNumber ? [series.meterNumber] : [],
      ),
    ]),
  ];

  async function handleStart(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setIsStarting(true);
    await onStart(uploaded.id, options.startBody(), shown?.meters ?? []);
    setIsStarting(false);
  }

  return (
    <>
      <form onSubmit={(event) => void handleStart(event)} noValidate>
        <AdminPanel>
          <Stack gap="md">
            <Title order={2} size="h4">
              {t('admin.import.howToRead', {
                file: uploaded.fileName ?? '',
                size: formatBytes(uploaded.bytes, i18n.language),
              })}
            </Title>
            <OptionsFields
              uploaded={uploaded}
              options={options}
              detectedMapping={shown?.mapping ?? null}
              failure={failure}
            />
            {failure && failure.param !== 'meterNumber' ? <FailureAlert failure={failure} /> : null}
            <Group>
              <Button
                type="submit"
                leftSection={<IconPlayerPlay size={16} aria-hidden />}
                loading={isStarting}
                disabled={shown?.refusal !== null && shown?.refusal !== undefined}
              >
                {t('admin.import.submit')}
              </Button>
            </Group>
          </Stack>
        </AdminPanel>
        {previewState.isError ? (
          <Alert color="red" variant="light" mt="md">
            {toFailure(previewState.error)?.message ?? t('admin.import.previewFailed')}
          </Alert>
        ) : null}
      </form>
      {shown ? <PreviewPanel preview={shown} /> : null}
      {unknownMeters.length > 0 ? (
        <NewMetersPanel
          jobId={uploaded.id}
          source={source}
          meterNumbers={unknownMeters}
          onCreated={() => void preview({ id: uploaded.id, source })}
        />
      ) : null}
    </>
  );
}
