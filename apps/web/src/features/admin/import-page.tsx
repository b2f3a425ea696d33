import {
  Input,
  Alert,
  Button,
  FileInput,
  Group,
  Paper,
  Progress,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  IconAlertCircle,
  IconAlertTriangle,
  IconCircleCheck,
  IconFileUpload,
  IconInfoCircle,
  IconUpload,
  IconX,
} from '@tabler/icons-react';
import type { ImportReport } from '@cm/contracts/admin.ts';
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatEnergy, formatNumber, formatPercent } from '@/lib/format.ts';
import type { Failure } from '@/lib/http-client.ts';
import { AdminPageHeader, FailureAlert } from './admin-ui.tsx';
import {
  formatFromFileName,
  rejectedOverflow,
  reportCounts,
  reportTone,
  type ReportTone,
} from './import-report.ts';
import { timeZoneOptions } from './time-zones.ts';
import { uploadImport } from './upload.ts';
import classes from './admin.module.css';

const toneStyle: Record<ReportTone, { color: string; titleKey: string }> = {
  stored: { color: 'teal', titleKey: 'admin.import.tone.stored' },
  storedWithProblems: { color: 'orange', titleKey: 'admin.import.tone.storedWithProblems' },
  nothingNew: { color: 'blue', titleKey: 'admin.import.tone.nothingNew' },
  refused: { color: 'red', titleKey: 'admin.import.tone.refused' },
};

function ToneIcon({ tone }: { tone: ReportTone }) {
  if (tone === 'stored') return <IconCircleCheck aria-hidden />;
  if (tone === 'refused') return <IconAlertCircle aria-hidden />;
  if (tone === 'nothingNew') return <IconInfoCircle aria-hidden />;
  return <IconAlertTriangle aria-hidden />;
}

/** The report of one import: headline, counts, rejected lines and conflicts. */
function ImportReportView({ report, fileName }: { report: ImportReport; fileName: string }) {
  const { t, i18n } = useTranslation();
  const tone = reportTone(report);
  const overflow = rejectedOverflow(report);
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      className={classes.panel}
      component="section"
      aria-labelledby="cm-report-title"
      data-testid="import-report"
    >
      <Stack gap="md">
        <Title order={2} size="h4" id="cm-report-title">
          {t('admin.import.report', { file: fileName })}
        </Title>
        <Alert
          color={toneStyle[tone].color}
          variant="light"
          icon={<ToneIcon tone={tone} />}
          title={t(toneStyle[tone].titleKey)}
          role="status"
        >
          {report.refusal ? t('admin.import.refusal', { detail: report.refusal }) : t('admin.import.atomic')}
        </Alert>
        <dl className={classes.counts} style={{ margin: 0 }}>
          {reportCounts(report).map((count) => (
            <div
              key={count.key}
              className={classes.count}
              data-testid={`count-${count.key.split('.').pop() ?? ''}`}
            >
              <Text component="dt" size="xs" c="dimmed">
                {t(count.key)}
              </Text>
              <Text
                component="dd"
                fw={700}
                size="lg"
                m={0}
                c={count.isProblem ? 'var(--mantine-color-error)' : undefined}
              >
                {formatNumber(count.value, i18n.language)}
              </Text>
            </div>
          ))}
        </dl>
        {report.rejected.length > 0 ? (
          <Stack gap="xs">
            <Title order={3} size="h5" id="cm-rejected-title">
              {t('admin.import.rejectedTitle')}
            </Title>
            <div className={classes.tableWrap}>
              <Table
                striped
                verticalSpacing={4}
                aria-labelledby="cm-rejected-title"
                data-testid="rejected-lines"
              >
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={90}>{t('admin.import.line')}</Table.Th>
                    <Table.Th>{t('admin.import.reason')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {report.rejected.map((line) => (
                    <Table.Tr key={`${line.line}-${line.reason}`}>
                      <Table.Td>{formatNumber(line.line, i18n.language, { useGrouping: false })}</Table.Td>
                      <Table.Td>
                        <Text size="sm" className={classes.mono}>
                          {line.reason}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </div>
            {overflow > 0 ? (
              <Text size="sm" c="dimmed">
                {t('admin.import.moreRejected', { count: overflow })}
              </Text>
            ) : null}
          </Stack>
        ) : null}
        {report.conflicts.length > 0 ? (
          <Stack gap="xs">
            <Title order={3} size="h5" id="cm-conflicts-title">
              {t('admin.import.conflictsTitle')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('admin.import.conflictsHint')}
            </Text>
            <div className={classes.tableWrap}>
              <Table striped verticalSpacing={4} aria-labelledby="cm-conflicts-title" miw={560}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('admin.import.line')}</Table.Th>
                    <Table.Th>{t('admin.devices.fields.meterNumber')}</Table.Th>
                    <Table.Th>{t('admin.import.at')}</Table.Th>
                    <Table.Th>{t('admin.import.stored')}</Table.Th>
                    <Table.Th>{t('admin.import.incoming')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {report.conflicts.map((conflict) => (
                    <Table.Tr key={`${conflict.line}-${conflict.at}`}>
                      <Table.Td>{conflict.line}</Table.Td>
                      <Table.Td className={classes.mono}>{conflict.meterNumber}</Table.Td>
                      <Table.Td className={classes.nowrap}>
                        {formatDateTime(conflict.at, i18n.language)}
                      </Table.Td>
                      <Table.Td className={classes.nowrap}>
                        {formatEnergy(conflict.stored, i18n.language)}
                      </Table.Td>
                      <Table.Td className={classes.nowrap}>
                        {formatEnergy(conflict.incoming, i18n.language)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </div>
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** Import readings from a CSV or Green Button ESPI file, with upload progress and the server's report. */
export function ImportPage() {
  const { t, i18n } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<'csv' | 'espi'>('csv');
  const [timeZone, setTimeZone] = useState<string | null>(null);
  const [meterNumber, setMeterNumber] = useState('');
  const [isStrict, setIsStrict] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [isUploading, setIsUploading] = useState(false);
  const [result, setResult] = useState<{ report: ImportReport; fileName: string } | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [errors, setErrors] = useState<{ file?: string; meterNumber?: string }>({});
  const abort = useRef<AbortController | null>(null);
  const zones = useMemo(() => timeZoneOptions(), []);

  function handleFile(next: File | null) {
    setFile(next);
    setResult(null);
    setFailure(null);
    const guessed = next ? formatFromFileName(next.name) : null;
    if (guessed) setFormat(guessed);
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problems = {
      ...(file === null ? { file: t('admin.import.fileRequired') } : {}),
      ...(format === 'espi' && meterNumber.trim() === ''
        ? { meterNumber: t('admin.import.meterRequired') }
        : {}),
    };
    setErrors(problems);
    if (file === null || Object.keys(problems).length > 0) return;
    setFailure(null);
    setResult(null);
    setIsUploading(true);
    setProgress(0);
    const controller = new AbortController();
    abort.current = controller;
    const outcome = await uploadImport(
      file,
      {
        format,
        strict: isStrict,
        timeZone: timeZone ?? undefined,
        meterNumber: format === 'espi' ? meterNumber : undefined,
      },
      (sent, total) => setProgress(total > 0 ? sent / total : null),
      controller.signal,
    );
    abort.current = null;
    setIsUploading(false);
    setProgress(null);
    if (outcome.kind === 'failed') {
      if (outcome.failure.status !== 'ABORTED') setFailure(outcome.failure);
      return;
    }
    setResult({ report: outcome.report, fileName: file.name });
  }

  const percent = progress === null ? null : Math.round(progress * 100);
  const paramField = failure?.param;

  return (
    <Stack gap="md" className={classes.page}>
      <AdminPageHeader title={t('admin.import.title')} intro={t('admin.import.intro')} />
      <Paper withBorder p="md" radius="md" className={classes.panel}>
        <form onSubmit={handleSubmit} noValidate>
          <Stack gap="md">
            <FileInput
              label={t('admin.import.file')}
              description={t('admin.import.fileHint')}
              placeholder={t('admin.import.filePlaceholder')}
              value={file}
              onChange={handleFile}
              accept=".csv,text/csv,.xml,application/atom+xml,application/xml"
              leftSection={<IconFileUpload size={16} aria-hidden />}
              error={errors.file ?? (paramField === 'format' ? t('admin.errors.unsupportedType') : undefined)}
              clearable
              required
              maw={560}
              name="file"
            />
            <Stack gap={4}>
              <Input.Label id="cm-import-format">{t('admin.import.format')}</Input.Label>
              <SegmentedControl
                aria-labelledby="cm-import-format"
                value={format}
                onChange={(value) => setFormat(value === 'espi' ? 'espi' : 'csv')}
                data={[
                  { value: 'csv', label: t('admin.import.formatCsv') },
                  { value: 'espi', label: t('admin.import.formatEspi') },
                ]}
                style={{ alignSelf: 'flex-start' }}
              />
              <Text size="xs" c="dimmed">
                {format === 'csv' ? t('admin.import.csvHint') : t('admin.import.espiHint')}
              </Text>
            </Stack>
            <Group align="flex-start" gap="sm" wrap="wrap">
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
                w={320}
                maw="100%"
                error={paramField === 'timeZone' ? t('admin.import.badTimeZone') : undefined}
              />
              {format === 'espi' ? (
                <TextInput
                  label={t('admin.devices.fields.meterNumber')}
                  description={t('admin.import.meterHint')}
                  value={meterNumber}
                  onChange={(event) => setMeterNumber(event.currentTarget.value)}
                  error={
                    errors.meterNumber ??
                    (paramField === 'meterNumber'
                      ? t('admin.errors.invalid', { detail: failure?.message ?? '' })
                      : undefined)
                  }
                  required
                  w={260}
                  maw="100%"
                />
              ) : null}
            </Group>
            <Switch
              label={t('admin.import.strict')}
              description={t('admin.import.strictHint')}
              checked={isStrict}
              onChange={(event) => setIsStrict(event.currentTarget.checked)}
            />
            {isUploading ? (
              <Stack gap={4}>
                <Text size="sm" id="cm-upload-label">
                  {percent === null || percent >= 100
                    ? t('admin.import.processing')
                    : t('admin.import.uploading', { percent: formatPercent(progress ?? 0, i18n.language) })}
                </Text>
                <Progress
                  value={percent ?? 100}
                  animated={percent === null || percent >= 100}
                  striped={percent === null || percent >= 100}
                  aria-labelledby="cm-upload-label"
                  size="lg"
                  transitionDuration={150}
                />
              </Stack>
            ) : null}
            {failure &&
            paramField !== 'timeZone' &&
            paramField !== 'meterNumber' &&
            paramField !== 'format' ? (
              <FailureAlert failure={failure} />
            ) : null}
            <Group gap="sm">
              <Button type="submit" leftSection={<IconUpload size={16} aria-hidden />} loading={isUploading}>
                {t('admin.import.submit')}
              </Button>
              {isUploading ? (
                <Button
                  variant="default"
                  leftSection={<IconX size={16} aria-hidden />}
                  onClick={() => abort.current?.abort()}
                >
                  {t('admin.actions.cancel')}
                </Button>
              ) : null}
            </Group>
          </Stack>
        </form>
      </Paper>
      {result ? <ImportReportView report={result.report} fileName={result.fileName} /> : null}
    </Stack>
  );
}
