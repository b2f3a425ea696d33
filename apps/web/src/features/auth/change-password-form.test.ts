import { MIN_PASSWORD_LENGTH } from '@cm/contracts/admin.ts';
import { describe, expect, it } from 'vitest';
import { passwordWeakness } from '@cm/contracts/password-policy.ts';
import type { HttpError } from '@/lib/http-client.ts';
import type { PasswordStrength } from '@/lib/use-password-weakness.ts';
import {
  describeChangeFailure,
  passwordRules,
  validateChangePassword,
  type ChangePasswordValues,
} from './change-password-form.ts';

const person = { email: 'nora.lind@example.org', fullName: 'Nora Lind' };
/** The policy as the page runs it once loaded: the real one. */
const strengthOf = (values: ChangePasswordValues): PasswordStrength => ({
  checked: true,
  weakness: values.newPassword === '' ? undefined : passwordWeakness(values.newPassword, person),
});
const validate = (values: ChangePasswordValues) => validateChangePassword(values, strengthOf(values));
const rulesOf = (values: ChangePasswordValues) => passwordRules(values, strengthOf(values));
const describe400 = (error: HttpError, values: ChangePasswordValues) =>
  describeChangeFailure(error, values, strengthOf(values));

const good = {
  currentPassword: 'Temporary!pass-1',
  newPassword: 'Chosen!pass-0001',
  confirmPassword: 'Chosen!pass-0001',
};

function refusal(
  status: HttpError['status'],
  param?: string,
  retryAfterSeconds: number | null = null,
): HttpError {
  return {
    status,
    body:
      typeof status === 'number'
        ? { statusCode: status, error: 'Bad Request', message: 'refused', ...(param ? { param } : {}) }
        : null,
    retryAfterSeconds,
    isSessionLoss: false,
  };
}

describe('change-password form', () => {
  it('accepts a good change', () => {
    expect(validate(good)).toEqual({});
    expect(rulesOf(good).every((rule) => rule.isMet)).toBe(true);
  });

  it('uses the length the server validates with (the contract), one short is refused', () => {
    const atLimit = 'jR7#kq2Lm9wQ'.slice(0, MIN_PASSWORD_LENGTH);
    const under = atLimit.slice(1);
    expect(validate({ ...good, newPassword: atLimit, confirmPassword: atLimit })).toEqual({});
    expect(validate({ ...good, newPassword: under, confirmPassword: under })).toEqual({
      newPassword: { key: 'auth.changePassword.errors.newTooShort', values: { min: MIN_PASSWORD_LENGTH } },
    });
    const rules = rulesOf({ ...good, newPassword: under, confirmPassword: under });
    expect(rules.map((rule) => [rule.key, rule.isMet])).toEqual([
      ['auth.changePassword.rules.length', false],
      ['auth.changePassword.rules.hardToGuess', true],
      ['auth.changePassword.rules.different', true],
      ['auth.changePassword.rules.match', true],
    ]);
  });

  it('names each field that is wrong: empty current, too long, the same as now, not repeated', () => {
    const long = 'x'.repeat(1025);
    expect(validate({ currentPassword: '', newPassword: long, confirmPassword: 'other' })).toEqual({
      currentPassword: { key: 'auth.changePassword.errors.currentRequired' },
      newPassword: { key: 'auth.changePassword.errors.newTooLong', values: { max: 1024 } },
      confirmPassword: { key: 'auth.changePassword.errors.confirmMismatch' },
    });
    const same = { ...good, newPassword: good.currentPassword, confirmPassword: good.currentPassword };
    expect(validate(same)).toEqual({
      newPassword: { key: 'auth.changePassword.errors.newSameAsCurrent' },
    });
    expect(rulesOf(same)[2]?.isMet).toBe(false);
  });

  it("says why a password is too easy to guess, by the server's own policy, before sending it", () => {
    const weak = (newPassword: string) => ({ ...good, newPassword, confirmPassword: newPassword });
    expect(validate(weak('password12'))).toEqual({ newPassword: { key: 'auth.password.weakness.common' } });
    expect(validate(weak('aaaaaaaaaa'))).toEqual({ newPassword: { key: 'auth.password.weakness.repeated' } });
    expect(validate(weak('NoraLind2026'))).toEqual({
      newPassword: { key: 'auth.password.weakness.personal' },
    });
    expect(rulesOf(weak('password12'))[1]).toMatchObject({
      key: 'auth.changePassword.rules.hardToGuess',
      isMet: false,
    });
    // Until the policy has loaded, the rule is not shown as met, and the server decides.
    const loading = { checked: false, weakness: undefined };
    expect(passwordRules(good, loading)[1]?.isMet).toBe(false);
    expect(validateChangePassword(good, loading)).toEqual({});
    expect(describe400(refusal(400, 'newPassword'), weak('password12'))).toEqual({
      fields: { newPassword: { key: 'auth.password.weakness.common' } },
    });
  });

  it('puts a server 400 next to the field its param names, anything else above the form', () => {
    expect(describe400(refusal(400, 'currentPassword'), good)).toEqual({
      fields: { currentPassword: { key: 'auth.changePassword.errors.currentIncorrect' } },
    });
    expect(describe400(refusal(400, 'newPassword'), good)).toEqual({
      fields: { newPassword: { key: 'auth.changePassword.errors.newRejected' } },
    });
    expect(describe400(refusal(400, 'newPassword'), { ...good, newPassword: good.currentPassword })).toEqual({
      fields: { newPassword: { key: 'auth.changePassword.errors.newSameAsCurrent' } },
    });
    expect(describe400(refusal(400), good)).toEqual({
      form: { key: 'auth.changePassword.errors.badRequest' },
    });
    expect(describe400(refusal(503), good)).toEqual({ form: { key: 'auth.login.errors.server' } });
    expect(describe400(refusal(429, undefined, 61), good)).toEqual({
      form: { key: 'auth.changePassword.errors.throttledFor', values: { count: 2 } },
    });
    expect(describe400(refusal(429), good)).toEqual({
      form: { key: 'auth.changePassword.errors.throttledFor', values: { count: 1 } },
    });
    expect(describe400(refusal('NETWORK_ERROR'), good)).toEqual({
      form: { key: 'auth.login.errors.network' },
    });
  });
});
