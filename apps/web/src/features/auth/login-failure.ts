import type { HttpError } from '@/lib/http-client.ts';

type Field = 'email' | 'password';
/** An i18n key per login field. */
export type FieldErrors = Partial<Record<Field, string>>;

/** The message to show for a failed login, by meaning (never the server's raw English text). */
export function describeFailure(error: HttpError): {
  form?: string;
  fields?: FieldErrors;
  retryMinutes?: number;
} {
  if (error.status === 400 && (error.body?.param === 'email' || error.body?.param === 'password')) {
    const field = error.body.param;
    return {
      fields: {
        [field]: field === 'email' ? 'auth.login.errors.emailInvalid' : 'auth.login.errors.passwordInvalid',
      },
    };
  }
  if (error.status === 400) return { form: 'auth.login.errors.badRequest' };
  if (error.status === 401) return { form: 'auth.login.errors.invalidCredentials' };
  // The right password of a disabled account (issue 34): said so, not "incorrect".
  if (error.status === 403) return { form: 'auth.login.errors.disabled' };
  if (error.status === 429) {
    const minutes =
      error.retryAfterSeconds === null ? undefined : Math.max(1, Math.ceil(error.retryAfterSeconds / 60));
    return {
      form: minutes === undefined ? 'auth.login.errors.throttled' : 'auth.login.errors.throttledFor',
      retryMinutes: minutes,
    };
  }
  if (error.status === 'NETWORK_ERROR') return { form: 'auth.login.errors.network' };
  return { form: 'auth.login.errors.server' };
}
