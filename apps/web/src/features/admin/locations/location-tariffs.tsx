import { Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { AdminLocation } from '@cm/contracts/admin.ts';
import type { Tariff } from '@cm/contracts/tariffs.ts';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { TariffDemandLines, TariffWindowLines, tariffPriceText } from '@/components/tariff-windows.tsx';
import { formatNumber } from '@/lib/format.ts';
import { toFailure } from '@/lib/http-client.ts';
import { AdminTable, FailureAlert } from '../admin-ui.tsx';
import classes from '../admin.module.css';
import { useGetLocationTariffsQuery, useWithdrawTariffMutation } from './tariffs-api.ts';
import { TariffForm } from './tariff-form.tsx';

/** Which versions priced the past, which one is in force today, which are scheduled. */
function statusOf(items: readonly Tariff[], index: number, today: string): 'past' | 'current' | 'scheduled' {
  const tariff = items[index];
  if (!tariff || tariff.effectiveFrom > today) return 'scheduled';
  const next = items[index + 1];
  return next && next.effectiveFrom <= today ? 'past' : 'current';
}

const STATUS_COLOR = { past: 'gray', current: 'green', scheduled: 'blue' } as const;

/**
 * A location's tariff versions, oldest first, and a form for the next one. A version that priced
 * the past stays; a scheduled one can be withdrawn.
 */
export function LocationTariffs({ location }: { location: AdminLocation }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const query = useGetLocationTariffsQuery(location.id);
  const [withdraw, withdrawState] = useWithdrawTariffMutation();
  const [isAdding, setAdding] = useState(false);
  const items = query.data?.items ?? [];
  const today = query.data?.today ?? '';
  const price = (text: string, currency: string) => tariffPriceText(text, currency, locale);

  async function handleWithdraw(tariff: Tariff) {
    await withdraw({ locationId: location.id, tariffId: tariff.id }).unwrap();
    toast.success(t('admin.tariffs.withdrawn'));
  }

  return (
    <Stack gap="md" data-testid="location-tariffs">
      <Text size="sm" c="dimmed">
        {t('admin.tariffs.intro', { timeZone: location.timeZone })}
      </Text>
      <FailureAlert failure={toFailure(query.error ?? withdrawState.error)} />
      <AdminTable
        caption={t('admin.tariffs.title')}
        headers={[
          t('admin.tariffs.fields.effectiveFrom'),
          t('admin.tariffs.fields.energyPrice'),
          t('admin.tariffs.fields.standingChargePerDay'),
          t('admin.tariffs.fields.taxPercent'),
          t('admin.tariffs.fields.feedInPrice'),
        ]}
        hasActions
        isBusy={query.isFetching}
        isEmpty={items.length === 0}
        emptyText={t('admin.tariffs.none')}
        minWidth={620}
      >
        {items.map((tariff, index) => {
          const status = statusOf(items, index, today);
          return (
            <Table.Tr key={tariff.id} data-testid="tariff-row" data-status={status}>
              <Table.Td>
                <Stack gap={2} align="flex-start">
                  <Text size="sm" className={classes.nowrap}>
                    {tariff.effectiveFrom}
                  </Text>
                  <Badge size="sm" variant="dot" color={STATUS_COLOR[status]}>
                    {t(`admin.tariffs.status.${status}`)}
                  </Badge>
                </Stack>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{price(tariff.energyPrice, tariff.currency)}</Text>
                <Text size="xs" c="dimmed" component="div">
                  <TariffWindowLines windows={tariff.windows} currency={tariff.currency} />
                  <TariffDemandLines demand={tariff.demand} currency={tariff.currency} />
                </Text>
              </Table.Td>
              <Table.Td>{price(tariff.standingChargePerDay, tariff.currency)}</Table.Td>
              <Table.Td>
                {formatNumber(Number(tariff.taxPercent) / 100, locale, {
                  style: 'percent',
                  maximumFractionDigits: 4,
                })}
              </Table.Td>
              <Table.Td>
                {tariff.feedInPrice === null ? '—' : price(tariff.feedInPrice, tariff.currency)}
              </Table.Td>
              <Table.Td>
                {status === 'scheduled' ? (
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    color="red"
                    onClick={() => void handleWithdraw(tariff)}
                  >
                    {t('admin.tariffs.withdraw')}
                  </Button>
                ) : null}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </AdminTable>
      {isAdding && query.data ? (
        <TariffForm
          locationId={location.id}
          latest={items[items.length - 1]}
          today={today}
          onDone={() => setAdding(false)}
        />
      ) : (
        <Group>
          <Button
            size="sm"
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setAdding(true)}
            disabled={!query.data}
            data-testid="add-tariff"
          >
            {items.length === 0 ? t('admin.tariffs.addFirst') : t('admin.tariffs.add')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
