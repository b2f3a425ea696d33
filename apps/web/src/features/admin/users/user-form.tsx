import { Input, MultiSelect, PasswordInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { MIN_PASSWORD_LENGTH, type AdminUser } from '@cm/contracts/admin.ts';
import { Role } from '@cm/contracts/enums.ts';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useCreateUserMutation, useUpdateUserMutation } from './users-api.ts';
import { FormFooter } from '../forms/form-footer.tsx';
import { useAdminForm } from '../forms/use-admin-form.ts';
import { usePasswordWeakness } from '@/lib/use-password-weakness.ts';
import { useLocationOptions } from '../use-location-options.ts';
import {
  emptyUserForm,
  toCreateUserBody,
  toUpdateUserBody,
  userFormFrom,
  validateUserForm,
  type UserFormValues,
} from './user-form-values.ts';

const FIELDS = ['email', 'fullName', 'password', 'locationIds', 'role'] as const;

/** A user's name, email, role, locations (clients) and, for a new user, first password. */
export function UserForm({ user, onDone }: { user: AdminUser | null; onDone: () => void }) {
  const { t } = useTranslation();
  const isNew = user === null;
  const { options, isLoading: isLoadingLocations } = useLocationOptions();
  const [createUser, createState] = useCreateUserMutation();
  const [updateUser, updateState] = useUpdateUserMutation();
  const { form, failure, onSubmit } = useAdminForm({
    initialValues: user ? userFormFrom(user) : emptyUserForm(),
    check: (values: UserFormValues) => {
      const errors = validateUserForm(values, isNew, strength);
      return { errors, body: Object.keys(errors).length === 0 ? values : null };
    },
    messageValues: { min: MIN_PASSWORD_LENGTH },
    fields: FIELDS,
    context: 'user',
    send: async (values) => {
      if (user === null) await createUser(toCreateUserBody(values)).unwrap();
      else await updateUser({ id: user.id, body: toUpdateUserBody(values, user) }).unwrap();
      toast.success(user === null ? t('admin.users.created') : t('admin.users.saved'));
      onDone();
    },
  });
  // The server's password policy, run as the user types; the check above reads it on submit.
  const strength = usePasswordWeakness(form.values.password, {
    email: form.values.email,
    fullName: form.values.fullName,
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('admin.users.fields.fullName')}
          {...form.getInputProps('fullName')}
          required
          autoComplete="off"
          data-autofocus
        />
        <TextInput
          label={t('admin.users.fields.email')}
          type="email"
          {...form.getInputProps('email')}
          required
          autoComplete="off"
          spellCheck={false}
        />
        <Stack gap={4}>
          <Input.Label id="cm-user-role-label">{t('admin.users.fields.role')}</Input.Label>
          <SegmentedControl
            aria-labelledby="cm-user-role-label"
            value={String(form.values.role)}
            onChange={(value) =>
              form.setFieldValue('role', value === String(Role.Admin) ? Role.Admin : Role.Client)
            }
            data={[
              { value: String(Role.Client), label: t('admin.users.role.client') },
              { value: String(Role.Admin), label: t('admin.users.role.admin') },
            ]}
          />
          {form.errors.role ? (
            <Text size="xs" c="var(--mantine-color-error)" role="alert">
              {form.errors.role}
            </Text>
          ) : null}
        </Stack>
        {form.values.role === Role.Client ? (
          <MultiSelect
            label={t('admin.users.fields.locations')}
            description={t('admin.users.form.locationsHint')}
            data={options.map(({ value, label }) => ({ value, label }))}
            {...form.getInputProps('locationIds')}
            searchable
            clearable
            hidePickedOptions
            nothingFoundMessage={isLoadingLocations ? t('admin.loading') : t('admin.users.form.noLocation')}
            comboboxProps={{ withinPortal: true }}
          />
        ) : (
          <Text size="sm" c="dimmed">
            {t('admin.users.form.adminSeesAll')}
          </Text>
        )}
        {isNew ? (
          <PasswordInput
            label={t('admin.users.fields.password')}
            description={t('admin.users.form.passwordHint', { min: MIN_PASSWORD_LENGTH })}
            {...form.getInputProps('password')}
            required
            autoComplete="new-password"
          />
        ) : null}
        <FormFooter
          failure={failure}
          context="user"
          onCancel={onDone}
          isSaving={createState.isLoading || updateState.isLoading}
          submitLabel={isNew ? t('admin.users.form.create') : t('admin.actions.save')}
        />
      </Stack>
    </form>
  );
}
