import type { AdminUser } from '@cm/contracts/admin.ts';
import { Role } from '@cm/contracts/enums.ts';
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
