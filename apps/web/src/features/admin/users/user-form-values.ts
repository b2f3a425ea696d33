import {
  createUserBodySchema,
  updateUserBodySchema,
  type AdminUser,
  type CreateUserBody,
  type UpdateUserBody,
} from '@cm/contracts/admin.ts';
import { Role, type RoleId } from '@cm/contracts/enums.ts';
import { weaknessKey, type PasswordStrength } from '@/lib/use-password-weakness.ts';
import { fieldErrors } from '../forms/field-errors.ts';

/** The user drawer's fields, as the inputs hold them. */
export interface UserFormValues {
  email: string;
  fullName: string;
  role: RoleId;
  password: string;
  /** Location ids as strings (the multi-select's values). */
  locationIds: string[];
}

const fields = ['email', 'fullName', 'password'] as const;
/** i18n keys of the problems, per field. */
export type UserFormErrors = Partial<Record<(typeof fields)[number], string>>;

/** Empty values for a new user: a client, the role most often created. */
export function emptyUserForm(): UserFormValues {
  return { email: '', fullName: '', role: Role.Client, password: '', locationIds: [] };
}

/** The form filled from an existing user. */
export function userFormFrom(user: AdminUser): UserFormValues {
  return {
    email: user.email,
    fullName: user.fullName,
    role: user.role,
    password: '',
    locationIds: user.locationIds.map(String),
  };
}

/**
 * What is wrong with the form, as i18n keys; empty when it can be sent. The contract's schemas
 * check it as the server will; a new user needs a password, long enough and hard to guess
 * (`strength`: the server's own policy, once loaded).
 */
export function validateUserForm(
  values: UserFormValues,
  isNew: boolean,
  strength: PasswordStrength,
): UserFormErrors {
  const body = toCreateUserBody(values);
  const parsed = isNew
    ? createUserBodySchema.safeParse(body)
    : updateUserBodySchema.safeParse({
        email: body.email,
        fullName: body.fullName,
        role: body.role,
        locationIds: body.locationIds,
      });
  const errors: UserFormErrors = parsed.success
    ? {}
    : fieldErrors(parsed.error, fields, (field, issue) => {
        if (field === 'password') return 'admin.users.form.passwordShort';
        if (field === 'email')
          return issue.code === 'too_small'
            ? 'admin.users.form.emailRequired'
            : 'admin.users.form.emailInvalid';
        return issue.code === 'too_big'
          ? 'admin.users.form.fullNameTooLong'
          : 'admin.users.form.fullNameRequired';
      });
  if (isNew && !errors.password && strength.weakness) errors.password = weaknessKey(strength.weakness);
  return errors;
}

function toIds(values: string[]): number[] {
  return [...new Set(values.map(Number).filter((id) => Number.isInteger(id) && id > 0))].sort(
    (a, b) => a - b,
  );
}

/** The create body; administrators see every location, so only clients carry locations. */
export function toCreateUserBody(values: UserFormValues): CreateUserBody {
  return {
    email: values.email.trim(),
    fullName: values.fullName.trim(),
    role: values.role,
    password: values.password,
    locationIds: values.role === Role.Client ? toIds(values.locationIds) : [],
  };
}

/** Only what changed, so an edit never rewrites a field someone else just changed. */
export function toUpdateUserBody(values: UserFormValues, before: AdminUser): UpdateUserBody {
  const body: UpdateUserBody = {};
  const email = values.email.trim();
  const fullName = values.fullName.trim();
  if (email !== before.email) body.email = email;
  if (fullName !== before.fullName) body.fullName = fullName;
  if (values.role !== before.role) body.role = values.role;
  const ids = values.role === Role.Client ? toIds(values.locationIds) : [];
  const previous = [...before.locationIds].sort((a, b) => a - b);
  if (ids.length !== previous.length || ids.some((id, index) => id !== previous[index]))
    body.locationIds = ids;
  return body;
}
