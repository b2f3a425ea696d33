import {
  Alert,
  Anchor,
  Button,
  FileInput,
  Group,
  Progress,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  Textarea,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFileUpload, IconPlayerPlay, IconRefresh, IconUpload, IconX } from '@tabler/icons-react';
import { importPresets, type DelimitedMapping, type ImportPreset } from '@cm/contracts/import-mapping.ts';
import type { ImportJob, ImportSource } from '@cm/contracts/import-jobs.ts';
import { useEffect, useMemo, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatBytes, formatNumber, formatPercent, readerTimeZone } from '@/lib/format.ts';
import { toFailure, type Failure } from '@/lib/http-client.ts';
import { AdminPageHeader, AdminPanel, FailureAlert } from '../admin-ui.tsx';
import {
  useCancelImportMutation,
  useListImportMappingsQuery,
  usePreviewImportMutation,
  useStartImportMutation,
} from './imports-api.ts';
import { timeZoneOptions } from '../time-zones.ts';
import classes from '../admin.module.css';
import { MappingEditor } from './mapping-editor.tsx';
import { nmiMapText, parseNmiMap } from './nmi-map.ts';
import { NewMetersPanel } from './new-meters.tsx';
import { PreviewPanel } from './preview-panel.tsx';
import { ImportReportView } from './report-view.tsx';
import { uploadImportFile } from './upload.ts';
import { isRunning, useImportJob } from './use-import-job.ts';
import { fieldFailure } from '../failure-message.ts';

const AUTO = 'auto';

/** The upload's progress, then the running job's: the bar and what it says. */
function ProgressBar({
  label,
  percent,
  isIndeterminate,
}: {
  label: string;
  percent: number;
  isIndeterminate: boolean;
}) {
  return (
    <Stack gap={4}>
      <Text size="sm" id="cm-import-progress-label" data-testid="import-progress-label">
        {label}
      </Text>
      <Progress
        value={isIndeterminate ? 100 : percent}
        animated={isIndeterminate}
        striped={isIndeterminate}
        aria-labelledby="cm-import-progress-label"
        size="lg"
        transitionDuration={200}
        data-testid="import-progress"
      />
    </Stack>
  );
}

/**
 * Import readings as they come: drop a file (it is uploaded and its format detected from its
 * content), check the preview — what was detected and why, the meters and channels, the first
 * and last rows, the days, the clock changes, the problems — change the mapping or the options
 * and watch the preview follow, then import and watch the progress; the report stays.
 */
export function ImportPage() {
  const { t, i18n } = useTranslation();
  const zones = useMemo(() => timeZoneOptions(), []);
  const [file, setFile] = useState<File | null>(null);
  const [isOver, setIsOver] = useState(false);
  const [sent, setSent] = useState<number | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const meterFailure = fieldFailure(failure, ['meterNumber']);
  const [uploaded, setUploaded] = useState<ImportJob | null>(null);
  const [preset, setPreset] = useState<string>(AUTO);
  const [mapping, setMapping] = useState<DelimitedMapping | null>(null);
  const [meterNumber, setMeterNumber] = useState('');
  const [timeZone, setTimeZone] = useState<string | null>(null);
  const [isStrict, setIsStrict] = useState(false);
  const [corrections, setCorrections] = useState(false);
  const [saveAs, setSaveAs] = useState('');
  const [nmisText, setNmisText] = useState('');
  const [runningId, setRunningId] = useState<string | null>(null);
  const upload = useRef<AbortController | null>(null);
  const [preview, previewState] = usePreviewImportMutation();
  const [startImport, startState] = useStartImportMutation();
  const [cancelImport] = useCancelImportMutation();
  const mappings = useListImportMappingsQuery();
  const job = useImportJob(runningId);
  const current = job.data ?? null;
  const isDone = current !== null && !isRunning(current);

  const source: ImportSource = useMemo(() => {
    const nmis = parseNmiMap(nmisText);
    return {
      ...(preset !== AUTO && !mapping ? { preset: preset as ImportPreset } : {}),
      ...(mapping ? { mapping } : {}),
      ...(meterNumber.trim() ? { meterNumber: meterNumber.trim() } : {}),
      ...(timeZone ? { timeZone } : {}),
      ...(nmis ? { nmis } : {}),
    };
  }, [preset, mapping, meterNumber, timeZone, nmisText]);
  // The preview follows the options as they are typed, a moment after the last key.
  const [settled] = useDebouncedValue(source, 400);
  useEffect(() => {
    if (uploaded === null || runningId !== null) return;
    void preview({ id: uploaded.id, source: settled });
  }, [uploaded, settled, runningId, preview]);

  async function send(next: File) {
    setFile(next);
    setUploaded(null);
    setRunningId(null);
    setMapping(null);
    setNmisText('');
    setPreset(AUTO);
    setFailure(null);
    setSent(0);
    const controller = new AbortController();
    upload.current = controller;
    const outcome = await uploadImportFile(
      next,
      (bytes, total) => setSent(total > 0 ? bytes / total : 0),
      controller.signal,
    );
    upload.current = null;
    setSent(null);
    if (outcome.kind === 'failed') {
      if (outcome.failure.status !== 'ABORTED') setFailure(outcome.failure);
      return;
    }
    setUploaded(outcome.job);
    if (outcome.job.detection.preset) setPreset(outcome.job.detection.preset);
  }

  function handleDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setIsOver(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) void send(dropped);
  }

  async function handleStart(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!uploaded) return;
    setFailure(null);
    try {
      const started = await startImport({
        id: uploaded.id,
        body: {
          ...source,
          strict: isStrict,
          corrections,
          ...(saveAs.trim() && (mapping || source.nmis) ? { saveMappingAs: saveAs.trim() } : {}),
        },
      }).unwrap();
      setRunningId(started.id);
    } catch (error) {
      setFailure(toFailure(error));
    }
  }

  const detection = uploaded?.detection;
  const shownMapping = mapping ?? previewState.data?.mapping ?? null;
  const needsMeter = detection?.needs.includes('meterNumber') || detection?.format === 'espi';
  const isMdff = detection?.format === 'nem12' || detection?.format === 'nem13';
  // Meters the file names that are not on the site: they may be created from the preview.
  const unknownMeters = [
    ...new Set([
      ...(previewState.data?.meters ?? []).filter((meter) => !meter.known).map((meter) => meter.meterNumber),
      ...(previewState.data?.mdff?.series ?? []).flatMap((series) =>
        !series.known && series.channel !== null && series.meterNumber ? [series.meterNumber] : [],
      ),
    ]),
  ];
  const savedNmiMaps = (mappings.data ?? []).flatMap((saved) =>
    saved.nmis ? [{ name: saved.name, nmis: saved.nmis }] : [],
  );
  const progressLabel = (running: ImportJob) =>
    running.status === 'queued'
      ? t('admin.import.job.queued')
      : running.progress.phase === 'reading'
        ? t('admin.import.job.reading', {
            percent: formatPercent(running.progress.percent / 100, i18n.language),
            rows: formatNumber(running.progress.rowsRead, i18n.language),
            left:
              running.progress.secondsLeft === null
                ? ''
                : t('admin.import.job.left', { count: Math.max(1, running.progress.secondsLeft) }),
          })
        : t(`admin.import.job.${running.progress.phase ?? 'checking'}`, {
            rows: formatNumber(running.progress.rowsRead, i18n.language),
          });

  return (
    <Stack gap="md" className={classes.page}>
      <AdminPageHeader title={t('admin.import.title')} intro={t('admin.import.intro')} />
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
                onChange={(next) => next && void send(next)}
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
              <Button
                variant="default"
                leftSection={<IconX size={16} aria-hidden />}
                onClick={() => upload.current?.abort()}
              >
                {t('admin.actions.cancel')}
              </Button>
            </Group>
          ) : null}
          {failure ? <FailureAlert failure={failure} /> : null}
        </Stack>
      </AdminPanel>

      {uploaded && runningId === null ? (
        <form onSubmit={(event) => void handleStart(event)} noValidate>
          <AdminPanel>
            <Stack gap="md">
              <Title order={2} size="h4">
                {t('admin.import.howToRead', {
                  file: uploaded.fileName ?? '',
                  size: formatBytes(uploaded.bytes, i18n.language),
                })}
              </Title>
              <Group align="flex-end" gap="sm" wrap="wrap">
                {detection?.format === 'delimited' ? (
                  <Select
                    label={t('admin.import.preset')}
                    data={[
                      { value: AUTO, label: t('admin.import.presetAuto') },
                      ...importPresets.map((name) => ({
                        value: name,
                        label: t(`admin.import.presets.${name}`),
                      })),
                      ...(mappings.data ?? [])
                        .flatMap((saved) => (saved.mapping ? [saved] : []))
                        .map((saved) => ({
                          value: `saved:${saved.name}`,
                          label: t('admin.import.saved', { name: saved.name }),
                        })),
                    ]}
                    value={preset}
                    onChange={(value) => {
                      const next = value ?? AUTO;
                      setPreset(next);
                      const saved = mappings.data?.find((item) => `saved:${item.name}` === next);
                      setMapping(saved?.mapping ?? null);
                    }}
                    allowDeselect={false}
                    w={280}
                  />
                ) : null}
                {needsMeter || detection?.format !== 'csv' ? (
                  <TextInput
                    label={t('admin.devices.fields.meterNumber')}
                    description={t('admin.import.meterHint')}
                    value={meterNumber}
                    onChange={(event) => setMeterNumber(event.currentTarget.value)}
                    required={needsMeter}
                    error={meterFailure ? t(meterFailure.key, meterFailure.values) : undefined}
                    w={240}
                  />
                ) : null}
                {detection?.format === 'csv' ? (
                  <Select
                    label={t('admin.import.timeZone')}
                    description={t('admin.import.timeZoneHint')}
                    placeholder={t('admin.import.timeZoneNone')}
                    data={zones}
                    value={timeZone}
                    onChange={setTimeZone}
                    searchable
                    clearable
                    limit={50}
                    w={300}
                  />
                ) : null}
                {shownMapping && !mapping ? (
                  <Button
                    variant="subtle"
                    leftSection={<IconRefresh size={16} aria-hidden />}
                    onClick={() => setMapping(shownMapping)}
                  >
                    {t('admin.import.editMapping')}
                  </Button>
                ) : null}
              </Group>
              {mapping ? <MappingEditor mapping={mapping} onChange={setMapping} zones={zones} /> : null}
              {isMdff ? (
                <Group gap="md" align="flex-start" wrap="wrap">
                  {savedNmiMaps.length > 0 ? (
                    <Select
                      label={t('admin.import.savedNmis')}
                      data={savedNmiMaps.map((saved) => saved.name)}
                      onChange={(name) => {
                        const saved = savedNmiMaps.find((item) => item.name === name);
                        if (saved) setNmisText(nmiMapText(saved.nmis));
                      }}
                      w={240}
                    />
                  ) : null}
                  <Textarea
                    label={t('admin.import.nmis')}
                    description={t('admin.import.nmisHint')}
                    value={nmisText}
                    onChange={(event) => setNmisText(event.currentTarget.value)}
                    autosize
                    minRows={2}
                    className={classes.mono}
                    w={420}
                  />
                </Group>
              ) : null}
              <Group gap="lg" wrap="wrap">
                <Switch
                  label={t('admin.import.strict')}
                  description={t('admin.import.strictHint')}
                  checked={isStrict}
                  onChange={(event) => setIsStrict(event.currentTarget.checked)}
                />
                <Switch
                  label={t('admin.import.corrections')}
                  description={t('admin.import.correctionsHint')}
                  checked={corrections}
                  onChange={(event) => setCorrections(event.currentTarget.checked)}
                />
              </Group>
              {mapping || source.nmis ? (
                <TextInput
                  label={t('admin.import.saveMappingAs')}
                  description={t('admin.import.saveMappingHint')}
                  value={saveAs}
                  onChange={(event) => setSaveAs(event.currentTarget.value)}
                  w={320}
                />
              ) : null}
              {failure && failure.param !== 'meterNumber' ? <FailureAlert failure={failure} /> : null}
              <Group>
                <Button
                  type="submit"
                  leftSection={<IconPlayerPlay size={16} aria-hidden />}
                  loading={startState.isLoading}
                  disabled={previewState.data?.refusal !== null && previewState.data?.refusal !== undefined}
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
      ) : null}
      {uploaded && runningId === null && previewState.data ? (
        <PreviewPanel preview={previewState.data} />
      ) : null}
      {uploaded && runningId === null && unknownMeters.length > 0 ? (
        <NewMetersPanel
          jobId={uploaded.id}
          source={source}
          meterNumbers={unknownMeters}
          onCreated={() => void preview({ id: uploaded.id, source })}
        />
      ) : null}

      {current && !isDone ? (
        <AdminPanel testId="import-running">
          <Group align="flex-end" gap="sm">
            <div style={{ flex: 1 }}>
              <ProgressBar
                label={progressLabel(current)}
                percent={current.progress.percent}
                isIndeterminate={current.status === 'queued' || current.progress.phase !== 'reading'}
              />
            </div>
            <Button
              variant="default"
              leftSection={<IconX size={16} aria-hidden />}
              onClick={() => void cancelImport(current.id)}
            >
              {t('admin.actions.cancel')}
            </Button>
          </Group>
        </AdminPanel>
      ) : null}
      {current && isDone && current.report ? (
        <>
          <ImportReportView
            report={current.report}
            fileName={current.fileName ?? ''}
            isStrict={current.source?.strict ?? false}
            zoneOf={(meterNumber) =>
              previewState.data?.meters.find((meter) => meter.meterNumber === meterNumber)?.timeZone ??
              readerTimeZone()
            }
            rejectedCsvUrl={
              current.report.rejectedCount > 0 ? `/api/admin/imports/jobs/${current.id}/rejected.csv` : null
            }
          />
          {current.report.committed && (previewState.data?.meters ?? []).some((meter) => meter.known) ? (
            <Group gap="sm">
              {(previewState.data?.meters ?? [])
                .filter((meter) => meter.known)
                .slice(0, 5)
                .map((meter) => (
                  <Anchor
                    key={meter.meterNumber}
                    component={Link}
                    to={`/check?meter=${encodeURIComponent(meter.meterNumber)}`}
                  >
                    {t('admin.import.openMeter', { meter: meter.meterNumber })}
                  </Anchor>
                ))}
            </Group>
          ) : null}
        </>
      ) : null}
      {current && isDone && !current.report ? (
        <Alert color="red" variant="light" role="alert">
          {current.error ?? t('admin.import.tone.refused')}
        </Alert>
      ) : null}
    </Stack>
  );
}
