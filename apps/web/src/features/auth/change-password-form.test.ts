import { MIN_PASSWORD_LENGTH } from '@cm/contracts/admin.ts';
import { describe, expect, it } from 'vitest';
import type { HttpError } from '@/lib/http-client.ts';
import { describeChangeFailure, passwordRules, validateChangePassword } from './change-password-form.ts';

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
    expect(validateChangePassword(good)).toEqual({});
    expect(passwordRules(good).every((rule) => rule.isMet)).toBe(true);
  });

  it('uses the length the server validates with (the contract), one short is refused', () => {
    const atLimit = 'x'.repeat(MIN_PASSWORD_LENGTH);
    const under = 'x'.repeat(MIN_PASSWORD_LENGTH - 1);
    expect(validateChangePassword({ ...good, newPassword: atLimit, confirmPassword: atLimit })).toEqual({});
    expect(validateChangePassword({ ...good, newPassword: under, confirmPassword: under })).toEqual({
      newPassword: { key: 'auth.changePassword.errors.newTooShort', values: { min: MIN_PASSWORD_LENGTH } },
    });
    const rules = passwordRules({ ...good, newPassword: under, confirmPassword: under });
    expect(rules.map((rule) => [rule.key, rule.isMet])).toEqual([
      ['auth.changePassword.rules.length', false],
      ['auth.changePassword.rules.different', true],
      ['auth.changePassword.rules.match', true],
    ]);
  });

  it('names each field that is wrong: empty current, too long, the same as now, not repeated', () => {
    const long = 'x'.repeat(1025);
    expect(
      validateChangePassword({ currentPassword: '', newPassword: long, confirmPassword: 'other' }),
    ).toEqual({
      currentPassword: { key: 'auth.changePassword.errors.currentRequired' },
      newPassword: { key: 'auth.changePassword.errors.newTooLong', values: { max: 1024 } },
      confirmPassword: { key: 'auth.changePassword.errors.confirmMismatch' },
    });
    const same = { ...good, newPassword: good.currentPassword, confirmPassword: good.currentPassword };
    expect(validateChangePassword(same)).toEqual({
      newPassword: { key: 'auth.changePassword.errors.newSameAsCurrent' },
    });
    expect(passwordRules(same)[1]?.isMet).toBe(false);
  });

  it('puts a server 400 next to the field its param names, anything else above the form', () => {
    expect(describeChangeFailure(refusal(400, 'currentPassword'), good)).toEqual({
      fields: { currentPassword: { key: 'auth.changePassword.errors.currentIncorrect' } },
    });
    expect(describeChangeFailure(refusal(400, 'newPassword'), good)).toEqual({
      fields: { newPassword: { key: 'auth.changePassword.errors.newRejected' } },
    });
    expect(
      describeChangeFailure(refusal(400, 'newPassword'), { ...good, newPassword: good.currentPassword }),
    ).toEqual({ fields: { newPassword: { key: 'auth.changePassword.errors.newSameAsCurrent' } } });
    expect(describeChangeFailure(refusal(400), good)).toEqual({
      form: { key: 'auth.changePassword.errors.badRequest' },
    });
    expect(describeChangeFailure(refusal(503), good)).toEqual({ form: { key: 'auth.login.errors.server' } });
    expect(describeChangeFailure(refusal(429, undefined, 61), good)).toEqual({
      form: { key: 'auth.changePassword.errors.throttledFor', values: { count: 2 } },
    });
    expect(describeChangeFailure(refusal(429), good)).toEqual({
      form: { key: 'auth.changePassword.errors.throttledFor', values: { count: 1 } },
    });
    expect(describeChangeFailure(refusal('NETWORK_ERROR'), good)).toEqual({
      form: { key: 'auth.login.errors.network' },
    });
  });
});
