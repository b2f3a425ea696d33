import { abilityActions, abilitySubjects, type AbilityRule } from '@cm/contracts/abilities.ts';
import type { PublicUser, UserRecord } from '@cm/contracts/auth.ts';
import type { ErrorBody } from '@cm/contracts/errors.ts';

/*
 * Type guards for the two contract shapes read before the login page is interactive: an API
 * error body and the stored user record. They narrow to the contract types (never re-declared)
 * without pulling zod into the start-up bundle; contract-guards.test.ts checks that they agree
 * with the zod schemas. Everything else is parsed with the schemas, loaded on demand.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{ statusCode, error, message, param? }`. */
export function isErrorBody(value: unknown): value is ErrorBody {
  return (
    isRecord(value) &&
    Number.isInteger(value.statusCode) &&
    typeof value.error === 'string' &&
    typeof value.message === 'string' &&
    (value.param === undefined || typeof value.param === 'string')
  );
}

function isRoleId(value: unknown): value is UserRecord['role'] {
  return value === 1 || value === 2;
}

function isAbilityRule(value: unknown): value is AbilityRule {
  return (
    isRecord(value) &&
    abilityActions.some((action) => action === value.action) &&
    abilitySubjects.some((subject) => subject === value.subject)
  );
}

function isPublicUser(value: unknown): value is PublicUser {
  return (
    isRecord(value) &&
    Number.isInteger(value.id) &&
    typeof value.email === 'string' &&
    typeof value.fullName === 'string' &&
    isRoleId(value.role) &&
    typeof value.mustChangePassword === 'boolean'
  );
}

/** The stored user record (`userData`). */
export function isUserRecord(value: unknown): value is UserRecord {
  return (
    isRecord(value) &&
    isPublicUser(value.user) &&
    value.isLoggedIn === true &&
    typeof value.token === 'string' &&
    isRoleId(value.role) &&
    Number.isInteger(value.tokenExpiresAt) &&
    Array.isArray(value.ability) &&
    value.ability.every(isAbilityRule)
  );
}
