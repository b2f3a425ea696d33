import { NumberInput, Select, Stack, TextInput } from '@mantine/core';
import type { AdminDevice, DeviceNode } from '@cm/contracts/admin.ts';
import { DeviceType } from '@cm/contracts/enums.ts';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useUpdateDeviceMutation, useUpdateMeterMutation } from './devices-api.ts';
import { FormFooter } from '../forms/form-footer.tsx';
import { useAdminForm } from '../forms/use-admin-form.ts';
import { deviceEditFrom, validateDeviceEdit, type DeviceEditValues } from './device-form-values.ts';
import { deviceName, devicesOfType } from './device-tree.ts';
import { MainSupplyField } from './main-supply-field.tsx';
import { PriorityStatusFields } from './priority-status-fields.tsx';

const FIELDS = ['serial', 'parentId', 'priority', 'status', 'multiplier', 'label'] as const;

/** Edit a device: serial and parent (not for meters, whose parent changes by moving), priority and status. */
export function EditDeviceForm({
  device,
  roots,
  onDone,
}: {
  device: AdminDevice;
  roots: readonly DeviceNode[];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [updateDevice, deviceState] = useUpdateDeviceMutation();
  const [updateMeter, meterState] = useUpdateMeterMutation();
  const { form, failure, onSubmit } = useAdminForm({
    initialValues: deviceEditFrom(device),
    check: (values: DeviceEditValues) => validateDeviceEdit(values, device),
    fields: FIELDS,
    send: async (edit) => {
      if (edit.kind === 'meter')
        await updateMeter({ meterNumber: edit.meterNumber, body: edit.body }).unwrap();
      else await updateDevice({ id: edit.id, body: edit.body }).unwrap();
      toast.success(t('admin.devices.saved'));
      onDone();
    },
  });
  const accessPoints = devicesOfType(roots, DeviceType.AccessPoint);

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        {device.meter ? (
          <>
            <TextInput
              label={t('admin.devices.fields.meterNumber')}
              value={device.meter.meterNumber}
              readOnly
            />
            <TextInput
              label={t('admin.devices.fields.label')}
              description={t('admin.devices.form.labelHint')}
              {...form.getInputProps('label')}
              autoComplete="off"
              data-autofocus
            />
            <MainSupplyField {...form.getInputProps('mainSupply', { type: 'checkbox' })} />
            <NumberInput
              label={t('admin.devices.fields.multiplier')}
              description={t('admin.devices.form.multiplierHint')}
              {...form.getInputProps('multiplier')}
              min={1}
              allowDecimal={false}
            />
          </>
        ) : (
          <TextInput
            label={t('admin.devices.fields.serial')}
            {...form.getInputProps('serial')}
            required
            data-autofocus
          />
        )}
        {device.type === DeviceType.Cube ? (
          <Select
            label={t('admin.devices.fields.parent')}
            data={accessPoints.map((ap) => ({ value: String(ap.id), label: deviceName(ap) }))}
            {...form.getInputProps('parentId')}
            clearable
            placeholder={t('admin.devices.form.noParent')}
          />
        ) : null}
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
          isSaving={deviceState.isLoading || meterState.isLoading}
          submitLabel={t('admin.actions.save')}
        />
      </Stack>
    </form>
  );
}
