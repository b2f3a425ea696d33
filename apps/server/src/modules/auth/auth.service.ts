import { randomUUID } from 'node:crypto';
import { abilityRulesForRole } from '@cm/contracts/abilities.ts';
import type { PublicUser, UserRecord } from '@cm/contracts/auth.ts';
import type { signInFailures } from '@cm/contracts/admin.ts';
import { Role, type RoleId } from '@cm/contracts/enums.ts';
import type { Language } from '@cm/contracts/languages.ts';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../access/index.ts';
import { recordAudit } from '../audit/index.ts';
import { forbidden, HttpError, unauthorized } from '../../http-error.ts';
import { SecretBox } from '../../secrets.ts';
import {
  findSession,
  findSetting,
  findSessionWithUser,
  findUserByEmail,
  findUserById,
  insertSession,
  insertSettingOnce,
  replaceSetting,
  purgeEndedSessions,
  recordLogin,
  revokeOtherSessions,
  revokeSession,
  touchSession,
  updatePassword,
  type UserRow,
} from './auth.queries.ts';
import {
  purgeExpiredThrottling,
  recordFailure,
  recordSuccess,
  secondsBlocked,
  type PasswordAttempt,
} from './login-throttle.ts';
import { hashPassword, refuseWeakPassword, verifyAgainstDummy, verifyPassword } from './password.ts';
import { TokenSigner } from './tokens.ts';
import { updateUserLanguage } from './users.queries.ts';

type SignInFailure = (typeof signInFailures)[number];

export interface SessionLimits {
  idleSeconds: number;
  maxSeconds: number;
  tokenTtlSeconds: number;
}

const WRONG_CREDENTIALS = 'Email or password is incorrect.';
// Sessions are touched at most this often, so that reads do not turn into writes on every request.
const TOUCH_EVERY_MS = 30_000;

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    email: row.email,
    fullName: row.full_name,
    role: row.role_id === Role.Admin ? Role.Admin : Role.Client,
    mustChangePassword: row.must_change_password,
  };
}

export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly signer: TokenSigner,
    private readonly limits: SessionLimits,
  ) {}

  async login(emailInput: string, password: string, address: string): Promise<UserRecord> {
    const email = emailInput.trim().toLowerCase();
    const user = await findUserByEmail(this.db, email);
    const attempt: PasswordAttempt = { email, userId: user?.id, address };
    await refuseWhileBlocked(this.db, attempt, 'Too many failed sign-in attempts.');
    const isValid = user
      ? await verifyPassword(user.password_hash, password)
      : (await verifyAgainstDummy(password), false);
    if (!user || !isValid) {
      await recordFailure(this.db, attempt);
      await this.auditSignInFailure(email, user?.id ?? null, user ? 'password' : 'unknownEmail');
      throw unauthorized(WRONG_CREDENTIALS);
    }
    if (user.is_disabled) {
      await this.auditSignInFailure(email, user.id, 'disabled');
      // The right password of a disabled account: refused as such (403), not as a wrong password.
      throw forbidden('This account is disabled. Ask an administrator to enable it.');
    }
    await recordSuccess(this.db, { ...attempt, userId: user.id });
    await recordAudit(
      this.db,
      { userId: user.id, apiKeyId: null },
      { action: 'user.sign-in', targetType: 'user', targetId: user.id },
    );
    const session = await insertSession(this.db, randomUUID(), user.id, this.limits.maxSeconds);
    await recordLogin(this.db, user.id);
    const { token, expiresAt } = await this.signer.sign(
      { userId: user.id, sessionId: session.id },
      this.tokenTtl(session.expires_at),
    );
    const publicUser = toPublicUser(user);
    return {
      user: publicUser,
      isLoggedIn: true,
      token,
      role: publicUser.role,
      tokenExpiresAt: expiresAt,
      ability: abilityRulesForRole(publicUser.role),
    };
  }

  /**
   * A failed sign-in in the audit log, with the address as typed (a guessed one too: that is what
   * an administrator looks for). Throttled attempts are refused before they get here.
   */
  private auditSignInFailure(email: string, userId: number | null, reason: SignInFailure): Promise<void> {
    return recordAudit(
      this.db,
      { userId: null, apiKeyId: null },
      { action: 'user.sign-in-failed', targetType: 'user', targetId: userId, detail: { email, reason } },
    );
  }

  /** Checks a bearer token against its server-side session: logout, a password change or idling out make it unusable. */
  async authenticate(token: string): Promise<AuthContext> {
    const check = await this.signer.verify(token);
    if (!check.ok) {
      throw unauthorized(
        check.reason === 'expired'
          ? 'Your session has expired. Please sign in again.'
          : 'The access token is not valid. Please sign in again.',
      );
    }
    const found = await findSessionWithUser(this.db, check.claims.sessionId);
    const now = Date.now();
    const session = found?.session;
    const user = found?.user;
    if (
      !session ||
      !user ||
      user.is_disabled ||
      session.user_id !== check.claims.userId ||
      session.revoked_at ||
      session.expires_at.getTime() <= now ||
      session.last_active_at.getTime() + this.limits.idleSeconds * 1000 <= now
    ) {
      throw unauthorized('Your session has ended. Please sign in again.');
    }
    if (session.last_active_at.getTime() + TOUCH_EVERY_MS < now) await touchSession(this.db, session.id);
    return { user: toPublicUser(user), sessionId: session.id };
  }

  /** A fresh token for a live session (the browser renews while the user is active). */
  async refresh(context: AuthContext): Promise<{ token: string; tokenExpiresAt: number }> {
    const session = await findSession(this.db, context.sessionId);
    if (!session) throw unauthorized('Your session has ended. Please sign in again.');
    await touchSession(this.db, session.id);
    const { token, expiresAt } = await this.signer.sign(
      { userId: context.user.id, sessionId: session.id },
      this.tokenTtl(session.expires_at),
    );
    return { token, tokenExpiresAt: expiresAt };
  }

  async logout(context: AuthContext): Promise<void> {
    await revokeSession(this.db, context.sessionId);
  }

  /**
   * Changes the caller's password after checking the current one; clears must_change_password and
   * ends the user's other sessions (this one stays signed in). Audit-logged with the change. Wrong
   * current passwords count with the sign-in failures: a stolen session may guess no more than a stranger.
   */
  async changePassword(
    context: AuthContext,
    address: string,
    currentPassword: string,
    newPassword: string,
  ): Promise<void> {
    const attempt: PasswordAttempt = {
      email: context.user.email.toLowerCase(),
      userId: context.user.id,
      address,
    };
    await refuseWhileBlocked(this.db, attempt, 'Too many wrong current passwords.');
    const user = await findUserById(this.db, context.user.id);
    if (!user || !(await verifyPassword(user.password_hash, currentPassword))) {
      await recordFailure(this.db, attempt);
      throw new HttpError(400, 'currentPassword is incorrect.', 'currentPassword');
    }
    if (currentPassword === newPassword) {
      throw new HttpError(400, 'newPassword must differ from the current password.', 'newPassword');
    }
    refuseWeakPassword('newPassword', newPassword, { email: user.email, fullName: user.full_name });
    const passwordHash = await hashPassword(newPassword);
    await this.db.transaction(async (tx) => {
      await updatePassword(tx, user.id, passwordHash);
      await revokeOtherSessions(tx, user.id, context.sessionId);
      await recordSuccess(tx, { ...attempt, userId: user.id });
      await recordAudit(
        tx,
        { userId: user.id, apiKeyId: null },
        { action: 'user.change-password', targetType: 'user', targetId: user.id },
      );
    });
  }

  /** Forgets what can no longer be used: ended sessions, finished throttle windows, old known addresses. */
  async purgeExpired(): Promise<number> {
    return (
      (await purgeEndedSessions(this.db, this.limits.idleSeconds)) + (await purgeExpiredThrottling(this.db))
    );
  }

  /** Remembers the language the user reads CM in (the web app says it at sign-in and on each change). */
  async setLanguage(context: AuthContext, language: Language): Promise<void> {
    await updateUserLanguage(this.db, context.user.id, language);
  }

  currentUser(context: AuthContext) {
    return { currentUser: { ...context.user, ability: abilityRulesForRole(context.user.role as RoleId) } };
  }

  // A token never outlives its session's absolute lifetime.
  private tokenTtl(sessionExpiresAt: Date): number {
    const left = Math.floor((sessionExpiresAt.getTime() - Date.now()) / 1000);
    return Math.max(1, Math.min(this.limits.tokenTtlSeconds, left));
  }
}

/** 429 with Retry-After while the throttle blocks `attempt`. */
async function refuseWhileBlocked(db: Db, attempt: PasswordAttempt, what: string): Promise<void> {
  const wait = await secondsBlocked(db, attempt);
  if (wait > 0) {
    throw new HttpError(429, `${what} Try again in ${formatWait(wait)}.`, undefined, {
      'Retry-After': String(wait),
    });
  }
}

function formatWait(seconds: number): string {
  return seconds < 60 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
}

const JWT_SECRET = 'jwt_secret';
const KEY_CHECK = 'secrets_key_check';

/**
 * Start-up: refuses a secrets key other than the one the stored secrets were sealed with, in
 * words, before anything fails quietly (tokens no longer verifying, webhooks badly signed).
 */
export async function checkSecretsKey(db: Db, secrets: SecretBox): Promise<void> {
  secrets.open(await insertSettingOnce(db, KEY_CHECK, secrets.seal(KEY_CHECK, KEY_CHECK)), KEY_CHECK);
}

/**
 * The token-signing secret: `fromEnv` (CM_JWT_SECRET), or one generated on first start and kept,
 * sealed (secrets.ts), in the database so that every API process shares it. One kept in clear by an
 * earlier version is sealed now: the same secret, so tokens signed before still verify.
 */
export async function provisionJwtSecret(
  db: Db,
  fromEnv: string | undefined,
  secrets: SecretBox,
): Promise<string> {
  const stored = fromEnv
    ? await findSetting<string>(db, JWT_SECRET)
    : await insertSettingOnce(db, JWT_SECRET, secrets.seal(TokenSigner.newSecret(), JWT_SECRET));
  if (stored !== undefined && !SecretBox.isSealed(stored)) {
    await replaceSetting(db, JWT_SECRET, stored, secrets.seal(stored, JWT_SECRET));
  }
  return fromEnv ?? secrets.open(stored ?? '', JWT_SECRET);
}
