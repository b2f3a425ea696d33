import { Alert, Button, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { defaultRouteForRole, LOGIN_ROUTE, PRODUCT_NAME } from '@/lib/config.ts';
import { isHttpError } from '@/lib/http-client.ts';
import {
  consumeReturnTo,
  consumeSessionMessage,
  isSafeReturnPath,
  loadAuthContracts,
  login,
  selectAuth,
} from './auth-slice.ts';
import { AuthPage, FormErrorAlert } from './auth-page.tsx';
import classes from './auth-page.module.css';
import { useAuthDispatch, useAuthSelector } from './auth-hooks.ts';
import { describeFailure, type FieldErrors } from './login-failure.ts';

/** Client-side checks use the contract's login schema; messages come from i18n by field. */
async function validate(email: string, password: string): Promise<FieldErrors> {
  const { loginBodySchema } = await loadAuthContracts();
  const result = loginBodySchema.safeParse({ email, password });
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (field === 'email' && !errors.email)
      errors.email =
        email.trim() === '' ? 'auth.login.errors.emailRequired' : 'auth.login.errors.emailInvalid';
    if (field === 'password' && !errors.password) errors.password = 'auth.login.errors.passwordRequired';
  }
  return errors;
}

/** The login page: email and password, inline errors, a language switcher. No demo hint. */
export function LoginPage() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('auth.login.documentTitle')} · ${PRODUCT_NAME}`);
  const dispatch = useAuthDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const { sessionMessage, returnTo } = useAuthSelector(selectAuth);
  const [isLoading, setIsLoading] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<{ key: string; minutes?: number } | null>(null);
  // Why the last session ended, kept on the page until the next sign-in: a toast alone is gone in
  // 4 seconds, before many people have read it.
  const [lostSession, setLostSession] = useState<string | null>(() =>
    sessionMessage ? `session.${sessionMessage.reason}` : null,
  );
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  // The message stored when a session was lost is shown once, as a toast (spec §8).
  useEffect(() => {
    if (!sessionMessage) return;
    toast.error(t(`session.${sessionMessage.reason}`), { id: 'session-message' });
    void dispatch(consumeSessionMessage());
  }, [sessionMessage, dispatch, t]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    setLostSession(null);
    const errors = await validate(email, password);
    setFieldErrors(errors);
    if (errors.email) return emailRef.current?.focus();
    if (errors.password) return passwordRef.current?.focus();

    setIsLoading(true);
    const result = await dispatch(login({ email: email.trim(), password }));
    setIsLoading(false);
    if (login.fulfilled.match(result)) {
      const record = result.payload;
      const from: unknown =
        location.state && typeof location.state === 'object' && 'from' in location.state
          ? location.state.from
          : null;
      const target = [returnTo, from].find(
        (path) => isSafeReturnPath(path) && path !== LOGIN_ROUTE && path !== '/',
      );
      void dispatch(consumeReturnTo());
      toast.success(t('auth.login.welcome', { name: record.user.fullName || record.user.email }), {
        id: 'welcome',
      });
      void navigate(isSafeReturnPath(target) ? target : defaultRouteForRole(record.role), { replace: true });
      return;
    }
    const error = result.payload;
    const failure = isHttpError(error) ? describeFailure(error) : { form: 'auth.login.errors.server' };
    if (failure.fields) {
      setFieldErrors(failure.fields);
      if (failure.fields.email) emailRef.current?.focus();
      else passwordRef.current?.focus();
    }
    if (failure.form) setFormError({ key: failure.form, minutes: failure.retryMinutes });
  }

  return (
    <AuthPage>
      <Title order={1} className={classes.title}>
        {t('auth.login.title', { product: PRODUCT_NAME })}
      </Title>
      <Text c="dimmed" mb="lg">
        {t('auth.login.subtitle')}
      </Text>
      {/* The schemas load on the first focus in the form, ready before the first submit. */}
      <form
        onSubmit={(event) => void handleSubmit(event)}
        onFocus={() => void loadAuthContracts()}
        noValidate
      >
        <Stack gap="md">
          {lostSession && !formError ? (
            <Alert color="orange" variant="light" data-testid="session-lost">
              {t(lostSession)}
            </Alert>
          ) : null}
          {formError && (
            <FormErrorAlert title={t('auth.login.errors.title')}>
              {t(formError.key, { count: formError.minutes ?? 0 })}
            </FormErrorAlert>
          )}
          <TextInput
            ref={emailRef}
            type="email"
            name="email"
            label={t('auth.login.email')}
            placeholder={t('auth.login.emailPlaceholder')}
            autoComplete="username"
            required
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={fieldErrors.email ? t(fieldErrors.email) : undefined}
          />
          <PasswordInput
            ref={passwordRef}
            name="password"
            label={t('auth.login.password')}
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={fieldErrors.password ? t(fieldErrors.password) : undefined}
            visibilityToggleFocusable
            visibilityToggleButtonProps={{ 'aria-label': t('auth.login.showPassword') }}
          />
          <Button type="submit" fullWidth size="md" loading={isLoading}>
            {t('auth.login.submit')}
          </Button>
        </Stack>
      </form>
    </AuthPage>
  );
}
