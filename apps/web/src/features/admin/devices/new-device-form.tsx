import { Input, SegmentedControl, Select, Stack, TextInput } from '@mantine/core';
import type { DeviceNode } from '@cm/contracts/admin.ts';
import { DevicePriority, DeviceType } from '@cm/contracts/enums.ts';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useCreateDeviceMutation } from './devices-api.ts';
import { FormFooter } from '../forms/form-footer.tsx';
import { useAdminForm } from '../forms/use-admin-form.ts';
import { validateNewDevice, type DeviceFormValues } from './device-form-values.ts';
import { deviceName, devicesOfType } from './device-tree.ts';
import { PriorityStatusFields } from './priority-status-fields.tsx';

const FIELDS = ['serial', 'parentId', 'priority', 'status'] as const;

const INITIAL: DeviceFormValues = {
  type: DeviceType.AccessPoint,
  serial: '',
  parentId: null,
  priority: DevicePriority.New,
  status: 'active',
};

/** A new AccessPoint or Cube (a Cube hangs from an AccessPoint of the same location). */
export function NewDeviceForm({
  locationId,
  roots,
  onDone,
}: {
  locationId: number;
  roots: readonly DeviceNode[];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [createDevice, state] = useCreateDeviceMutation();
  const { form, failure, onSubmit } = useAdminForm({
    initialValues: INITIAL,
    check: (values: DeviceFormValues) => validateNewDevice(values, locationId),
    fields: FIELDS,
    send: async (body) => {
      await createDevice(body).unwrap();
      toast.success(t('admin.devices.created'));
      onDone();
    },
  });
  const accessPoints = devicesOfType(roots, DeviceType.AccessPoint);

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Stack gap={4}>
          <Input.Label id="cm-device-type-label">{t('admin.devices.fields.type')}</Input.Label>
          <SegmentedControl
            aria-labelledby="cm-device-type-label"
            value={String(form.values.type)}
            onChange={(value) =>
              form.setFieldValue(
                'type',
                value === String(DeviceType.Cube) ? DeviceType.Cube : DeviceType.AccessPoint,
              )
            }
            data={[
              { value: String(DeviceType.AccessPoint), label: t('admin.devices.type.accessPoint') },
              { value: String(DeviceType.Cube), label: t('admin.devices.type.cube') },
            ]}
          />
        </Stack>
        <TextInput
          label={t('admin.devices.fields.serial')}
          {...form.getInputProps('serial')}
          required
          autoComplete="off"
          spellCheck={false}
          data-autofocus
        />
        {form.values.type === DeviceType.Cube ? (
          <Select
            label={t('admin.devices.fields.parent')}
            description={t('admin.devices.form.parentHint')}
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
          isSaving={state.isLoading}
          submitLabel={t('admin.devices.form.create')}
        />
      </Stack>
    </form>
  );
}
