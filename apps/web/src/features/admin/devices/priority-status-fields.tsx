import { Group, Select } from '@mantine/core';
import { deviceStatuses, type DevicePriorityId, type DeviceStatus } from '@cm/contracts/enums.ts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  devicePriorityLabels,
  deviceStatusLabels,
  priorityIds,
  toPriorityId,
  toStatus,
} from '@/components/device-status.ts';

/** A device's priority and status, side by side. */
export function PriorityStatusFields(props: {
  priority: DevicePriorityId;
  status: DeviceStatus;
  onPriority: (value: DevicePriorityId) => void;
  onStatus: (value: DeviceStatus) => void;
  errors: { priority?: ReactNode; status?: ReactNode };
}) {
  const { t } = useTranslation();
  return (
    <Group grow align="flex-start" gap="sm" wrap="wrap">
      <Select
        label={t('admin.devices.fields.priority')}
        data={priorityIds.map((id) => ({ value: String(id), label: t(devicePriorityLabels[id].key) }))}
        value={String(props.priority)}
        onChange={(value) => props.onPriority(toPriorityId(Number(value)))}
        allowDeselect={false}
        error={props.errors.priority}
        miw={150}
      />
      <Select
        label={t('admin.devices.fields.status')}
        data={deviceStatuses.map((status) => ({ value: status, label: t(deviceStatusLabels[status].key) }))}
        value={props.status}
        onChange={(value) => props.onStatus(toStatus(value) ?? 'active')}
        allowDeselect={false}
        error={props.errors.status}
        miw={150}
      />
    </Group>
  );
}
