import {
  channels as channelOrder,
  type ChainDevice,
  type Channel,
  type LocationSummary,
  type MeterInfo,
} from '@cm/contracts/check.ts';
import { devicePriorityLabel, deviceStatuses, type DeviceStatus } from '@cm/contracts/enums.ts';
import { deviceHealth } from './device-health.ts';
import type { DeviceRow, LocationRow, MeterDetailsRow } from '../directory/index.ts';
import type { LastReading } from '../readings/index.ts';

// Rows become response objects here and only here, so no column leaks by accident.

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);

function statusOf(value: string): DeviceStatus {
  return deviceStatuses.find((status) => status === value) ?? 'inactive';
}

/** Stored channel numbers (1 import, 2 export) as the contract names them, import first. */
function channelNames(numbers: readonly number[]): Channel[] {
  return channelOrder.filter((_, i) => numbers.includes(i + 1));
}

export function presentLocation(
  row: Pick<LocationRow, 'public_name' | 'address' | 'time_zone' | 'billing_day'> & {
    id?: number;
    location_id?: number;
  },
): LocationSummary {
  return {
    id: row.id ?? row.location_id ?? 0,
    publicName: row.public_name,
    address: row.address,
    timeZone: row.time_zone,
    billingDay: row.billing_day,
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

/** The Cube and AccessPoint above a meter, from the joined parent columns (a meter may hang directly under an AccessPoint). */
function chainOf(meter: MeterDetailsRow): {
  cube: DeviceRow | undefined;
  accessPoint: DeviceRow | undefined;
} {
  const parents: DeviceRow[] = [];
  if (meter.up1_id !== null) {
    parents.push(
      parentRow(
        meter.up1_id,
        meter.up1_serial,
        meter.up1_type,
        meter.up1_status,
        meter.up1_priority,
        meter.up1_last_seen_at,
      ),
    );
  }
  if (meter.up2_id !== null) {
    parents.push(
      parentRow(
        meter.up2_id,
        meter.up2_serial,
        meter.up2_type,
        meter.up2_status,
        meter.up2_priority,
        meter.up2_last_seen_at,
      ),
    );
  }
  return { cube: parents.find((row) => row.type === 2), accessPoint: parents.find((row) => row.type === 1) };
}

function parentRow(
  id: number,
  serial: string | null,
  type: number | null,
  status: string | null,
  priority: number | null,
  lastSeenAt: Date | null,
): DeviceRow {
  return {
    id,
    serial: serial ?? '',
    type: type ?? 0,
    status: status ?? 'inactive',
    priority: priority ?? 1,
    last_seen_at: lastSeenAt,
  };
}

export function presentMeter(
  meter: MeterDetailsRow,
  last: LastReading,
  completeUpTo: Date | null,
  now: number,
): MeterInfo {
  const chain = chainOf(meter);
  // Data at the installation instant only is the start register a person typed at an exchange:
  // the meter has not been heard from, nor is any of its data complete.
  const hasReported = (at: Date | null): at is Date => at !== null && at > meter.installed_at;
  const lastData = hasReported(last.dataAt) ? last.dataAt : null;
  const lastHeard =
    lastData && (!meter.last_seen_at || lastData > meter.last_seen_at) ? lastData : meter.last_seen_at;
  return {
    meterNumber: meter.meter_number,
    label: meter.label,
    mainSupply: meter.main_supply,
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
    channels: channelNames(meter.channels),
    // The register as the meter shows it: millionths of the unit back to the unit.
    lastReading:
      last.readAt && last.valueMicro !== null
        ? { at: last.readAt.toISOString(), value: last.valueMicro / 1e6 }
        : null,
    completeUpTo: iso(hasReported(completeUpTo) ? completeUpTo : null),
  };
}
