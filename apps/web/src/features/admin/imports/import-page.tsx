import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AdminPageHeader } from '../admin-ui.tsx';
import classes from '../admin.module.css';
import { ImportDone, ImportFailed } from './import-result.tsx';
import { PreviewStep } from './preview-step.tsx';
import { RunningPanel } from './running-panel.tsx';
import { UploadPanel } from './upload-panel.tsx';
import { useImportJob } from './use-import-job.ts';

/**
 * Import readings as they come: drop a file (it is uploaded and its format detected from its
 * content), check the preview — what was detected and why, the meters and channels, the first
 * and last rows, the days, the clock changes, the problems — change the mapping or the options
 * and watch the preview follow, then import and watch the progress; the report stays. Each step
 * is a state of useImportJob (idle → uploading → previewing → running → done | failed).
 */
export function ImportPage() {
  const { t } = useTranslation();
  const { state, pick, abortUpload, start, cancel, isCancelTooLate } = useImportJob();
  return (
    <Stack gap="md" className={classes.page}>
      <AdminPageHeader title={t('admin.import.title')} intro={t('admin.import.intro')} />
      <UploadPanel
        file={state.file}
        sent={state.step === 'uploading' ? state.sent : null}
        failure={state.step === 'idle' ? state.failure : null}
        onPick={(file) => void pick(file)}
        onAbort={abortUpload}
      />
      {state.step === 'previewing' ? (
        <PreviewStep
          key={state.uploaded.id}
          uploaded={state.uploaded}
          failure={state.failure}
          onStart={start}
        />
      ) : null}
      {state.step === 'running' ? <RunningPanel job={state.job} onCancel={() => void cancel()} /> : null}
      {state.step === 'done' ? (
        <ImportDone
          job={state.job}
          report={state.report}
          meters={state.meters}
          isCancelTooLate={isCancelTooLate}
        />
      ) : null}
      {state.step === 'failed' ? <ImportFailed job={state.job} /> : null}
    </Stack>
  );
}
