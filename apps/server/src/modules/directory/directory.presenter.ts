import type { AdminDevice, AdminLocation } from '@cm/contracts/admin.ts';
import { devicePriorityLabel, deviceStatuses, type DeviceStatus } from '@cm/contracts/enums.ts';
import type { AdminDeviceRow } from './devices.queries.ts';
import type { AdminLocationRow } from './locations.queries.ts';

// Rows become response objects here and only here, so no column (a password hash) leaks by accident.

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);

export function presentLocation(row: AdminLocationRow): AdminLocation {
  return {
    id: row.id,
    publicName: row.public_name,
    address: row.address,
    timeZone: row.time_zone,
    billingDay: row.billing_day,
    archivedAt: iso(row.archived_at),
    createdAt: row.created_at.toISOString(),
    meterCount: row.meter_count,
  };
}

const statusOf = (value: string): DeviceStatus =>
  deviceStatuses.find((status) => status === value) ?? 'inactive';

export function presentDevice(row: AdminDeviceRow): AdminDevice {
  return {
    id: row.id,
    type: row.type,
    serial: row.serial,
    parentId: row.parent_id,
    parentSerial: row.parent_serial,
    locationId: row.location_id,
    locationName: row.public_name,
    priority: row.priority,
    priorityLabel: devicePriorityLabel(row.priority),
    status: statusOf(row.status),
    lastSeenAt: iso(row.last_seen_at),
    meter:
      row.meter_number === null
        ? null
        : {
            meterNumber: row.meter_number,
            label: row.label ?? '',
            mainSupply: row.main_supply ?? false,
            meterInd: row.meter_ind ?? 1,
            multiplier: row.multiplier ?? 1,
            unit: row.unit ?? 'kWh',
            registerDigits: row.register_digits ?? 6,
            intervalMinutes: row.interval_minutes ?? 15,
            installedAt: iso(row.installed_at) ?? '',
            removedAt: iso(row.removed_at),
            hasRegisterReadings: row.last_register_month !== null,
          },
  };
}
