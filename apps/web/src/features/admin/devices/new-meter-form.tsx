import { Group, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import type { DeviceNode } from '@cm/contracts/admin.ts';
import { DevicePriority, DeviceType } from '@cm/contracts/enums.ts';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useCreateMeterMutation } from './devices-api.ts';
import { FormFooter } from '../forms/form-footer.tsx';
import { useAdminForm } from '../forms/use-admin-form.ts';
import { instantToZonedLocal } from '../zoned-time.ts';
import { deviceName, devicesOfType } from './device-tree.ts';
import { validateNewMeter, type MeterFormValues } from './meter-form-values.ts';
import { MainSupplyField } from './main-supply-field.tsx';
import { PriorityStatusFields } from './priority-status-fields.tsx';

const FIELDS = [
  'meterNumber',
  'label',
  'meterInd',
  'cubeId',
  'multiplier',
  'registerDigits',
  'intervalMinutes',
  'installedAt',
  'priority',
  'status',
] as const;

/** The next free meter indicator at the location. */
function nextMeterInd(roots: readonly DeviceNode[]): number {
  const used = devicesOfType(roots, DeviceType.Meter)
    .filter((m) => m.meter && !m.meter.removedAt)
    .map((m) => m.meter?.meterInd ?? 0);
  return used.length === 0 ? 1 : Math.max(...used) + 1;
}

/** A new meter at the location, optionally under one of its Cubes. */
export function NewMeterForm({
  locationId,
  timeZone,
  roots,
  onDone,
}: {
  locationId: number;
  timeZone: string;
  roots: readonly DeviceNode[];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [initialValues] = useState<MeterFormValues>(() => ({
    meterNumber: '',
    label: '',
    mainSupply: false,
    meterInd: nextMeterInd(roots),
    cubeId: null,
    multiplier: 1,
    registerDigits: 6,
    intervalMinutes: 15,
    installedAt: instantToZonedLocal(Date.now(), timeZone),
    priority: DevicePriority.New,
    status: 'active',
  }));
  const [createMeter, state] = useCreateMeterMutation();
  const { form, failure, onSubmit } = useAdminForm({
    initialValues,
    check: (values: MeterFormValues) => validateNewMeter(values, { locationId, timeZone }),
    fields: FIELDS,
    send: async (body) => {
      await createMeter(body).unwrap();
      toast.success(t('admin.devices.meterCreated'));
      onDone();
    },
  });
  const cubes = devicesOfType(roots, DeviceType.Cube);

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('admin.devices.fields.meterNumber')}
          {...form.getInputProps('meterNumber')}
          required
          autoComplete="off"
          spellCheck={false}
          data-autofocus
        />
        <TextInput
          label={t('admin.devices.fields.label')}
          description={t('admin.devices.form.labelHint')}
          {...form.getInputProps('label')}
          autoComplete="off"
        />
        <MainSupplyField {...form.getInputProps('mainSupply', { type: 'checkbox' })} />
        <Group grow align="flex-start" gap="sm" wrap="wrap">
          <NumberInput
            label={t('admin.devices.fields.meterInd')}
            description={t('admin.devices.form.meterIndHint')}
            {...form.getInputProps('meterInd')}
            min={1}
            max={9999}
            allowDecimal={false}
            required
            miw={140}
          />
          <Select
            label={t('admin.devices.fields.cube')}
            data={cubes.map((cube) => ({ value: String(cube.id), label: deviceName(cube) }))}
            {...form.getInputProps('cubeId')}
            clearable
            placeholder={t('admin.devices.form.noCube')}
            miw={160}
          />
        </Group>
        <Group grow align="flex-start" gap="sm" wrap="wrap">
          <NumberInput
            label={t('admin.devices.fields.multiplier')}
            {...form.getInputProps('multiplier')}
            min={1}
            allowDecimal={false}
            miw={110}
          />
          <NumberInput
            label={t('admin.devices.fields.registerDigits')}
            {...form.getInputProps('registerDigits')}
            min={3}
            max={9}
            allowDecimal={false}
            miw={110}
          />
          <NumberInput
            label={t('admin.devices.fields.intervalMinutes')}
            {...form.getInputProps('intervalMinutes')}
            min={1}
            max={44_640}
            allowDecimal={false}
            miw={110}
          />
        </Group>
        <TextInput
          type="datetime-local"
          label={t('admin.devices.fields.installedAt')}
          description={t('admin.devices.form.zoneHint', { zone: timeZone })}
          {...form.getInputProps('installedAt')}
          required
        />
        <PriorityStatusFields
          priority={form.values.priority}
          status={form.values.status}
          onPriority={(value) => form.setFieldValue('priority', value)}
          onStatus={(value) => form.setFieldValue('status', value)}
          errors={form.errors}
        />
        <FormFooter
          failure={failure}
          onCancel={onDone}
          isSaving={state.isLoading}
          submitLabel={t('admin.devices.form.createMeter')}
        />
      </Stack>
    </form>
  );
}
