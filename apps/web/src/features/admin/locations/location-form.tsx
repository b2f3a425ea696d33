import { Alert, NativeSelect, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { AdminLocation } from '@cm/contracts/admin.ts';
import { useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { formatNumber, readerTimeZone } from '@/lib/format.ts';
import { useCreateLocationMutation, useUpdateLocationMutation } from './locations-api.ts';
import { FormFooter } from '../forms/form-footer.tsx';
import { useAdminForm } from '../forms/use-admin-form.ts';
import { timeZoneOptions } from '../time-zones.ts';
import {
  locationFormFrom,
  timeZoneChange,
  toCreateLocationBody,
  toUpdateLocationBody,
  validateLocationForm,
  type LocationFormValues,
} from './location-form-values.ts';

const FIELDS = ['publicName', 'address', 'timeZone', 'billingDay'] as const;

/** A location's public name, address and time zone. */
export function LocationForm({ location, onDone }: { location: AdminLocation | null; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const zones = useMemo(() => timeZoneOptions(location?.timeZone), [location?.timeZone]);
  const [createLocation, createState] = useCreateLocationMutation();
  const [updateLocation, updateState] = useUpdateLocationMutation();
  const { form, failure, onSubmit } = useAdminForm({
    // A new location starts in the reader's own zone.
    initialValues: locationFormFrom(location, readerTimeZone()),
    check: (values: LocationFormValues) => {
      const errors = validateLocationForm(values);
      return { errors, body: Object.keys(errors).length === 0 ? values : null };
    },
    fields: FIELDS,
    send: async (values) => {
      if (location === null) await createLocation(toCreateLocationBody(values)).unwrap();
      else await updateLocation({ id: location.id, body: toUpdateLocationBody(values, location) }).unwrap();
      toast.success(location === null ? t('admin.locations.created') : t('admin.locations.saved'));
      onDone();
    },
  });

  // Asked when the drawer opened: the warning compares the offsets in force today.
  const [openedAt] = useState(() => Date.now());
  const change = timeZoneChange(location, form.values.timeZone, openedAt);

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('admin.locations.fields.publicName')}
          description={t('admin.locations.form.nameHint')}
          {...form.getInputProps('publicName')}
          required
          autoComplete="off"
          data-autofocus
        />
        <Textarea
          label={t('admin.locations.fields.address')}
          {...form.getInputProps('address')}
          autosize
          minRows={2}
        />
        <Select
          label={t('admin.locations.fields.timeZone')}
          description={t('admin.locations.form.timeZoneHint')}
          data={zones}
          value={form.values.timeZone}
          onChange={(value) => form.setFieldValue('timeZone', value ?? '')}
          error={form.errors.timeZone}
          searchable
          required
          limit={50}
          nothingFoundMessage={t('admin.locations.form.noTimeZone')}
          comboboxProps={{ withinPortal: true }}
        />
        <NativeSelect
          label={t('admin.locations.fields.billingDay')}
          description={t('admin.locations.form.billingDayHint')}
          data={[
            { value: '', label: t('admin.locations.form.calendarMonth') },
            ...Array.from({ length: 28 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) })),
          ]}
          {...form.getInputProps('billingDay')}
          data-testid="billing-day"
        />
        {change ? (
          <Alert
            color="orange"
            variant="light"
            icon={<IconAlertTriangle aria-hidden />}
            title={t('admin.locations.zoneChange.title')}
            data-testid="zone-change-warning"
          >
            {t('admin.locations.zoneChange.body', {
              count: change.meterCount,
              fromZone: change.from.zone,
              fromOffset: change.from.offset,
              toZone: change.to.zone,
              toOffset: change.to.offset,
              hours: formatNumber(Math.abs(change.shiftMinutes) / 60, i18n.language, {
                maximumFractionDigits: 2,
              }),
            })}
          </Alert>
        ) : null}
        <FormFooter
          failure={failure}
          onCancel={onDone}
          isSaving={createState.isLoading || updateState.isLoading}
          submitLabel={location === null ? t('admin.locations.form.create') : t('admin.actions.save')}
        />
      </Stack>
    </form>
  );
}
