import { Alert, Button, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconCircleCheckFilled, IconCircleDashed, IconLock } from '@tabler/icons-react';
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { defaultRouteForRole, LOGIN_ROUTE, PRODUCT_NAME, ROOT_ROUTE } from '@/lib/config.ts';
import { AuthPage, FormErrorAlert } from './auth-page.tsx';
import authClasses from './auth-page.module.css';
import { changePassword, isSafeReturnPath, logout, selectAuth } from './auth-slice.ts';
import {
  describeChangeFailure,
  passwordRules,
  validateChangePassword,
  type ChangePasswordField,
  type ChangePasswordValues,
  type FieldErrors,
  type Message,
} from './change-password-form.ts';
import classes from './change-password-page.module.css';
import { CHANGE_PASSWORD_ROUTE } from './routes.ts';
import { usePasswordWeakness } from '@/lib/use-password-weakness.ts';
import { useSessionKeepAlive } from './use-session-keep-alive.ts';
import { useAuthDispatch, useAuthSelector } from './auth-hooks.ts';

const fieldOrder: ChangePasswordField[] = ['currentPassword', 'newPassword', 'confirmPassword'];

/** The page to go on to: the one the guard or the user menu came from, else the role's default. */
function useReturnPath(): string | null {
  const location = useLocation();
  const from: unknown =
    location.state && typeof location.state === 'object' && 'from' in location.state
      ? location.state.from
      : null;
  if (!isSafeReturnPath(from)) return null;
  const pathname = from.split(/[?#]/)[0];
  return [ROOT_ROUTE, LOGIN_ROUTE, CHANGE_PASSWORD_ROUTE].includes(pathname ?? '') ? null : from;
}

/**
 * Change password: forced after an administrator's reset (every other page sends the user here,
 * with an explanation and a way to log out), or chosen from the user menu (with a way back).
 * The rules come from the contract the server validates with, checked as the user types; the
 * server's refusals are shown next to the field they name.
 */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('auth.changePassword.documentTitle')} · ${PRODUCT_NAME}`);
  useSessionKeepAlive();
  const dispatch = useAuthDispatch();
  const navigate = useNavigate();
  const { user, role } = useAuthSelector(selectAuth);
  const isForced = user?.mustChangePassword === true;
  const returnPath = useReturnPath();
  const [values, setValues] = useState<ChangePasswordValues>({
    currentPassword: '',
    newPassword: '',
    confirmPassword: '',
  });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<Message | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const currentRef = useRef<HTMLInputElement>(null);
  const newRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  const strength = usePasswordWeakness(values.newPassword, { email: user?.email, fullName: user?.fullName });
  const rules = passwordRules(values, strength);

  const leave = () => void navigate(returnPath ?? defaultRouteForRole(role), { replace: true });

  function showErrors(errors: FieldErrors) {
    setFieldErrors(errors);
    const first = fieldOrder.find((field) => errors[field]);
    const refs = { currentPassword: currentRef, newPassword: newRef, confirmPassword: confirmRef };
    if (first) refs[first].current?.focus();
  }

  function handleChange(field: ChangePasswordField, value: string) {
    setValues((previous) => ({ ...previous, [field]: value }));
    // A fixed field loses its message; the others keep theirs until the next submit.
    if (fieldErrors[field]) setFieldErrors((previous) => ({ ...previous, [field]: undefined }));
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const errors = validateChangePassword(values, strength);
    showErrors(errors);
    if (fieldOrder.some((field) => errors[field])) return;

    setIsSaving(true);
    const result = await dispatch(
      changePassword({ currentPassword: values.currentPassword, newPassword: values.newPassword }),
    );
    setIsSaving(false);
    if (changePassword.fulfilled.match(result)) {
      toast.success(t('auth.changePassword.success'), { id: 'password-changed' });
      leave();
      return;
    }
    if (!result.payload) {
      setFormError({ key: 'auth.login.errors.server' });
      return;
    }
    // A lost session (401, network) has already logged out; the router takes over.
    if (result.payload.isSessionLoss) return;
    const failure = describeChangeFailure(result.payload, values, strength);
    if (failure.fields) showErrors(failure.fields);
    if (failure.form) setFormError(failure.form);
  }

  async function handleLogout() {
    await dispatch(logout());
    void navigate(LOGIN_ROUTE, { replace: true });
  }

  // What the three password fields share.
  const fieldProps = (field: ChangePasswordField) => {
    const error = fieldErrors[field];
    return {
      name: field,
      required: true,
      value: values[field],
      onChange: (event: ChangeEvent<HTMLInputElement>) => handleChange(field, event.currentTarget.value),
      error: error ? t(error.key, error.values) : undefined,
      visibilityToggleFocusable: true,
      visibilityToggleButtonProps: { 'aria-label': t('auth.login.showPassword') },
    };
  };

  return (
    <AuthPage>
      <Title order={1} className={authClasses.title}>
        {t('auth.changePassword.title')}
      </Title>
      <Text c="dimmed" mb="lg">
        {t('auth.changePassword.signedInAs', { email: user?.email ?? '' })}
      </Text>
      {isForced && (
        <Alert color="orange" variant="light" icon={<IconLock aria-hidden />} mb="lg">
          {t('auth.changePassword.forcedExplanation')}
        </Alert>
      )}
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <Stack gap="md">
          {formError && (
            <FormErrorAlert title={t('auth.changePassword.errors.title')}>
              {t(formError.key, formError.values)}
            </FormErrorAlert>
          )}
          {/* The account name lets password managers store the new password for the right login. */}
          <input
            hidden
            readOnly
            type="text"
            name="username"
            autoComplete="username"
            value={user?.email ?? ''}
          />
          <PasswordInput
            ref={currentRef}
            label={t('auth.changePassword.current')}
            description={isForced ? t('auth.changePassword.currentForced') : undefined}
            autoComplete="current-password"
            {...fieldProps('currentPassword')}
          />
          <PasswordInput
            ref={newRef}
            label={t('auth.changePassword.new')}
            autoComplete="new-password"
            aria-describedby="cm-password-rules"
            {...fieldProps('newPassword')}
          />
          <PasswordInput
            ref={confirmRef}
            label={t('auth.changePassword.confirm')}
            autoComplete="new-password"
            {...fieldProps('confirmPassword')}
          />
          <div id="cm-password-rules" className={classes.rules}>
            <Text size="sm" fw={600}>
              {t('auth.changePassword.rules.title')}
            </Text>
            <ul className={classes.ruleList}>
              {rules.map((rule) => (
                <li key={rule.key} className={classes.rule} data-met={rule.isMet || undefined}>
                  {rule.isMet ? (
                    <IconCircleCheckFilled size={18} aria-hidden className={classes.ruleIcon} />
                  ) : (
                    <IconCircleDashed size={18} aria-hidden className={classes.ruleIcon} />
                  )}
                  <span>{t(rule.key, rule.values)}</span>
                  <span className={classes.visuallyHidden}>
                    {rule.isMet ? t('auth.changePassword.rules.met') : t('auth.changePassword.rules.notMet')}
                  </span>
                </li>
              ))}
            </ul>
          </div>
          <Button type="submit" fullWidth size="md" loading={isSaving}>
            {t('auth.changePassword.submit')}
          </Button>
          <Group justify="center">
            {isForced ? (
              <Button variant="subtle" color="gray" onClick={() => void handleLogout()}>
                {t('auth.logout')}
              </Button>
            ) : (
              <Button variant="subtle" color="gray" onClick={leave}>
                {t('auth.changePassword.cancel')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </AuthPage>
  );
}
