import {
  DevicePriority,
  DeviceType,
  deviceStatuses,
  type DevicePriorityId,
  type DeviceStatus,
} from '@cm/contracts/enums.ts';

/** i18n keys of the priorities (spec labels New, High, Medium, Not Yet Open), listed literally so the locale test sees them. */
export const priorityKeys: Record<DevicePriorityId, string> = {
  [DevicePriority.New]: 'admin.devices.priority.new',
  [DevicePriority.High]: 'admin.devices.priority.high',
  [DevicePriority.Medium]: 'admin.devices.priority.medium',
  [DevicePriority.NotYetOpen]: 'admin.devices.priority.notYetOpen',
};

/** i18n keys of the device types. */
export const typeKeys: Record<number, string> = {
  [DeviceType.AccessPoint]: 'admin.devices.type.accessPoint',
  [DeviceType.Cube]: 'admin.devices.type.cube',
  [DeviceType.Meter]: 'admin.devices.type.meter',
};

/** i18n keys of the statuses. */
export const statusKeys: Record<DeviceStatus, string> = {
  active: 'admin.devices.status.active',
  inactive: 'admin.devices.status.inactive',
  faulty: 'admin.devices.status.faulty',
  removed: 'admin.devices.status.removed',
};

/** Badge colours that read the same in light and dark skins. */
export const statusColors: Record<DeviceStatus, string> = {
  active: 'teal',
  inactive: 'gray',
  faulty: 'red',
  removed: 'gray',
};
export const priorityColors: Record<DevicePriorityId, string> = {
  1: 'blue',
  2: 'red',
  3: 'orange',
  4: 'gray',
};

export const priorityIds: readonly DevicePriorityId[] = [
  DevicePriority.New,
  DevicePriority.High,
  DevicePriority.Medium,
  DevicePriority.NotYetOpen,
];

/** A priority id from a number (unknown values read as New, as the contract says). */
export function toPriorityId(value: number): DevicePriorityId {
  return priorityIds.find((id) => id === value) ?? DevicePriority.New;
}

/** A status from select text, or null. */
export function toStatus(value: string | null): DeviceStatus | null {
  return deviceStatuses.find((status) => status === value) ?? null;
}
