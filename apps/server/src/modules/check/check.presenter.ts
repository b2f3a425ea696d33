import {
  channels as channelOrder,
  type ChainDevice,
  type Channel,
  type LocationSummary,
  type MeterInfo,
} from '@cm/contracts/check.ts';
import { devicePriorityLabel, deviceStatuses, type DeviceStatus } from '@cm/contracts/enums.ts';
import { deviceHealth } from './device-health.ts';
import type { ParentDevice, DirectoryLocation, LocationMeter } from '../directory/index.ts';
import type { LastReading } from '../readings/index.ts';

// The directory's meters become response objects here and only here, so no field leaks by accident.

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);

function statusOf(value: string): DeviceStatus {
  return deviceStatuses.find((status) => status === value) ?? 'inactive';
}

/** Stored channel numbers (1 import, 2 export) as the contract names them, import first. */
function channelNames(numbers: readonly number[]): Channel[] {
  return channelOrder.filter((_, i) => numbers.includes(i + 1));
}

export function presentLocation(location: DirectoryLocation): LocationSummary {
  return {
    id: location.id,
    publicName: location.publicName,
    address: location.address,
    timeZone: location.timeZone,
    billingDay: location.billingDay,
  };
}

export function presentChainDevice(device: ParentDevice | null, now: number): ChainDevice | null {
  if (!device) return null;
  return {
    id: device.id,
    serial: device.serial,
    type: device.type,
    status: statusOf(device.status),
    priority: device.priority,
    priorityLabel: devicePriorityLabel(device.priority),
    lastSeenAt: iso(device.lastSeenAt),
    health: deviceHealth(device.status, device.lastSeenAt, now),
  };
}

export function presentMeter(
  meter: LocationMeter,
  last: LastReading,
  completeUpTo: Date | null,
  now: number,
): MeterInfo {
  // Data at the installation instant only is the start register a person typed at an exchange:
  // the meter has not been heard from, nor is any of its data complete.
  const hasReported = (at: Date | null): at is Date => at !== null && at > meter.installedAt;
  const lastData = hasReported(last.dataAt) ? last.dataAt : null;
  const lastHeard =
    lastData && (!meter.lastSeenAt || lastData > meter.lastSeenAt) ? lastData : meter.lastSeenAt;
  return {
    meterNumber: meter.meterNumber,
    label: meter.label,
    mainSupply: meter.mainSupply,
    deviceId: meter.id,
    type: 3,
    meterInd: meter.meterInd,
    unit: meter.unit,
    multiplier: meter.multiplier,
    registerDigits: meter.registerDigits,
    intervalMinutes: meter.intervalMinutes,
    status: statusOf(meter.status),
    priority: meter.priority,
    priorityLabel: devicePriorityLabel(meter.priority),
    installedAt: iso(meter.installedAt),
    removedAt: iso(meter.removedAt),
    lastSeenAt: iso(lastHeard),
    health: meter.removedAt ? 'removed' : deviceHealth(meter.status, lastHeard, now, meter.intervalMinutes),
    location: presentLocation(meter.location),
    chain: {
      cube: presentChainDevice(meter.cube, now),
      accessPoint: presentChainDevice(meter.accessPoint, now),
    },
    channels: channelNames(meter.channels),
    // The register as the meter shows it: millionths of the unit back to the unit.
    lastReading:
      last.readAt && last.valueMicro !== null
        ? { at: last.readAt.toISOString(), value: last.valueMicro / 1e6 }
        : null,
    completeUpTo: iso(hasReported(completeUpTo) ? completeUpTo : null),
  };
}
