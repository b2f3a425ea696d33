import { changePasswordBodySchema, MIN_PASSWORD_LENGTH } from '@cm/contracts/admin.ts';
import type { HttpError } from '@/lib/http-client.ts';
import { weaknessKey, type PasswordStrength } from '@/lib/use-password-weakness.ts';

/** The fields of the change-password form. */
export interface ChangePasswordValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export type ChangePasswordField = keyof ChangePasswordValues;

/** A message for the person: an i18n key and its values. */
export interface Message {
  key: string;
  values?: Record<string, number>;
}

export type FieldErrors = Partial<Record<ChangePasswordField, Message>>;

/** The rules shown under the new password, each met or not yet. */
export interface PasswordRule {
  key: string;
  values?: Record<string, number>;
  isMet: boolean;
}

const sameAsCurrent: Message = { key: 'auth.changePassword.errors.newSameAsCurrent' };
const tooShort: Message = {
  key: 'auth.changePassword.errors.newTooShort',
  values: { min: MIN_PASSWORD_LENGTH },
};

/**
 * The rules a new password must follow: the length from the contract the server validates with,
 * hard to guess by the server's own policy, different from the current one (the server refuses
 * the same password), typed the same twice.
 */
export function passwordRules(values: ChangePasswordValues, strength: PasswordStrength): PasswordRule[] {
  const { currentPassword, newPassword, confirmPassword } = values;
  return [
    {
      key: 'auth.changePassword.rules.length',
      values: { min: MIN_PASSWORD_LENGTH },
      isMet: newPassword.length >= MIN_PASSWORD_LENGTH,
    },
    {
      key: 'auth.changePassword.rules.hardToGuess',
      isMet: newPassword !== '' && strength.checked && strength.weakness === undefined,
    },
    {
      key: 'auth.changePassword.rules.different',
      isMet: newPassword !== '' && newPassword !== currentPassword,
    },
    { key: 'auth.changePassword.rules.match', isMet: newPassword !== '' && newPassword === confirmPassword },
  ];
}

/** Client-side checks: the contract's body schema, then the rules the body alone cannot say. */
export function validateChangePassword(
  values: ChangePasswordValues,
  strength: PasswordStrength,
): FieldErrors {
  const errors: FieldErrors = {};
  const parsed = changePasswordBodySchema.safeParse({
    currentPassword: values.currentPassword,
    newPassword: values.newPassword,
  });
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = issue.path[0];
    if (field === 'currentPassword' && !errors.currentPassword) {
      errors.currentPassword =
        issue.code === 'too_small'
          ? { key: 'auth.changePassword.errors.currentRequired' }
          : { key: 'auth.changePassword.errors.currentIncorrect' };
    }
    if (field === 'newPassword' && !errors.newPassword) {
      errors.newPassword =
        issue.code === 'too_big'
          ? { key: 'auth.changePassword.errors.newTooLong', values: { max: Number(issue.maximum) } }
          : tooShort;
    }
  }
  if (!errors.newPassword && values.newPassword === values.currentPassword)
    errors.newPassword = sameAsCurrent;
  if (!errors.newPassword && strength.weakness) errors.newPassword = { key: weaknessKey(strength.weakness) };
  if (values.confirmPassword !== values.newPassword)
    errors.confirmPassword = { key: 'auth.changePassword.errors.confirmMismatch' };
  return errors;
}

/**
 * A refusal from the server, by meaning: a 400 names the field it is about in `param` and the
 * message goes next to that field; anything else (a 429 with the wait included) is said above the form. (A 401 or a network
 * error has already ended the session by then.)
 */
export function describeChangeFailure(
  error: HttpError,
  values: ChangePasswordValues,
  strength: PasswordStrength,
): { fields?: FieldErrors; form?: Message } {
  const param = error.status === 400 ? error.body?.param : undefined;
  if (param === 'currentPassword')
    return { fields: { currentPassword: { key: 'auth.changePassword.errors.currentIncorrect' } } };
  if (param === 'newPassword') {
    if (values.newPassword === values.currentPassword) return { fields: { newPassword: sameAsCurrent } };
    if (values.newPassword.length < MIN_PASSWORD_LENGTH) return { fields: { newPassword: tooShort } };
    if (strength.weakness) return { fields: { newPassword: { key: weaknessKey(strength.weakness) } } };
    return { fields: { newPassword: { key: 'auth.changePassword.errors.newRejected' } } };
  }
  if (error.status === 400) return { form: { key: 'auth.changePassword.errors.badRequest' } };
  if (error.status === 429) {
    // Wrong current passwords count with the account's failed sign-ins; the server says how long to wait.
    const seconds = error.retryAfterSeconds ?? 60;
    return {
      form: {
        key: 'auth.changePassword.errors.throttledFor',
        values: { count: Math.max(1, Math.ceil(seconds / 60)) },
      },
    };
  }
  if (error.status === 'NETWORK_ERROR') return { form: { key: 'auth.login.errors.network' } };
  return { form: { key: 'auth.login.errors.server' } };
}
