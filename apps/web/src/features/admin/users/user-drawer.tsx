import {
  Input,
  Button,
  Drawer,
  Group,
  MultiSelect,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { MIN_PASSWORD_LENGTH, type AdminUser } from '@cm/contracts/admin.ts';
import { Role } from '@cm/contracts/enums.ts';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useCreateUserMutation, useUpdateUserMutation } from './api.ts';
import { FailureAlert, useFailureText } from './admin-ui.tsx';
import { fieldFailure } from './failure-message.ts';
import { useLocationOptions } from './use-location-options.ts';
import {
  emptyUserForm,
  toCreateUserBody,
  toUpdateUserBody,
  userFormFrom,
  validateUserForm,
  type UserFormErrors,
  type UserFormValues,
} from './user-form.ts';
import { toFailure, type Failure } from '@/lib/http-client.ts';

interface UserDrawerProps {
  /** The user to edit, `'new'` to create one, null when closed. */
  user: AdminUser | 'new' | null;
  onClose: () => void;
}

/** Create or edit a user: name, email, role and, for a client, the locations it may see. */
export function UserDrawer({ user, onClose }: UserDrawerProps) {
  const { t } = useTranslation();
  const isNew = user === 'new';
  return (
    <Drawer
      opened={user !== null}
      onClose={onClose}
      position="right"
      size="md"
      title={isNew ? t('admin.users.form.createTitle') : t('admin.users.form.editTitle')}
    >
      {user !== null ? (
        <UserForm key={isNew ? 'new' : user.id} user={isNew ? null : user} onDone={onClose} />
      ) : null}
    </Drawer>
  );
}

function UserForm({ user, onDone }: { user: AdminUser | null; onDone: () => void }) {
  const { t } = useTranslation();
  const failureText = useFailureText();
  const [values, setValues] = useState<UserFormValues>(user ? userFormFrom(user) : emptyUserForm());
  const [errors, setErrors] = useState<UserFormErrors>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const { options, isLoading: isLoadingLocations } = useLocationOptions();
  const [createUser, createState] = useCreateUserMutation();
  const [updateUser, updateState] = useUpdateUserMutation();
  const isSaving = createState.isLoading || updateState.isLoading;

  const set = <K extends keyof UserFormValues>(field: K, value: UserFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    // A fixed field stops showing its old problem at once; the rest wait for the next submit.
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const serverError = (param: string) => failureText(fieldFailure(failure, [param], 'user'));

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problems = validateUserForm(values, user === null);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setFailure(null);
    try {
      if (user === null) await createUser(toCreateUserBody(values)).unwrap();
      else await updateUser({ id: user.id, body: toUpdateUserBody(values, user) }).unwrap();
      toast.success(user === null ? t('admin.users.created') : t('admin.users.saved'));
      onDone();
    } catch (error) {
      setFailure(toFailure(error));
    }
  }

  const isFieldFailure =
    failure?.param !== null &&
    failure?.param !== undefined &&
    ['email', 'fullName', 'password', 'locationIds', 'role'].includes(failure.param);

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('admin.users.fields.fullName')}
          value={values.fullName}
          onChange={(event) => set('fullName', event.currentTarget.value)}
          error={errors.fullName ? t(errors.fullName) : serverError('fullName')}
          required
          autoComplete="off"
          data-autofocus
        />
        <TextInput
          label={t('admin.users.fields.email')}
          type="email"
          value={values.email}
          onChange={(event) => set('email', event.currentTarget.value)}
          error={errors.email ? t(errors.email) : serverError('email')}
          required
          autoComplete="off"
          spellCheck={false}
        />
        <Stack gap={4}>
          <Input.Label id="cm-user-role-label">{t('admin.users.fields.role')}</Input.Label>
          <SegmentedControl
            aria-labelledby="cm-user-role-label"
            value={String(values.role)}
            onChange={(value) => set('role', value === String(Role.Admin) ? Role.Admin : Role.Client)}
            data={[
              { value: String(Role.Client), label: t('admin.users.role.client') },
              { value: String(Role.Admin), label: t('admin.users.role.admin') },
            ]}
          />
          {serverError('role') ? (
            <Text size="xs" c="var(--mantine-color-error)" role="alert">
              {serverError('role')}
            </Text>
          ) : null}
        </Stack>
        {values.role === Role.Client ? (
          <MultiSelect
            label={t('admin.users.fields.locations')}
            description={t('admin.users.form.locationsHint')}
            data={options.map(({ value, label }) => ({ value, label }))}
            value={values.locationIds}
            onChange={(ids) => set('locationIds', ids)}
            searchable
            clearable
            hidePickedOptions
            nothingFoundMessage={isLoadingLocations ? t('admin.loading') : t('admin.users.form.noLocation')}
            error={serverError('locationIds')}
            comboboxProps={{ withinPortal: true }}
          />
        ) : (
          <Text size="sm" c="dimmed">
            {t('admin.users.form.adminSeesAll')}
          </Text>
        )}
        {user === null ? (
          <PasswordInput
            label={t('admin.users.fields.password')}
            description={t('admin.users.form.passwordHint', { min: MIN_PASSWORD_LENGTH })}
            value={values.password}
            onChange={(event) => set('password', event.currentTarget.value)}
            error={
              errors.password ? t(errors.password, { min: MIN_PASSWORD_LENGTH }) : serverError('password')
            }
            required
            autoComplete="new-password"
          />
        ) : null}
        {failure && !isFieldFailure ? <FailureAlert failure={failure} context="user" /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            {t('admin.actions.cancel')}
          </Button>
          <Button type="submit" loading={isSaving}>
            {user === null ? t('admin.users.form.create') : t('admin.actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
