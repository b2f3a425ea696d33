import {
  Button,
  FileInput,
  Group,
  Select,
  SegmentedControl,
  SimpleGrid,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { IconFileUpload, IconUpload } from '@tabler/icons-react';
import {
  SERIES_INTERVALS,
  priceUnits,
  type CarbonSeries,
  type PriceSeries,
} from '@cm/contracts/market-series.ts';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { readerTimeZone } from '@/lib/format.ts';
import { toFailure, type Failure } from '@/lib/http-client.ts';
import { AdminPanel, FailureAlert } from '../admin-ui.tsx';
import { timeZoneOptions } from '../time-zones.ts';
import {
  useImportNewCarbonSeriesMutation,
  useImportNewPriceSeriesMutation,
  useImportSeriesFileMutation,
  type SeriesKind,
} from './series-api.ts';
import {
  NEW_SERIES,
  initialImportValues,
  toImportRequest,
  type SeriesField,
  type SeriesImportRequest,
  type SeriesImportValues,
} from './series-import-values.ts';

interface SeriesImportFormProps {
  prices: readonly PriceSeries[];
  carbon: readonly CarbonSeries[];
}

/**
 * A CSV file of interval starts and values into a new series (its unit, currency and zone, or its
 * grid region, given here) or an existing one. The server refuses a bad file whole, naming its
 * lines; nothing is stored then, and no new series is left behind.
 */
export function SeriesImportForm({ prices, carbon }: SeriesImportFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<SeriesImportValues>(() => initialImportValues(readerTimeZone()));
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Partial<Record<SeriesField | 'file', string>>>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [importPrice, priceState] = useImportNewPriceSeriesMutation();
  const [importCarbon, carbonState] = useImportNewCarbonSeriesMutation();
  const [importFile, fileState] = useImportSeriesFileMutation();
  const isBusy = priceState.isLoading || carbonState.isLoading || fileState.isLoading;
  const isNew = values.target === NEW_SERIES;
  const existing = values.kind === 'price' ? prices : carbon;

  const set = (patch: Partial<SeriesImportValues>) => setValues((current) => ({ ...current, ...patch }));

  async function send(request: SeriesImportRequest, text: string): Promise<{ name: string; stored: number }> {
    if ('id' in request) {
      const stored = await importFile({ kind: request.kind, id: request.id, text }).unwrap();
      return { name: existing.find((series) => series.id === request.id)?.name ?? '', stored: stored.stored };
    }
    const created =
      request.kind === 'price'
        ? await importPrice({ draft: request.draft, text }).unwrap()
        : await importCarbon({ draft: request.draft, text }).unwrap();
    return { name: created.name, stored: created.coverage.count };
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const outcome = toImportRequest(values);
    const problems = {
      ...('errors' in outcome ? outcome.errors : {}),
      ...(file === null ? { file: 'admin.series.errors.file' } : {}),
    };
    setErrors(problems);
    setFailure(null);
    if ('errors' in outcome || file === null) return;
    try {
      const result = await send(outcome.request, await file.text());
      toast.success(t('admin.series.imported', { name: result.name, count: result.stored }));
      setFile(null);
      if (isNew) set({ name: '', target: NEW_SERIES });
    } catch (error) {
      setFailure(toFailure(error));
    }
  }

  const fieldError = (field: SeriesField | 'file') => {
    const key = errors[field];
    return key ? t(key) : undefined;
  };

  return (
    <AdminPanel labelledBy="cm-series-import-title">
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4" id="cm-series-import-title">
            {t('admin.series.import')}
          </Title>
          <SegmentedControl
            aria-label={t('admin.series.kind')}
            value={values.kind}
            onChange={(kind) => set({ kind: kind === 'carbon' ? 'carbon' : 'price', target: NEW_SERIES })}
            data={(['price', 'carbon'] satisfies SeriesKind[]).map((kind) => ({
              value: kind,
              label: t(`admin.series.kinds.${kind}`),
            }))}
            maw={420}
          />
          <Select
            label={t('admin.series.target')}
            value={values.target}
            onChange={(target) => set({ target: target ?? NEW_SERIES })}
            data={[
              { value: NEW_SERIES, label: t('admin.series.newSeries') },
              ...existing.map((series) => ({ value: String(series.id), label: series.name })),
            ]}
            allowDeselect={false}
            maw={420}
          />
          {isNew ? (
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              <TextInput
                label={t('admin.series.fields.name')}
                value={values.name}
                onChange={(event) => set({ name: event.currentTarget.value })}
                error={fieldError('name')}
                maxLength={100}
                required
                autoComplete="off"
              />
              <Select
                label={t('admin.series.fields.interval')}
                value={values.intervalMinutes}
                onChange={(interval) => set({ intervalMinutes: interval ?? '60' })}
                data={SERIES_INTERVALS.map((minutes) => ({
                  value: String(minutes),
                  label: t('admin.series.minutes', { minutes }),
                }))}
                error={fieldError('intervalMinutes')}
                allowDeselect={false}
              />
              <Select
                label={t('admin.series.fields.timeZone')}
                description={t('admin.series.fields.timeZoneHint')}
                value={values.timeZone}
                onChange={(zone) => set({ timeZone: zone ?? values.timeZone })}
                data={timeZoneOptions(values.timeZone)}
                error={fieldError('timeZone')}
                searchable
                allowDeselect={false}
              />
              {values.kind === 'price' ? (
                <>
                  <Select
                    label={t('admin.series.fields.unit')}
                    value={values.unit}
                    onChange={(unit) => set({ unit: unit ?? 'MWh' })}
                    data={priceUnits.map((unit) => ({ value: unit, label: t(`admin.series.units.${unit}`) }))}
                    error={fieldError('unit')}
                    allowDeselect={false}
                  />
                  <TextInput
                    label={t('admin.series.fields.currency')}
                    value={values.currency}
                    onChange={(event) => set({ currency: event.currentTarget.value })}
                    error={fieldError('currency')}
                    maxLength={3}
                    required
                    autoComplete="off"
                  />
                  <TextInput
                    label={t('admin.series.fields.zone')}
                    description={t('admin.series.fields.zoneHint')}
                    value={values.zone}
                    onChange={(event) => set({ zone: event.currentTarget.value })}
                    error={fieldError('zone')}
                    maxLength={60}
                    required
                    autoComplete="off"
                  />
                </>
              ) : (
                <TextInput
                  label={t('admin.series.fields.region')}
                  description={t('admin.series.fields.regionHint')}
                  value={values.region}
                  onChange={(event) => set({ region: event.currentTarget.value })}
                  error={fieldError('region')}
                  maxLength={60}
                  required
                  autoComplete="off"
                />
              )}
            </SimpleGrid>
          ) : null}
          <FileInput
            label={t('admin.series.file')}
            description={t(
              values.kind === 'price' ? 'admin.series.fileHintPrice' : 'admin.series.fileHintCarbon',
            )}
            placeholder={t('admin.series.filePlaceholder')}
            value={file}
            onChange={setFile}
            accept=".csv,text/csv,text/plain"
            leftSection={<IconUpload size={16} aria-hidden />}
            error={fieldError('file')}
            clearable
            maw={420}
            name="file"
          />
          <FailureAlert failure={failure} />
          <Group>
            <Button type="submit" leftSection={<IconFileUpload size={16} aria-hidden />} loading={isBusy}>
              {t('admin.series.importAction')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AdminPanel>
  );
}
