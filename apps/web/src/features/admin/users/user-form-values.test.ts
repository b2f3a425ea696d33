import { passwordWeakness } from '@cm/contracts/password-policy.ts';
import type { AdminUser } from '@cm/contracts/admin.ts';
import { describe, expect, it } from 'vitest';
import type { PasswordStrength } from '@/lib/use-password-weakness.ts';
import {
  emptyUserForm,
  toCreateUserBody,
  toUpdateUserBody,
  userFormFrom,
  validateUserForm,
} from './user-form-values.ts';

const client: AdminUser = {
  id: 7,
  email: 'ann@example.com',
  fullName: 'Ann Client',
  role: 2,
  isDisabled: false,
  mustChangePassword: false,
  lastLoginAt: null,
  createdAt: '2026-01-01T00:00:00Z',
  locationIds: [3, 1],
};

/** The policy as the drawer runs it once loaded: the real one. */
const strengthOf = (password: string): PasswordStrength => ({
  checked: true,
  weakness: password === '' ? undefined : passwordWeakness(password, { email: 'a@b.cm', fullName: 'A' }),
});

describe('validateUserForm', () => {
  it('asks a new user for an email, a name and a long enough password', () => {
    expect(validateUserForm(emptyUserForm(), true, strengthOf(''))).toEqual({
      email: 'admin.users.form.emailRequired',
      fullName: 'admin.users.form.fullNameRequired',
      password: 'admin.users.form.passwordShort',
    });
    expect(
      validateUserForm(
        { ...emptyUserForm(), email: 'not-an-email', fullName: 'A', password: '123456789' },
        true,
        strengthOf('123456789'),
      ),
    ).toEqual({
      email: 'admin.users.form.emailInvalid',
      password: 'admin.users.form.passwordShort',
    });
    expect(
      validateUserForm(
        { ...emptyUserForm(), email: ' a@b.cm ', fullName: 'A', password: 'orange tractor' },
        true,
        strengthOf('orange tractor'),
      ),
    ).toEqual({});
    // Long enough but easy to guess, by the server's own policy.
    expect(
      validateUserForm(
        { ...emptyUserForm(), email: 'a@b.cm', fullName: 'A', password: '1234567890' },
        true,
        strengthOf('1234567890'),
      ),
    ).toEqual({ password: 'auth.password.weakness.common' });
  });

  it('does not ask for a password when editing', () => {
    expect(validateUserForm(userFormFrom(client), false, strengthOf(''))).toEqual({});
  });
});

describe('bodies', () => {
  it('trims and drops locations of an administrator', () => {
    const body = toCreateUserBody({
      email: ' x@y.cm ',
      fullName: ' X ',
      role: 1,
      password: 'long enough pw',
      locationIds: ['4'],
    });
    expect(body).toEqual({
      email: 'x@y.cm',
      fullName: 'X',
      role: 1,
      password: 'long enough pw',
      locationIds: [],
    });
  });

  it('sends only what changed, locations compared as a set', () => {
    expect(toUpdateUserBody(userFormFrom(client), client)).toEqual({});
    expect(toUpdateUserBody({ ...userFormFrom(client), locationIds: ['1', '3'] }, client)).toEqual({});
    expect(
      toUpdateUserBody({ ...userFormFrom(client), locationIds: ['1', '3', '9'], fullName: 'Ann C.' }, client),
    ).toEqual({
      fullName: 'Ann C.',
      locationIds: [1, 3, 9],
    });
    expect(toUpdateUserBody({ ...userFormFrom(client), role: 1 }, client)).toEqual({
      role: 1,
      locationIds: [],
    });
  });
});
