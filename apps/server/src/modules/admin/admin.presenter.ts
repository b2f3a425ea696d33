import type { AdminApiKey, AdminDevice, AdminLocation, AdminUser } from '@cm/contracts/admin.ts';
import {
  apiKeyScopes,
  devicePriorityLabel,
  deviceStatuses,
  Role,
  type DeviceStatus,
} from '@cm/contracts/enums.ts';
import type { ApiKeyRow } from '../api-keys/api-keys.queries.ts';
import type { AuditRow } from './audit.queries.ts';
import type { AdminDeviceRow } from './devices.queries.ts';
import type { AdminLocationRow } from './locations.queries.ts';
import type { AdminUserRow } from './users.queries.ts';

// Rows become response objects here and only here, so no column (a password hash) leaks by accident.

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);

export function presentUser(row: AdminUserRow): AdminUser {
  return {
    id: row.id,
    email: row.email,
    fullName: row.full_name,
    role: row.role_id === Role.Admin ? Role.Admin : Role.Client,
    isDisabled: row.is_disabled,
    mustChangePassword: row.must_change_password,
    lastLoginAt: iso(row.last_login_at),
    createdAt: row.created_at.toISOString(),
    locationIds: row.location_ids,
  };
}

export function presentLocation(row: AdminLocationRow): AdminLocation {
  return {
    id: row.id,
    publicName: row.public_name,
    address: row.address,
    timeZone: row.time_zone,
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
            meterInd: row.meter_ind ?? 1,
            multiplier: row.multiplier ?? 1,
            unit: row.unit ?? 'kWh',
            registerDigits: row.register_digits ?? 6,
            intervalMinutes: row.interval_minutes ?? 15,
            installedAt: iso(row.installed_at) ?? '',
            removedAt: iso(row.removed_at),
          },
  };
}

export function presentApiKey(row: ApiKeyRow, webApiKeyHash: string): AdminApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: apiKeyScopes.filter((scope) => row.scopes.includes(scope)),
    createdAt: row.created_at.toISOString(),
    lastUsedAt: iso(row.last_used_at),
    revokedAt: iso(row.revoked_at),
    isWebApp: row.key_hash === webApiKeyHash,
  };
}

export function presentAudit(row: AuditRow) {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actorUserId: row.actor_user_id,
    actorApiKeyId: row.actor_api_key_id,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    detail: row.detail,
  };
}
