import { DeviceType } from '@cm/contracts/enums.ts';

/** i18n keys of the device types, as the admin pages name them. */
export const typeKeys: Record<number, string> = {
  [DeviceType.AccessPoint]: 'admin.devices.type.accessPoint',
  [DeviceType.Cube]: 'admin.devices.type.cube',
  [DeviceType.Meter]: 'admin.devices.type.meter',
};
