import type { AdminDevice } from '@cm/contracts/admin.ts';
import { describe, expect, it } from 'vitest';
import { deviceEditFrom, validateDeviceEdit, validateNewDevice } from './device-form-values.ts';

const cube: AdminDevice = {
  id: 12,
  type: 2,
  serial: 'CU-1',
  parentId: 3,
  parentSerial: 'AP-1',
  locationId: 4,
  locationName: 'Marina',
  priority: 3,
  priorityLabel: 'Medium',
  status: 'active',
  lastSeenAt: null,
  meter: null,
};
const meter: AdminDevice = {
  ...cube,
  id: 20,
  type: 3,
  serial: 'EM-1',
  parentId: 12,
  meter: {
    meterNumber: 'EM-1',
    label: '',
    mainSupply: false,
    meterInd: 1,
    multiplier: 40,
    unit: 'kWh',
    registerDigits: 6,
    intervalMinutes: 15,
    installedAt: '2026-01-01T00:00:00Z',
    removedAt: null,
    hasRegisterReadings: true,
  },
};

describe('validateNewDevice', () => {
  const values = {
    type: 2 as const,
    serial: ' CU-9 ',
    parentId: '3',
    priority: 1 as const,
    status: 'active' as const,
  };

  it('builds the body with the serial trimmed and the parent of a Cube only', () => {
    expect(validateNewDevice(values, 4)).toEqual({
      errors: {},
      body: { type: 2, serial: 'CU-9', locationId: 4, parentId: 3, priority: 1, status: 'active' },
    });
    expect(validateNewDevice({ ...values, type: 1 }, 4).body?.parentId).toBeNull();
  });

  it('asks for a serial, and one of at most 64 characters', () => {
    expect(validateNewDevice({ ...values, serial: ' ' }, 4)).toEqual({
      errors: { serial: 'admin.devices.form.serialRequired' },
      body: null,
    });
    expect(validateNewDevice({ ...values, serial: 'S'.repeat(65) }, 4).errors).toEqual({
      serial: 'admin.devices.form.serialTooLong',
    });
  });
});

describe('validateDeviceEdit', () => {
  it('sends only what changed, to the device or to the meter', () => {
    expect(validateDeviceEdit(deviceEditFrom(cube), cube)).toEqual({
      errors: {},
      body: { kind: 'device', id: 12, body: {} },
    });
    expect(
      validateDeviceEdit({ ...deviceEditFrom(cube), parentId: null, status: 'faulty' }, cube).body,
    ).toEqual({
      kind: 'device',
      id: 12,
      body: { parentId: null, status: 'faulty' },
    });
    expect(validateDeviceEdit({ ...deviceEditFrom(meter), multiplier: 60 }, meter).body).toEqual({
      kind: 'meter',
      meterNumber: 'EM-1',
      body: { multiplier: 60 },
    });
  });

  it('refuses an empty serial and a multiplier the contract refuses', () => {
    expect(validateDeviceEdit({ ...deviceEditFrom(cube), serial: '' }, cube).errors).toEqual({
      serial: 'admin.devices.form.serialRequired',
    });
    for (const multiplier of ['', 0, 1.5])
      expect(validateDeviceEdit({ ...deviceEditFrom(meter), multiplier }, meter)).toEqual({
        errors: { multiplier: 'admin.meterForm.errors.multiplier' },
        body: null,
      });
  });
});
