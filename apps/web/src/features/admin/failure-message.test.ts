import { describe, expect, it } from 'vitest';
import { describeFailure, fieldFailure } from './failure-message.ts';

const failure = (
  status: number | 'NETWORK_ERROR',
  param: string | null = null,
  message: string | null = 'why',
) => ({ status, param, message });

describe('describeFailure', () => {
  it('names a taken email, name or meter number by its parameter', () => {
    expect(describeFailure(failure(409, 'email'), 'user').key).toBe('admin.errors.emailTaken');
    expect(describeFailure(failure(409, 'publicName')).key).toBe('admin.errors.nameTaken');
    expect(describeFailure(failure(409, 'newMeterNumber')).key).toBe('admin.errors.meterNumberTaken');
  });

  it('reads a 409 about a user without a parameter as the last administrator', () => {
    expect(describeFailure(failure(409), 'user')).toEqual({ key: 'admin.errors.lastAdmin', values: {} });
    expect(describeFailure(failure(409)).key).toBe('admin.errors.conflict');
  });

  it('keeps the server words as detail of a bad input', () => {
    expect(describeFailure(failure(400, 'at', 'at must be after the installation'))).toEqual({
      key: 'admin.errors.invalid',
      values: { detail: 'at must be after the installation' },
    });
  });

  it('never shows the API word "meterNumber": a file naming no meter asks for the meter number', () => {
    const noMeter = failure(
      400,
      'meterNumber',
      'This file names no meter: give the meterNumber its readings belong to.',
    );
    expect(describeFailure(noMeter)).toEqual({ key: 'admin.errors.meterNumberNeeded', values: {} });
  });

  it('has its own sentence for network loss, 403, 404 and anything else', () => {
    expect(describeFailure(failure('NETWORK_ERROR')).key).toBe('admin.errors.network');
    expect(describeFailure(failure(403)).key).toBe('admin.errors.forbidden');
    expect(describeFailure(failure(404)).key).toBe('admin.errors.notFound');
    expect(describeFailure(failure(500)).key).toBe('admin.errors.failed');
  });
});

describe('fieldFailure', () => {
  it('answers only for the field the server blamed', () => {
    expect(fieldFailure(failure(409, 'email'), ['email'], 'user')?.key).toBe('admin.errors.emailTaken');
    expect(fieldFailure(failure(409, 'email'), ['fullName'])).toBeNull();
    expect(fieldFailure(failure(409), ['email'])).toBeNull();
    expect(fieldFailure(null, ['email'])).toBeNull();
  });
});
