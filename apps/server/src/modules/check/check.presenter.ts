import type { ChainDevice, LocationSummary, MeterInfo } from '@cm/contracts/check.ts';
import { devicePriorityLabel, deviceStatuses, type DeviceStatus } from '@cm/contracts/enums.ts';
import { deviceHealth } from './device-health.ts';
import type { DeviceRow, LocationRow, MeterRow } from './check.queries.ts';

// Rows become response objects here and only here, so no column leaks by accident.

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);

function statusOf(value: string): DeviceStatus {
  return deviceStatuses.find((status) => status === value) ?? 'inactive';
}

export function presentLocation(
  row: Pick<LocationRow, 'public_name' | 'address' | 'time_zone'> & { id?: number; location_id?: number },
): LocationSummary {
  return {
    id: row.id ?? row.location_id ?? 0,
    publicName: row.public_name,
    address: row.address,
    timeZone: row.time_zone,
  };
}

export function presentChainDevice(row: DeviceRow | undefined, now: number): ChainDevice | null {
  if (!row) return null;
  return {
    id: row.id,
    serial: row.serial,
    type: row.type,
    status: statusOf(row.status),
    priority: row.priority,
    priorityLabel: devicePriorityLabel(row.priority),
    lastSeenAt: iso(row.last_seen_at),
    health: deviceHealth(row.status, row.last_seen_at, now),
  };
}

export interface MeterFacts {
  meter: MeterRow;
  chain: { cube: DeviceRow | undefined; accessPoint: DeviceRow | undefined };
  lastReading: { read_at: Date; register_milli: number } | undefined;
  completeUpTo: Date | undefined;
}

export function presentMeter(
  { meter, chain, lastReading, completeUpTo }: MeterFacts,
  now: number,
): MeterInfo {
  const lastHeard =
    lastReading && (!meter.last_seen_at || lastReading.read_at > meter.last_seen_at)
      ? lastReading.read_at
      : meter.last_seen_at;
  return {
    meterNumber: meter.meter_number,
    deviceId: meter.device_id,
    type: 3,
    meterInd: meter.meter_ind,
    unit: meter.unit,
    multiplier: meter.multiplier,
    registerDigits: meter.register_digits,
    intervalMinutes: meter.interval_minutes,
    status: statusOf(meter.status),
    priority: meter.priority,
    priorityLabel: devicePriorityLabel(meter.priority),
    installedAt: iso(meter.installed_at),
    removedAt: iso(meter.removed_at),
    lastSeenAt: iso(lastHeard),
    health: meter.removed_at ? 'removed' : deviceHealth(meter.status, lastHeard, now),
    location: presentLocation(meter),
    chain: {
      cube: presentChainDevice(chain.cube, now),
      accessPoint: presentChainDevice(chain.accessPoint, now),
    },
    // The register as the meter shows it: thousandths of the unit back to the unit.
    lastReading: lastReading
      ? { at: lastReading.read_at.toISOString(), value: lastReading.register_milli / 1000 }
      : null,
    completeUpTo: iso(completeUpTo),
  };
}
