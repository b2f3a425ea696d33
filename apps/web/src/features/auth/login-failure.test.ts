import { describe, expect, it } from 'vitest';
import type { HttpError } from '@/lib/http-client.ts';
import en from '../../../public/locales/en.json';
import { describeFailure } from './login-failure.ts';

const failure = (status: HttpError['status'], message: string): HttpError => ({
  status,
  body: typeof status === 'number' ? { statusCode: status, error: 'Error', message } : null,
  retryAfterSeconds: null,
  isSessionLoss: false,
});

describe('describeFailure (issue 34)', () => {
  it('says a disabled account is disabled, and a wrong password is wrong', () => {
    const disabled = describeFailure(
      failure(403, 'This account is disabled. Ask an administrator to enable it.'),
    );
    expect(disabled).toEqual({ form: 'auth.login.errors.disabled' });
    expect(en[disabled.form as keyof typeof en]).toBe(
      'This account is disabled. Ask an administrator to enable it.',
    );
    expect(describeFailure(failure(401, 'Email or password is incorrect.'))).toEqual({
      form: 'auth.login.errors.invalidCredentials',
    });
  });
});
