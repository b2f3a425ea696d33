import {
  ActionIcon,
  Button,
  Chip,
  Group,
  MultiSelect,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { tariffDays, type TariffDay } from '@cm/contracts/tariff-days.ts';
import { DEMAND_INTERVALS, type Tariff } from '@cm/contracts/tariffs.ts';
import type { UseFormReturnType } from '@mantine/form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useAddTariffMutation } from './tariffs-api.ts';
import { useListPriceSeriesQuery } from '../series/series-api.ts';
import { FormFooter } from '../forms/form-footer.tsx';
import { useAdminForm } from '../forms/use-admin-form.ts';
import {
  newWindow,
  TARIFF_FIELDS,
  tariffFormFrom,
  toTariffBody,
  validateTariffForm,
  type TariffFormValues,
} from './tariff-form-values.ts';

/** Month names in the reader's language, for the season of a window. */
function monthOptions(locale: string) {
  const format = new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' });
  return Array.from({ length: 12 }, (_, i) => ({
    value: String(i + 1),
    label: format.format(new Date(Date.UTC(2026, i, 1))),
  }));
}

/** Day types as chips, in the week's order. */
function DayChips({
  days,
  label,
  onChange,
}: {
  days: TariffDay[];
  label: string;
  onChange: (days: TariffDay[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <Chip.Group
      multiple
      value={days}
      onChange={(chosen) => onChange(tariffDays.filter((day) => chosen.includes(day)))}
    >
      <Group gap={4} role="group" aria-label={label}>
        {tariffDays.map((day) => (
          <Chip key={day} value={day} size="xs">
            {t(`admin.tariffs.days.${day}`)}
          </Chip>
        ))}
      </Group>
    </Chip.Group>
  );
}

/**
 * A new tariff version: prices per kWh, a standing charge per day, tax, the feed-in price, and
 * time-of-use windows on the location's clock. Prices are typed as decimals and stored exactly.
 */
export function TariffForm({
  locationId,
  latest,
  today,
  onDone,
}: {
  locationId: number;
  latest: Tariff | undefined;
  today: string;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [addTariff, state] = useAddTariffMutation();
  const { form, failure, onSubmit } = useAdminForm({
    initialValues: tariffFormFrom(latest, today),
    check: (values: TariffFormValues) => {
      const errors = validateTariffForm(values);
      return { errors, body: Object.keys(errors).length === 0 ? toTariffBody(values) : null };
    },
    fields: TARIFF_FIELDS,
    send: async (body) => {
      await addTariff({ locationId, body }).unwrap();
      toast.success(t('admin.tariffs.added'));
      onDone();
    },
  });
  const months = monthOptions(i18n.language);
  const priceSeries = useListPriceSeriesQuery();
  const seriesOptions = (priceSeries.data ?? []).map((series) => ({
    value: String(series.id),
    label: t('admin.tariffs.dynamic.option', {
      name: series.name,
      currency: series.currency,
      unit: series.unit,
    }),
  }));
  const currency = form.values.currency.toUpperCase() || '…';
  const perKwh = (label: string) => `${label} (${currency}/kWh)`;

  return (
    <form onSubmit={onSubmit} noValidate data-testid="tariff-form">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            type="date"
            label={t('admin.tariffs.fields.effectiveFrom')}
            description={
              latest ? t('admin.tariffs.form.fromToday', { today }) : t('admin.tariffs.form.firstVersion')
            }
            {...form.getInputProps('effectiveFrom')}
            required
          />
          <TextInput
            label={t('admin.tariffs.fields.currency')}
            description={latest ? t('admin.tariffs.form.sameCurrency') : t('admin.tariffs.form.currencyHint')}
            {...form.getInputProps('currency')}
            disabled={latest !== undefined}
            maxLength={3}
            required
          />
          <TextInput
            label={perKwh(t('admin.tariffs.fields.energyPrice'))}
            description={t('admin.tariffs.form.energyPriceHint')}
            inputMode="decimal"
            {...form.getInputProps('energyPrice')}
            required
          />
          <TextInput
            label={`${t('admin.tariffs.fields.standingChargePerDay')} (${currency})`}
            inputMode="decimal"
            {...form.getInputProps('standingChargePerDay')}
            required
          />
          <TextInput
            label={t('admin.tariffs.fields.taxPercent')}
            inputMode="decimal"
            {...form.getInputProps('taxPercent')}
            required
          />
          <TextInput
            label={perKwh(t('admin.tariffs.fields.feedInPrice'))}
            description={t('admin.tariffs.form.feedInHint')}
            inputMode="decimal"
            {...form.getInputProps('feedInPrice')}
          />
        </SimpleGrid>

        <SeriesPriceFields side="import" form={form} seriesOptions={seriesOptions} perKwh={perKwh} />
        <SeriesPriceFields side="export" form={form} seriesOptions={seriesOptions} perKwh={perKwh} />

        <Stack gap="xs">
          <Group justify="space-between">
            <div>
              <Text fw={600} size="sm">
                {t('admin.tariffs.windows.title')}
              </Text>
              <Text size="xs" c="dimmed">
                {t('admin.tariffs.windows.hint')}
              </Text>
            </div>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={() => form.insertListItem('windows', newWindow())}
            >
              {t('admin.tariffs.windows.add')}
            </Button>
          </Group>
          {form.values.windows.map((window, index) => (
            <Paper key={index} withBorder p="sm" radius="md" data-testid="tariff-window">
              <Stack gap="xs">
                <Group gap="xs" align="flex-end" wrap="wrap">
                  <TextInput
                    size="xs"
                    label={t('admin.tariffs.windows.label')}
                    {...form.getInputProps(`windows.${index}.label`)}
                    w={140}
                  />
                  <TextInput
                    size="xs"
                    label={perKwh(t('admin.tariffs.windows.price'))}
                    inputMode="decimal"
                    {...form.getInputProps(`windows.${index}.price`)}
                    w={150}
                    required
                  />
                  <TextInput
                    size="xs"
                    label={t('admin.tariffs.windows.from')}
                    description={t('admin.tariffs.windows.fromHint')}
                    {...form.getInputProps(`windows.${index}.from`)}
                    w={110}
                  />
                  <TextInput
                    size="xs"
                    label={t('admin.tariffs.windows.to')}
                    description={t('admin.tariffs.windows.toHint')}
                    {...form.getInputProps(`windows.${index}.to`)}
                    w={110}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('admin.tariffs.windows.remove', { number: index + 1 })}
                    onClick={() => form.removeListItem('windows', index)}
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Group>
                <DayChips
                  days={window.days}
                  label={t('admin.tariffs.windows.days')}
                  onChange={(days) => form.setFieldValue(`windows.${index}.days`, days)}
                />
                <MultiSelect
                  size="xs"
                  label={t('admin.tariffs.windows.months')}
                  placeholder={t('admin.tariffs.windows.allYear')}
                  data={months}
                  value={window.months}
                  onChange={(value) => form.setFieldValue(`windows.${index}.months`, value)}
                  clearable
                  comboboxProps={{ withinPortal: true }}
                />
              </Stack>
            </Paper>
          ))}
          {form.errors.windows ? (
            <Text size="sm" c="red" role="alert">
              {form.errors.windows}
            </Text>
          ) : null}
        </Stack>
        <Paper withBorder p="sm" radius="md" data-testid="tariff-demand">
          <Stack gap="xs">
            <div>
              <Text fw={600} size="sm">
                {t('admin.tariffs.demand.title')}
              </Text>
              <Text size="xs" c="dimmed">
                {t('admin.tariffs.demand.hint')}
              </Text>
            </div>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput
                label={`${t('admin.tariffs.demand.pricePerKw')} (${currency}/kW)`}
                description={t('admin.tariffs.demand.pricePerKwHint')}
                inputMode="decimal"
                {...form.getInputProps('demandPricePerKw')}
              />
              <NativeSelect
                label={t('admin.tariffs.demand.interval')}
                description={t('admin.tariffs.demand.intervalHint')}
                data={DEMAND_INTERVALS.map((minutes) => ({
                  value: String(minutes),
                  label: t('admin.tariffs.demand.minutes', { minutes }),
                }))}
                {...form.getInputProps('demandIntervalMinutes')}
              />
              <TextInput
                label={t('admin.tariffs.demand.windowFrom')}
                description={t('admin.tariffs.demand.windowHint')}
                placeholder="14:00"
                {...form.getInputProps('demandWindowFrom')}
              />
              <TextInput
                label={t('admin.tariffs.demand.windowTo')}
                placeholder="19:00"
                {...form.getInputProps('demandWindowTo')}
              />
            </SimpleGrid>
            <DayChips
              days={form.values.demandWindowDays}
              label={t('admin.tariffs.demand.windowDays')}
              onChange={(days) => form.setFieldValue('demandWindowDays', days)}
            />
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              <TextInput
                label={t('admin.tariffs.demand.ratchet')}
                description={t('admin.tariffs.demand.ratchetHint')}
                inputMode="decimal"
                {...form.getInputProps('demandRatchetPercent')}
              />
              <TextInput
                label={`${t('admin.tariffs.demand.capacity')} (${currency}/kW)`}
                description={t('admin.tariffs.demand.capacityHint')}
                inputMode="decimal"
                {...form.getInputProps('capacityPricePerKwYear')}
              />
              <TextInput
                label={t('admin.tariffs.demand.floor')}
                description={t('admin.tariffs.demand.floorHint')}
                inputMode="decimal"
                {...form.getInputProps('capacityFloorKw')}
              />
            </SimpleGrid>
          </Stack>
        </Paper>
        <Textarea
          label={t('admin.tariffs.fields.holidays')}
          description={t('admin.tariffs.form.holidaysHint')}
          {...form.getInputProps('holidays')}
          autosize
          minRows={2}
        />
        <FormFooter
          failure={failure}
          onCancel={onDone}
          isSaving={state.isLoading}
          submitLabel={t('admin.tariffs.form.submit')}
        />
      </Stack>
    </form>
  );
}

/**
 * Import's price or export's payment taken from a price series (a dynamic tariff), with the margin
 * and tax on the market price; none: the energy price and windows, or the feed-in price.
 */
function SeriesPriceFields({
  side,
  form,
  seriesOptions,
  perKwh,
}: {
  side: 'import' | 'export';
  form: UseFormReturnType<TariffFormValues>;
  seriesOptions: { value: string; label: string }[];
  perKwh: (label: string) => string;
}) {
  const { t } = useTranslation();
  const field = (name: 'SeriesId' | 'Margin' | 'TaxPercent') => `${side}${name}` as const;
  const isDynamic = form.values[field('SeriesId')] !== '';
  return (
    <Paper withBorder p="sm" radius="md" data-testid={`tariff-dynamic-${side}`}>
      <Stack gap="xs">
        <NativeSelect
          label={t(`admin.tariffs.dynamic.${side}Series`)}
          description={t(`admin.tariffs.dynamic.${side}SeriesHint`)}
          data={[{ value: '', label: t(`admin.tariffs.dynamic.${side}None`) }, ...seriesOptions]}
          {...form.getInputProps(field('SeriesId'))}
        />
        {isDynamic ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label={perKwh(t('admin.tariffs.dynamic.margin'))}
              description={t(`admin.tariffs.dynamic.${side}MarginHint`)}
              inputMode="decimal"
              {...form.getInputProps(field('Margin'))}
            />
            <TextInput
              label={t('admin.tariffs.dynamic.taxPercent')}
              description={t('admin.tariffs.dynamic.taxHint')}
              inputMode="decimal"
              {...form.getInputProps(field('TaxPercent'))}
            />
          </SimpleGrid>
        ) : null}
      </Stack>
    </Paper>
  );
}
