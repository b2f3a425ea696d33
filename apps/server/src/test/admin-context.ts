import { Role } from '@cm/contracts/enums.ts';
import type { SqlRunner } from '../db/client.ts';
import { insertLocation, linkUserToLocation } from './factories.ts';
import { createTestApp, insertUser, type TestApp } from './test-app.ts';

/** The admin routes' tests' world: an administrator, a client linked to the location Harbour. */
export interface AdminContext {
  t: TestApp;
  admin: string;
  client: string;
  adminId: number;
  clientId: number;
  harbour: number;
}

export async function createAdminContext(): Promise<AdminContext> {
  const t = await createTestApp();
  const adminId = await insertUser(t.db, {
    email: 'admin@test.cm',
    password: 'Admin!pass1',
    role: Role.Admin,
  });
  const clientId = await insertUser(t.db, {
    email: 'client@test.cm',
    password: 'Client!pass1',
    fullName: 'Carla Client',
  });
  const harbour = await insertLocation(t.db, 'Harbour', 'Europe/Berlin');
  await linkUserToLocation(t.db, clientId, harbour);
  const admin = (await t.login('admin@test.cm', 'Admin!pass1')).token;
  const client = (await t.login('client@test.cm', 'Client!pass1')).token;
  return { t, admin, client, adminId, clientId, harbour };
}

/** The changes recorded on a target, in order (sign-ins, which every login adds, are left out). */
export const auditActionsOf = async (db: SqlRunner, targetType: string, targetId: string | number) =>
  (
    await db.query<{ action: string; actor_user_id: number | null }>(
      `SELECT action, actor_user_id FROM audit_log
       WHERE target_type = $1 AND target_id = $2 AND action NOT LIKE 'user.sign-in%' ORDER BY id`,
      [targetType, String(targetId)],
    )
  ).map((row) => row.action);
