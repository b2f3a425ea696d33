import {
  DevicePriority,
  deviceStatuses,
  type DevicePriorityId,
  type DeviceStatus,
} from '@cm/contracts/enums.ts';

/*
 * How a device's status and priority read everywhere (the check page's meter card, the admin
 * device table and forms): one label and one colour each. The colours name meanings: green works,
 * red is broken or urgent, orange needs a look soon, grey is out of service; Mantine badges and
 * the check page's tone badges both take these names.
 */

/** A colour a status or priority badge shows. */
export type DeviceColor = 'green' | 'red' | 'orange' | 'blue' | 'gray';

/** i18n key and colour of each status. */
export const deviceStatusLabels = {
  active: { key: 'device.status.active', color: 'green' },
  inactive: { key: 'device.status.inactive', color: 'gray' },
  faulty: { key: 'device.status.faulty', color: 'red' },
  removed: { key: 'device.status.removed', color: 'gray' },
} as const satisfies Record<DeviceStatus, { key: string; color: DeviceColor }>;

/** i18n key and colour of each priority (spec labels New, High, Medium, Not Yet Open). */
export const devicePriorityLabels = {
  [DevicePriority.New]: { key: 'device.priority.new', color: 'blue' },
  [DevicePriority.High]: { key: 'device.priority.high', color: 'red' },
  [DevicePriority.Medium]: { key: 'device.priority.medium', color: 'orange' },
  [DevicePriority.NotYetOpen]: { key: 'device.priority.notYetOpen', color: 'gray' },
} as const satisfies Record<DevicePriorityId, { key: string; color: DeviceColor }>;

/** The priorities in order, for selects. */
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
