import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  abilityRulesForRole,
  buildAbility,
  type AbilityAction,
  type AbilitySubject,
} from '@cm/contracts/abilities.ts';
import { roleIds } from '@cm/contracts/enums.ts';
import { forbidden, unauthorized } from '../http-error.ts';
import type { AuthContext } from '../modules/access/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** preHandler: the caller must be signed in, with no password change pending (403 otherwise). */
    requireUser: (request: FastifyRequest) => Promise<void>;
    /**
     * preHandler: the caller must be signed in; a pending password change is allowed. Only for the
     * routes such a user needs to change it or leave (me, refresh, logout, change-password).
     */
    requireSession: (request: FastifyRequest) => Promise<void>;
    /** preHandler: the caller must be a signed-in administrator (403 otherwise). */
    requireAdmin: (request: FastifyRequest) => Promise<void>;
    /** preHandler factory: the caller's role rules (the same CASL rules the browser gets) must allow `action` on `subject`. */
    requireAbility: (
      action: AbilityAction,
      subject: AbilitySubject,
    ) => (request: FastifyRequest) => Promise<void>;
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/** The 403 of every signed-in call but the few that let the user change the password or leave. */
const PASSWORD_CHANGE_REQUIRED = 'Change your password before continuing: POST /api/auth/change-password.';

/**
 * Resolves the bearer token into `request.auth` for the routes that ask for it. After an
 * administrator has reset a password, the temporary one opens a session that can do nothing but
 * change it (or sign out): requireUser refuses it, so no route can forget the check; the auth
 * routes that must stay open say so by using requireSession.
 */
/** What the plugin needs of the auth module (its AuthService, handed in by app.ts). */
interface TokenAuthenticator {
  authenticate(token: string): Promise<AuthContext>;
}

export const authentication = fp(async (app: FastifyInstance, options: { auth: TokenAuthenticator }) => {
  app.decorateRequest('auth', null);
  const requireSession = async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token)
      throw unauthorized('Sign in to continue: send the access token as "Authorization: Bearer <token>".');
    request.auth = await options.auth.authenticate(token);
  };
  const requireUser = async (request: FastifyRequest) => {
    await requireSession(request);
    if (request.auth?.user.mustChangePassword) throw forbidden(PASSWORD_CHANGE_REQUIRED);
  };
  app.decorate('requireSession', requireSession);
  app.decorate('requireUser', requireUser);
  // A role's rules are fixed, so which roles a route admits is decided once, when the route is
  // registered: no CASL ability is built per request.
  const requireAbility = (action: AbilityAction, subject: AbilitySubject) => {
    const admitted = new Set<number>(
      roleIds.filter((role) => buildAbility(abilityRulesForRole(role)).can(action, subject)),
    );
    const refusal =
      subject === 'all' ? 'Only administrators may do this.' : `You may not ${action} ${subject}.`;
    return async (request: FastifyRequest) => {
      await requireUser(request);
      const role = request.auth?.user.role;
      if (role === undefined || !admitted.has(role)) throw forbidden(refusal);
    };
  };
  app.decorate('requireAbility', requireAbility);
  app.decorate('requireAdmin', requireAbility('manage', 'all'));
});

/** The signed-in caller of a route guarded by requireUser. */
export function callerOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized('Sign in to continue.');
  return request.auth;
}
