import {
  createDeviceBodySchema,
  updateDeviceBodySchema,
  updateMeterBodySchema,
  type AdminDevice,
  type CreateDeviceBody,
  type UpdateDeviceBody,
  type UpdateMeterBody,
} from '@cm/contracts/admin.ts';
import { DeviceType, type DevicePriorityId, type DeviceStatus } from '@cm/contracts/enums.ts';
import { toPriorityId } from '@/components/device-status.ts';
import { fieldErrors, typedNumber, type Issue } from '../forms/field-errors.ts';

/** The new-device form (an AccessPoint, or a Cube under one). */
export interface DeviceFormValues {
  type: typeof DeviceType.AccessPoint | typeof DeviceType.Cube;
  serial: string;
  /** The AccessPoint's id as the select holds it. */
  parentId: string | null;
  priority: DevicePriorityId;
  status: DeviceStatus;
}

/** The edit form: a device's serial and parent, or a meter's multiplier, and both's priority and status. */
export interface DeviceEditValues {
  serial: string;
  parentId: string | null;
  priority: DevicePriorityId;
  status: DeviceStatus;
  multiplier: number | string;
  /** A meter's name ("Apt C-101"); '' for other devices or none. */
  label: string;
  /** A meter measuring the location's whole supply; false for other devices. */
  mainSupply: boolean;
}

export type DeviceFormErrors = Partial<Record<'serial' | 'multiplier' | 'label', string>>;

const serialMessage = (issue: Issue) =>
  issue.code === 'too_big' ? 'admin.devices.form.serialTooLong' : 'admin.devices.form.serialRequired';

const idOf = (value: string | null) => (value === null || value === '' ? null : Number(value));

/** Checks a new AccessPoint or Cube against the contract; the body only when there is no error. */
export function validateNewDevice(
  values: DeviceFormValues,
  locationId: number,
): { errors: DeviceFormErrors; body: CreateDeviceBody | null } {
  const parsed = createDeviceBodySchema.safeParse({
    type: values.type,
    serial: values.serial,
    locationId,
    parentId: values.type === DeviceType.Cube ? idOf(values.parentId) : null,
    priority: values.priority,
    status: values.status,
  });
  if (parsed.success) return { errors: {}, body: parsed.data };
  return { errors: fieldErrors(parsed.error, ['serial'], (_, issue) => serialMessage(issue)), body: null };
}

/** What an edit sends: a meter's changes go to its meter number, a device's to its id. */
export type DeviceEdit =
  | { kind: 'meter'; meterNumber: string; body: UpdateMeterBody }
  | { kind: 'device'; id: number; body: UpdateDeviceBody };

/** The edit form filled from a device. */
export function deviceEditFrom(device: AdminDevice): DeviceEditValues {
  return {
    serial: device.serial,
    parentId: device.parentId === null ? null : String(device.parentId),
    priority: toPriorityId(device.priority),
    status: device.status,
    multiplier: device.meter?.multiplier ?? 1,
    label: device.meter?.label ?? '',
    mainSupply: device.meter?.mainSupply ?? false,
  };
}

/**
 * Checks an edit against the contract and keeps only what changed, so an edit never rewrites a
 * field someone else just changed. A meter's parent changes by moving it, not here.
 */
export function validateDeviceEdit(
  values: DeviceEditValues,
  device: AdminDevice,
): { errors: DeviceFormErrors; body: DeviceEdit | null } {
  const common = {
    ...(values.priority !== device.priority ? { priority: values.priority } : {}),
    ...(values.status !== device.status ? { status: values.status } : {}),
  };
  if (device.meter) {
    const multiplier = typedNumber(values.multiplier);
    const parsed = updateMeterBodySchema.safeParse({
      ...common,
      ...(multiplier !== device.meter.multiplier ? { multiplier } : {}),
      ...(values.label.trim() !== device.meter.label ? { label: values.label } : {}),
      ...(values.mainSupply !== device.meter.mainSupply ? { mainSupply: values.mainSupply } : {}),
    });
    if (parsed.success)
      return {
        errors: {},
        body: { kind: 'meter', meterNumber: device.meter.meterNumber, body: parsed.data },
      };
    return {
      errors: fieldErrors(parsed.error, ['multiplier', 'label'], (field) =>
        field === 'label' ? 'admin.meterForm.errors.label' : 'admin.meterForm.errors.multiplier',
      ),
      body: null,
    };
  }
  const serial = values.serial.trim();
  const parentId = idOf(values.parentId);
  const parsed = updateDeviceBodySchema.safeParse({
    ...(serial !== device.serial ? { serial: values.serial } : {}),
    ...(device.type === DeviceType.Cube && parentId !== device.parentId ? { parentId } : {}),
    ...common,
  });
  if (parsed.success) return { errors: {}, body: { kind: 'device', id: device.id, body: parsed.data } };
  return { errors: fieldErrors(parsed.error, ['serial'], (_, issue) => serialMessage(issue)), body: null };
}
