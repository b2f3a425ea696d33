import { Role } from '@cm/contracts/enums.ts';
import type { AuthContext } from './caller.ts';

/**
 * What a caller may see, as bound SQL parameters: admins see every location, a client only the
 * live (not archived) locations linked to it. Every query that reads client data takes this, so a location outside
 * the scope simply does not exist for the caller (same 404 as a missing one).
 */
export interface Scope {
  isAdmin: boolean;
  userId: number;
}

export const scopeOf = (caller: AuthContext): Scope => ({
  isAdmin: caller.user.role === Role.Admin,
  userId: caller.user.id,
});

/** SQL condition on a location id column; `$a` is isAdmin, `$u` the user id. Archiving a location hides it from its clients at once. */
export function locationVisible(column: string, isAdminParam: number, userIdParam: number): string {
  return `($${isAdminParam}::boolean OR EXISTS (
    SELECT 1 FROM user_locations ul JOIN locations vl ON vl.id = ul.location_id
    WHERE ul.user_id = $${userIdParam} AND ul.location_id = ${column} AND vl.archived_at IS NULL))`;
}
