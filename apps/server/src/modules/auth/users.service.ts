import { randomBytes } from 'node:crypto';
import type {
  AdminUser,
  CreateUserBody,
  UpdateUserBody,
  UserList,
  UserListQuery,
} from '@cm/contracts/admin.ts';
import { Role } from '@cm/contracts/enums.ts';
import type { Db, SqlRunner } from '../../db/client.ts';
import { conflict, HttpError, notFound } from '../../http-error.ts';
import { revokeUserSessions } from './auth.queries.ts';
import { hashPassword, refuseWeakPassword } from './password.ts';
import { presentUser } from './users.presenter.ts';
import type { Actor } from '../access/index.ts';
import { recordAudit } from '../audit/index.ts';
import { missingLocations } from '../directory/index.ts';
import { uniqueViolation } from '../../db/sql-helpers.ts';
import {
  findAdminUser,
  insertUser,
  listUsers,
  lockEnabledAdmins,
  replaceUserLocations,
  setPassword,
  setUserDisabled,
  updateUser,
  findUserNames,
  findAlertRecipients,
  findUserLanguage,
} from './users.queries.ts';

const USER_NOT_FOUND = 'User not found.';
const LAST_ADMIN =
  'This is the last enabled administrator: enable or create another administrator first, so that someone can still manage CM.';

export class AdminUsersService {
  constructor(private readonly db: Db) {}

  async list(query: UserListQuery): Promise<UserList> {
    const { rows, total } = await listUsers(this.db, {
      search: query.search || undefined,
      role: query.role,
      disabled: query.disabled,
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    return { items: rows.map(presentUser), total, page: query.page, pageSize: query.pageSize };
  }

  async get(id: number): Promise<AdminUser> {
    const row = await findAdminUser(this.db, id);
    if (!row) throw notFound(USER_NOT_FOUND);
    return presentUser(row);
  }

  async create(actor: Actor, body: CreateUserBody): Promise<AdminUser> {
    const email = body.email.toLowerCase();
    const locationIds = body.role === Role.Client ? body.locationIds : [];
    refuseWeakPassword('password', body.password, { email, fullName: body.fullName });
    const passwordHash = await hashPassword(body.password);
    const id = await this.db
      .transaction(async (tx) => {
        await this.checkLocations(tx, locationIds);
        const userId = await insertUser(tx, {
          email,
          fullName: body.fullName,
          roleId: body.role,
          passwordHash,
          // The administrator knows it: a temporary password, changed at the first sign-in.
          mustChangePassword: true,
        });
        await replaceUserLocations(tx, userId, locationIds);
        await recordAudit(tx, actor, {
          action: 'user.create',
          targetType: 'user',
          targetId: userId,
          detail: { email, role: body.role, locationIds },
        });
        return userId;
      })
      .catch(rethrowEmailTaken);
    return this.get(id);
  }

  async update(actor: Actor, id: number, body: UpdateUserBody): Promise<AdminUser> {
    await this.db
      .transaction(async (tx) => {
        const before = await findAdminUser(tx, id);
        if (!before) throw notFound(USER_NOT_FOUND);
        if (body.role !== undefined && body.role !== Role.Admin && before.role_id === Role.Admin) {
          await this.ensureAnotherAdmin(tx, id);
        }
        const role = body.role ?? before.role_id;
        await updateUser(tx, id, {
          email: body.email?.toLowerCase(),
          fullName: body.fullName,
          roleId: body.role,
        });
        // An administrator sees every location, so links only matter (and are only kept) for clients.
        if (role !== Role.Client) await replaceUserLocations(tx, id, []);
        else if (body.locationIds) {
          await this.checkLocations(tx, body.locationIds);
          await replaceUserLocations(tx, id, body.locationIds);
        }
        await recordAudit(tx, actor, {
          action: 'user.update',
          targetType: 'user',
          targetId: id,
          detail: {
            before: {
              email: before.email,
              fullName: before.full_name,
              role: before.role_id,
              locationIds: before.location_ids,
            },
            changes: body,
          },
        });
      })
      .catch(rethrowEmailTaken);
    return this.get(id);
  }

  async setDisabled(actor: Actor, id: number, isDisabled: boolean): Promise<AdminUser> {
    await this.db.transaction(async (tx) => {
      const user = await findAdminUser(tx, id);
      if (!user) throw notFound(USER_NOT_FOUND);
      if (isDisabled && user.role_id === Role.Admin && !user.is_disabled)
        await this.ensureAnotherAdmin(tx, id);
      await setUserDisabled(tx, id, isDisabled);
      // A disabled user's open sessions end at once, not when their tokens expire.
      if (isDisabled) await revokeUserSessions(tx, id);
      await recordAudit(tx, actor, {
        action: isDisabled ? 'user.disable' : 'user.enable',
        targetType: 'user',
        targetId: id,
      });
    });
    return this.get(id);
  }

  /** Sets a temporary password the user must change at next sign-in, and ends the user's sessions. */
  async resetPassword(
    actor: Actor,
    id: number,
    temporaryPassword: string | undefined,
  ): Promise<{ temporaryPassword: string; user: AdminUser }> {
    const target = await findAdminUser(this.db, id);
    if (!target) throw notFound(USER_NOT_FOUND);
    if (temporaryPassword !== undefined) {
      refuseWeakPassword('temporaryPassword', temporaryPassword, {
        email: target.email,
        fullName: target.full_name,
      });
    }
    const password = temporaryPassword ?? randomBytes(12).toString('base64url');
    const passwordHash = await hashPassword(password);
    await this.db.transaction(async (tx) => {
      if (!(await findAdminUser(tx, id))) throw notFound(USER_NOT_FOUND);
      await setPassword(tx, id, passwordHash, true);
      await revokeUserSessions(tx, id);
      // The password itself is never written to the log.
      await recordAudit(tx, actor, { action: 'user.reset-password', targetType: 'user', targetId: id });
    });
    return { temporaryPassword: password, user: await this.get(id) };
  }

  private async ensureAnotherAdmin(tx: SqlRunner, userId: number): Promise<void> {
    const admins = await lockEnabledAdmins(tx);
    if (!admins.some((adminId) => adminId !== userId)) throw conflict(LAST_ADMIN);
  }

  private async checkLocations(tx: SqlRunner, locationIds: readonly number[]): Promise<void> {
    const missing = await missingLocations(tx, locationIds);
    if (missing.length > 0) {
      throw new HttpError(400, `locationIds: no location has id ${missing.join(', ')}.`, 'locationIds');
    }
  }
}

function rethrowEmailTaken(error: unknown): never {
  if (uniqueViolation(error)) throw conflict('Another user already has this email address.', 'email');
  throw error;
}

/** Users' names (full name, else e-mail), for the audit log. */
export const userNames = (db: SqlRunner, ids: readonly number[]) => findUserNames(db, ids);

/** Who hears of these locations' alerts: enabled administrators and each location's enabled clients. */
export const alertRecipients = (db: SqlRunner, locationIds: readonly number[]) =>
  findAlertRecipients(db, locationIds);

/** The language a user reads CM in; alert e-mails are written in it. */
export const userLanguage = (db: SqlRunner, id: number) => findUserLanguage(db, id);
