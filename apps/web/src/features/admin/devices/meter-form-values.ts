import type { CreateMeterBody, ExchangeMeterBody } from '@cm/contracts/admin.ts';
import type { DevicePriorityId, DeviceStatus } from '@cm/contracts/enums.ts';
import { zonedLocalToIso } from './zoned-time.ts';

/*
 * The meter forms' checks, done before the server sees them so a person gets an answer next
 * to the field at once. The server checks again (and knows what the browser cannot: stored
 * readings, other meters).
 */

/** Numbers as typed (Mantine's NumberInput gives a number, or '' when empty). */
type Typed = number | string;

function asNumber(value: Typed): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const text = value.trim().replace(',', '.');
  if (text === '') return null;
  const parsed = Number(text);
  return Number.isFinite(parsed) ? parsed : null;
}

function isWhole(value: number | null, min: number, max: number): value is number {
  return value !== null && Number.isInteger(value) && value >= min && value <= max;
}

/** The largest register a meter with this many digits shows, plus one thousandth (where it rolls over). */
function registerLimit(digits: number): number {
  return 10 ** digits;
}

export interface ExchangeFormValues {
  /** Wall-clock time at the location (`datetime-local`). */
  at: string;
  finalRegister: Typed;
  newMeterNumber: string;
  newStartRegister: Typed;
}

export type ExchangeFormErrors = Partial<Record<keyof ExchangeFormValues, string>>;

/** Checks an exchange form; the body is built only when there is no error. */
export function validateExchange(
  values: ExchangeFormValues,
  context: {
    meterNumber: string;
    timeZone: string;
    registerDigits: number;
    installedAt: string;
    now: number;
  },
): { errors: ExchangeFormErrors; body: ExchangeMeterBody | null } {
  const errors: ExchangeFormErrors = {};
  const at = zonedLocalToIso(values.at, context.timeZone);
  if (at === null) errors.at = 'admin.exchange.errors.atRequired';
  else if (Date.parse(at) <= Date.parse(context.installedAt))
    errors.at = 'admin.exchange.errors.atBeforeInstall';
  else if (Date.parse(at) > context.now + 5 * 60_000) errors.at = 'admin.exchange.errors.atFuture';
  const finalRegister = asNumber(values.finalRegister);
  if (finalRegister === null) errors.finalRegister = 'admin.exchange.errors.registerRequired';
  else if (finalRegister < 0 || finalRegister >= registerLimit(context.registerDigits))
    errors.finalRegister = 'admin.exchange.errors.registerRange';
  const newStartRegister = asNumber(values.newStartRegister);
  if (newStartRegister === null) errors.newStartRegister = 'admin.exchange.errors.registerRequired';
  else if (newStartRegister < 0 || newStartRegister >= registerLimit(context.registerDigits))
    errors.newStartRegister = 'admin.exchange.errors.registerRange';
  const newMeterNumber = values.newMeterNumber.trim();
  if (newMeterNumber === '') errors.newMeterNumber = 'admin.exchange.errors.newMeterRequired';
  else if (newMeterNumber === context.meterNumber) errors.newMeterNumber = 'admin.exchange.errors.sameMeter';
  if (Object.keys(errors).length > 0 || at === null || finalRegister === null || newStartRegister === null)
    return { errors, body: null };
  return { errors, body: { at, finalRegister, newMeterNumber, newStartRegister } };
}

export interface MeterFormValues {
  meterNumber: string;
  meterInd: Typed;
  cubeId: string | null;
  multiplier: Typed;
  registerDigits: Typed;
  intervalMinutes: Typed;
  installedAt: string;
  priority: DevicePriorityId;
  status: DeviceStatus;
}

export type MeterFormErrors = Partial<Record<keyof MeterFormValues, string>>;

/** Checks a new meter; the body is built only when there is no error. */
export function validateNewMeter(
  values: MeterFormValues,
  context: { locationId: number; timeZone: string },
): { errors: MeterFormErrors; body: CreateMeterBody | null } {
  const errors: MeterFormErrors = {};
  const meterNumber = values.meterNumber.trim();
  if (meterNumber === '') errors.meterNumber = 'admin.meterForm.errors.meterNumberRequired';
  else if (meterNumber.length > 64) errors.meterNumber = 'admin.meterForm.errors.meterNumberTooLong';
  const meterInd = asNumber(values.meterInd);
  if (!isWhole(meterInd, 1, 9999)) errors.meterInd = 'admin.meterForm.errors.meterInd';
  const multiplier = asNumber(values.multiplier);
  if (!isWhole(multiplier, 1, 1_000_000)) errors.multiplier = 'admin.meterForm.errors.multiplier';
  const registerDigits = asNumber(values.registerDigits);
  if (!isWhole(registerDigits, 3, 12)) errors.registerDigits = 'admin.meterForm.errors.registerDigits';
  const intervalMinutes = asNumber(values.intervalMinutes);
  if (!isWhole(intervalMinutes, 1, 1440)) errors.intervalMinutes = 'admin.meterForm.errors.intervalMinutes';
  const installedAt = zonedLocalToIso(values.installedAt, context.timeZone);
  if (installedAt === null) errors.installedAt = 'admin.meterForm.errors.installedAt';
  const cubeId = values.cubeId === null || values.cubeId === '' ? null : Number(values.cubeId);
  if (
    Object.keys(errors).length > 0 ||
    !isWhole(meterInd, 1, 9999) ||
    !isWhole(multiplier, 1, 1_000_000) ||
    !isWhole(registerDigits, 3, 12) ||
    !isWhole(intervalMinutes, 1, 1440) ||
    installedAt === null
  ) {
    return { errors, body: null };
  }
  return {
    errors,
    body: {
      meterNumber,
      locationId: context.locationId,
      cubeId,
      meterInd,
      multiplier,
      registerDigits,
      intervalMinutes,
      installedAt,
      priority: values.priority,
      status: values.status,
    },
  };
}
