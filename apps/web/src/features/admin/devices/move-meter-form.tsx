import { Select, Stack, Text } from '@mantine/core';
import type { AdminDevice, DeviceNode } from '@cm/contracts/admin.ts';
import { DeviceType } from '@cm/contracts/enums.ts';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useMoveMeterMutation } from './devices-api.ts';
import { FormFooter } from '../forms/form-footer.tsx';
import { useAdminForm } from '../forms/use-admin-form.ts';
import { deviceName, devicesOfType } from './device-tree.ts';

const NONE = 'none';

/** Hang a meter under another Cube of its location, or under none. */
export function MoveMeterForm({
  device,
  roots,
  onDone,
}: {
  device: AdminDevice;
  roots: readonly DeviceNode[];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [moveMeter, state] = useMoveMeterMutation();
  const meterNumber = device.meter?.meterNumber ?? '';
  const { form, failure, onSubmit } = useAdminForm({
    initialValues: { cubeId: device.parentId === null ? NONE : String(device.parentId) },
    check: ({ cubeId }) => ({ errors: {}, body: { cubeId: cubeId === NONE ? null : Number(cubeId) } }),
    fields: ['cubeId'],
    // The server refuses a Cube of another location: said in the form's own words.
    fieldKeys: { cubeId: 'admin.move.badCube' },
    send: async ({ cubeId }) => {
      await moveMeter({ meterNumber, cubeId }).unwrap();
      toast.success(t('admin.devices.moved', { meterNumber }));
      onDone();
    },
  });
  const cubes = devicesOfType(roots, DeviceType.Cube);

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm">
          {t('admin.move.text', { meterNumber, cube: device.parentSerial ?? t('admin.devices.form.noCube') })}
        </Text>
        <Select
          label={t('admin.move.to')}
          data={[
            { value: NONE, label: t('admin.devices.form.noCube') },
            ...cubes.map((cube) => ({ value: String(cube.id), label: deviceName(cube) })),
          ]}
          value={form.values.cubeId}
          onChange={(value) => form.setFieldValue('cubeId', value ?? NONE)}
          allowDeselect={false}
          error={form.errors.cubeId}
          data-autofocus
        />
        <FormFooter
          failure={failure}
          onCancel={onDone}
          isSaving={state.isLoading}
          submitLabel={t('admin.move.submit')}
        />
      </Stack>
    </form>
  );
}
