import { userRecordSchema } from '@cm/contracts/auth.ts';
import { errorBodySchema } from '@cm/contracts/errors.ts';
import { describe, expect, it } from 'vitest';
import { isErrorBody, isUserRecord } from './contract-guards.ts';

const record = {
  user: { id: 1, email: 'admin@demo.cm', fullName: 'Dana', role: 1, mustChangePassword: false },
  isLoggedIn: true,
  token: 't',
  role: 1,
  tokenExpiresAt: 1_900_000_000_000,
  ability: [{ action: 'manage', subject: 'all' }],
};

describe('contract guards agree with the contract schemas', () => {
  const records: unknown[] = [
    record,
    { ...record, ability: [] },
    { ...record, role: 3 },
    { ...record, isLoggedIn: false },
    { ...record, token: 5 },
    { ...record, tokenExpiresAt: 1.5 },
    { ...record, ability: [{ action: 'fly', subject: 'all' }] },
    { ...record, ability: [{ action: 'read', subject: 'Moon' }] },
    { ...record, ability: 'all' },
    { ...record, user: { ...record.user, role: 0 } },
    { ...record, user: { ...record.user, mustChangePassword: 'no' } },
    { ...record, user: null },
    null,
    'userData',
    [],
  ];
  it.each(records.map((value, index) => [index, value]))('user record #%i', (_, value) => {
    expect(isUserRecord(value)).toBe(userRecordSchema.safeParse(value).success);
  });

  const bodies: unknown[] = [
    { statusCode: 401, error: 'Unauthorized', message: 'x' },
    { statusCode: 400, error: 'Bad Request', message: 'q is required.', param: 'q' },
    { statusCode: 400, error: 'Bad Request', message: 'x', param: 3 },
    { statusCode: '400', error: 'Bad Request', message: 'x' },
    { statusCode: 500, error: 'x' },
    'oops',
    null,
  ];
  it.each(bodies.map((value, index) => [index, value]))('error body #%i', (_, value) => {
    expect(isErrorBody(value)).toBe(errorBodySchema.safeParse(value).success);
  });
});
