import { describe, expect, it } from 'vitest';
import { validateExchange, validateNewMeter, type MeterFormValues } from './meter-form-values.ts';

const context = {
  meterNumber: 'EM-1',
  timeZone: 'Europe/Berlin',
  registerDigits: 6,
  installedAt: '2025-01-01T00:00:00Z',
  hasRegisterReadings: true,
  now: Date.parse('2026-06-01T12:00:00Z'),
};

describe('validateExchange', () => {
  it('builds the body with the instant in the location zone', () => {
    const result = validateExchange(
      { at: '2026-05-31T10:15', finalRegister: '1234,5', newMeterNumber: ' EM-2 ', newStartRegister: 0 },
      context,
    );
    expect(result.errors).toEqual({});
    expect(result.body).toEqual({
      at: '2026-05-31T10:15:00+02:00',
      finalRegister: 1234.5,
      newMeterNumber: 'EM-2',
      newStartRegister: 0,
    });
  });

  it('asks no final register of a meter with interval data only (issue 34.4)', () => {
    const result = validateExchange(
      { at: '2026-05-31T10:15', finalRegister: '', newMeterNumber: 'EM-2', newStartRegister: 0 },
      { ...context, hasRegisterReadings: false },
    );
    expect(result.errors).toEqual({});
    expect(result.body).toEqual({
      at: '2026-05-31T10:15:00+02:00',
      newMeterNumber: 'EM-2',
      newStartRegister: 0,
    });
  });

  it('refuses an instant before installation or in the future, the same meter and registers out of range', () => {
    expect(
      validateExchange(
        { at: '2024-12-31T10:00', finalRegister: '', newMeterNumber: 'EM-1', newStartRegister: 1_000_000 },
        context,
      ),
    ).toEqual({
      body: null,
      errors: {
        at: 'admin.exchange.errors.atBeforeInstall',
        finalRegister: 'admin.exchange.errors.registerRequired',
        newMeterNumber: 'admin.exchange.errors.sameMeter',
        newStartRegister: 'admin.exchange.errors.registerRange',
      },
    });
    expect(
      validateExchange(
        { at: '2026-06-02T10:00', finalRegister: 1, newMeterNumber: 'X', newStartRegister: 0 },
        context,
      ).errors,
    ).toEqual({
      at: 'admin.exchange.errors.atFuture',
    });
    expect(
      validateExchange({ at: '', finalRegister: -1, newMeterNumber: '', newStartRegister: 0 }, context)
        .errors,
    ).toEqual({
      at: 'admin.exchange.errors.atRequired',
      finalRegister: 'admin.exchange.errors.registerRange',
      newMeterNumber: 'admin.exchange.errors.newMeterRequired',
    });
  });
});

describe('validateNewMeter', () => {
  const values: MeterFormValues = {
    meterNumber: 'EM-77',
    label: ' Apt C-101 ',
    mainSupply: true,
    meterInd: 2,
    cubeId: '12',
    multiplier: 1,
    registerDigits: 6,
    intervalMinutes: 15,
    installedAt: '2026-01-01T00:00',
    priority: 1,
    status: 'active',
  };

  it('builds the body', () => {
    expect(validateNewMeter(values, { locationId: 3, timeZone: 'UTC' }).body).toEqual({
      meterNumber: 'EM-77',
      // The name people use (issue 17.5), trimmed.
      label: 'Apt C-101',
      mainSupply: true,
      locationId: 3,
      cubeId: 12,
      meterInd: 2,
      multiplier: 1,
      registerDigits: 6,
      intervalMinutes: 15,
      installedAt: '2026-01-01T00:00:00+00:00',
      priority: 1,
      status: 'active',
    });
  });

  it('names each field out of range', () => {
    const result = validateNewMeter(
      {
        ...values,
        meterNumber: '',
        label: 'x'.repeat(61),
        meterInd: 0,
        multiplier: 1.5,
        registerDigits: 13,
        intervalMinutes: '',
        installedAt: 'soon',
        cubeId: null,
      },
      { locationId: 3, timeZone: 'UTC' },
    );
    expect(result.body).toBeNull();
    expect(Object.keys(result.errors).sort()).toEqual([
      'installedAt',
      'intervalMinutes',
      'label',
      'meterInd',
      'meterNumber',
      'multiplier',
      'registerDigits',
    ]);
  });

  it("holds the contract's limits: up to 9 register digits, intervals up to 31 days", () => {
    const context = { locationId: 3, timeZone: 'UTC' };
    expect(validateNewMeter({ ...values, registerDigits: 10 }, context).errors).toEqual({
      registerDigits: 'admin.meterForm.errors.registerDigits',
    });
    expect(validateNewMeter({ ...values, intervalMinutes: 44_640 }, context).body?.intervalMinutes).toBe(
      44_640,
    );
    expect(validateNewMeter({ ...values, meterNumber: 'M'.repeat(65) }, context).errors).toEqual({
      meterNumber: 'admin.meterForm.errors.meterNumberTooLong',
    });
  });
});
