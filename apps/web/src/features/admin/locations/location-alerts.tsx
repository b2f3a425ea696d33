import { Button, Group, NativeSelect, NumberInput, Stack, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { AdminLocation } from '@cm/contracts/admin.ts';
import { alertKinds, type AlertKind } from '@cm/contracts/alerts.ts';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format.ts';
import { toFailure } from '@/lib/http-client.ts';
import { AdminTable, FailureAlert } from '../admin-ui.tsx';
import {
  useAddAlertRuleMutation,
  useListAlertRulesQuery,
  useRemoveAlertRuleMutation,
} from './alert-rules-api.ts';
import { useGetLocationMetersQuery } from './locations-api.ts';

/** What a kind's threshold is, for its field and the list; none for a register going down. */
const THRESHOLD_UNIT: Record<AlertKind, 'hours' | 'kwh' | 'factor' | 'amount' | 'price' | 'percent' | null> =
  {
    silent: 'hours',
    dailyAbove: 'kwh',
    usualAbove: 'factor',
    registerDecrease: null,
    billAbove: 'amount',
    priceAbove: 'price',
    peakNear: 'percent',
  };

/**
 * A location's alert rules: who hears of them is its administrators and clients (each as they
 * chose, from the bell). A rule watches every meter of the location or one of them.
 */
export function LocationAlerts({ location }: { location: AdminLocation }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const rules = useListAlertRulesQuery(location.id);
  const meters = useGetLocationMetersQuery(location.id);
  const [addRule, addState] = useAddAlertRuleMutation();
  const [removeRule, removeState] = useRemoveAlertRuleMutation();
  const [kind, setKind] = useState<AlertKind>('silent');
  const [meterNumber, setMeterNumber] = useState('');
  const [threshold, setThreshold] = useState<number | string>(24);
  const unit = THRESHOLD_UNIT[kind];
  const current = (meters.data ?? []).flatMap((device) =>
    device.meter && device.meter.removedAt === null ? [device.meter.meterNumber] : [],
  );

  async function handleAdd(event: React.FormEvent) {
    event.preventDefault();
    await addRule({
      locationId: location.id,
      kind,
      meterNumber: meterNumber === '' ? null : meterNumber,
      threshold: unit === null ? null : Number(threshold),
    }).unwrap();
    toast.success(t('admin.alerts.added'));
  }

  const thresholdText = (value: number | null, of: AlertKind) =>
    value === null
      ? '—'
      : t(`admin.alerts.threshold.${THRESHOLD_UNIT[of] ?? 'hours'}`, { value: formatNumber(value, locale) });

  return (
    <Stack gap="md" data-testid="location-alerts">
      <Text size="sm" c="dimmed">
        {t('admin.alerts.intro')}
      </Text>
      <FailureAlert failure={toFailure(rules.error ?? addState.error ?? removeState.error)} />
      <AdminTable
        caption={t('admin.alerts.title')}
        headers={[
          t('admin.alerts.kind'),
          t('admin.alerts.meter'),
          t('admin.alerts.thresholdLabel'),
          t('admin.alerts.open'),
        ]}
        hasActions
        isBusy={rules.isFetching}
        isEmpty={(rules.data ?? []).length === 0}
        emptyText={t('admin.alerts.none')}
        minWidth={560}
      >
        {(rules.data ?? []).map((rule) => (
          <Table.Tr key={rule.id} data-testid="alert-rule-row">
            <Table.Td>{t(`alerts.kind.${rule.kind}`)}</Table.Td>
            <Table.Td>{rule.meterNumber ?? t('admin.alerts.allMeters')}</Table.Td>
            <Table.Td>{thresholdText(rule.threshold, rule.kind)}</Table.Td>
            <Table.Td data-testid="alert-rule-open">{formatNumber(rule.openEpisodes, locale)}</Table.Td>
            <Table.Td>
              <Button size="compact-xs" variant="subtle" color="red" onClick={() => void removeRule(rule.id)}>
                {t('admin.alerts.remove')}
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </AdminTable>
      <form onSubmit={(event) => void handleAdd(event)} noValidate data-testid="alert-rule-form">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <NativeSelect
            label={t('admin.alerts.kind')}
            value={kind}
            onChange={(event) => {
              const next = alertKinds.find((k) => k === event.currentTarget.value) ?? 'silent';
              setKind(next);
              setThreshold(next === 'silent' ? 24 : next === 'usualAbove' ? 2 : 100);
            }}
            data={alertKinds.map((value) => ({ value, label: t(`alerts.kind.${value}`) }))}
          />
          <NativeSelect
            label={t('admin.alerts.meter')}
            value={meterNumber}
            onChange={(event) => setMeterNumber(event.currentTarget.value)}
            data={[
              { value: '', label: t('admin.alerts.allMeters') },
              ...current.map((number) => ({ value: number, label: number })),
            ]}
          />
          {unit === null ? null : (
            <NumberInput
              label={t(`admin.alerts.thresholdField.${unit}`)}
              value={threshold}
              onChange={setThreshold}
              min={0}
              decimalScale={3}
              w={160}
            />
          )}
          <Button type="submit" leftSection={<IconPlus size={16} aria-hidden />} loading={addState.isLoading}>
            {t('admin.alerts.add')}
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
