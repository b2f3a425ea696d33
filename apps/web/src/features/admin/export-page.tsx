import { Input, Autocomplete, Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBolt, IconDownload } from '@tabler/icons-react';
import { DeviceType } from '@cm/contracts/enums.ts';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useListDevicesQuery } from './devices/devices-api.ts';
import { AdminPageHeader, AdminPanel, FailureAlert } from './admin-ui.tsx';
import { downloadExport } from './download.ts';
import classes from './admin.module.css';
import type { Failure } from '@/lib/http-client.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isoDay(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** Export a meter's readings over a range of local days as CSV or Green Button ESPI XML. */
export function ExportPage() {
  const { t } = useTranslation();
  const today = new Date();
  const [meterNumber, setMeterNumber] = useState('');
  const [from, setFrom] = useState(isoDay(new Date(today.getFullYear(), today.getMonth() - 1, 1)));
  const [to, setTo] = useState(isoDay(today));
  const [format, setFormat] = useState<'csv' | 'espi'>('csv');
  const [errors, setErrors] = useState<{ meterNumber?: string; from?: string; to?: string }>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [isDownloading, setIsDownloading] = useState(false);
  const [debounced] = useDebouncedValue(meterNumber.trim(), 250);
  const meters = useListDevicesQuery(
    { type: DeviceType.Meter, search: debounced, page: 1, pageSize: 20 },
    { skip: debounced === '' },
  );
  const meterOptions = [
    ...new Set(
      (meters.data?.items ?? []).flatMap((device) => (device.meter ? [device.meter.meterNumber] : [])),
    ),
  ];

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problems = {
      ...(meterNumber.trim() === '' ? { meterNumber: t('admin.export.meterRequired') } : {}),
      ...(!DATE.test(from) ? { from: t('admin.export.dateRequired') } : {}),
      ...(!DATE.test(to)
        ? { to: t('admin.export.dateRequired') }
        : DATE.test(from) && to < from
          ? { to: t('admin.export.order') }
          : {}),
    };
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setFailure(null);
    setIsDownloading(true);
    const result = await downloadExport(
      { meterNumber, From: from, To: to, format },
      new AbortController().signal,
    );
    setIsDownloading(false);
    if (result.ok) toast.success(t('admin.export.done', { file: result.fileName }));
    else setFailure(result.failure);
  }

  const meterError =
    errors.meterNumber ?? (failure?.status === 404 ? t('admin.export.meterNotFound') : undefined);
  const isOtherFailure = failure !== null && failure.status !== 404;

  return (
    <Stack gap="md" className={classes.page}>
      <AdminPageHeader title={t('admin.export.title')} intro={t('admin.export.intro')} />
      <AdminPanel>
        <form onSubmit={handleSubmit} noValidate>
          <Stack gap="md">
            <Autocomplete
              label={t('admin.devices.fields.meterNumber')}
              placeholder={t('admin.export.meterPlaceholder')}
              value={meterNumber}
              onChange={setMeterNumber}
              data={meterOptions}
              filter={({ options }) => options}
              leftSection={<IconBolt size={16} aria-hidden />}
              error={meterError}
              required
              maw={420}
              autoComplete="off"
              spellCheck={false}
            />
            <Group align="flex-start" gap="sm" wrap="wrap">
              <TextInput
                type="date"
                label={t('admin.export.from')}
                value={from}
                onChange={(event) => setFrom(event.currentTarget.value)}
                error={errors.from}
                required
                w={200}
              />
              <TextInput
                type="date"
                label={t('admin.export.to')}
                value={to}
                onChange={(event) => setTo(event.currentTarget.value)}
                error={errors.to}
                required
                w={200}
              />
            </Group>
            <Text size="xs" c="dimmed">
              {t('admin.export.rangeHint')}
            </Text>
            <Stack gap={4}>
              <Input.Label id="cm-export-format">{t('admin.export.format')}</Input.Label>
              <SegmentedControl
                aria-labelledby="cm-export-format"
                value={format}
                onChange={(value) => setFormat(value === 'espi' ? 'espi' : 'csv')}
                data={[
                  { value: 'csv', label: t('admin.export.formatCsv') },
                  { value: 'espi', label: t('admin.export.formatEspi') },
                ]}
                style={{ alignSelf: 'flex-start' }}
              />
            </Stack>
            {isOtherFailure ? <FailureAlert failure={failure} /> : null}
            <Group>
              <Button
                type="submit"
                leftSection={<IconDownload size={16} aria-hidden />}
                loading={isDownloading}
              >
                {t('admin.export.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </AdminPanel>
    </Stack>
  );
}
