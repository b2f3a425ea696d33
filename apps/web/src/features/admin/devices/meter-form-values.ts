import {
  createMeterBodySchema,
  exchangeMeterBodySchema,
  type CreateMeterBody,
  type ExchangeMeterBody,
} from '@cm/contracts/admin.ts';
import type { DevicePriorityId, DeviceStatus } from '@cm/contracts/enums.ts';
import { fieldErrors, typedNumber } from '../forms/field-errors.ts';
import { zonedLocalToIso } from '../zoned-time.ts';

/*
 * The meter forms' checks: the contract's schemas (as the server checks the body) and what only
 * the form knows (the meter's installation, its register digits, the clock), so a person gets an
 * answer next to the field at once. The server checks again, and knows what the browser cannot
 * (stored readings, other meters).
 */

/** Numbers as typed (Mantine's NumberInput gives a number, or '' when empty). */
type Typed = number | string;

export interface ExchangeFormValues {
  /** Wall-clock time at the location (`datetime-local`). */
  at: string;
  finalRegister: Typed;
  newMeterNumber: string;
  newStartRegister: Typed;
}

export type ExchangeFormErrors = Partial<Record<keyof ExchangeFormValues, string>>;

const exchangeFields = ['at', 'finalRegister', 'newMeterNumber', 'newStartRegister'] as const;

/** An exchange may be logged a few minutes ahead of the server's clock, not more. */
const CLOCK_SLACK_MS = 5 * 60_000;

/** Checks an exchange form; the body is built only when there is no error. */
export function validateExchange(
  values: ExchangeFormValues,
  context: {
    meterNumber: string;
    timeZone: string;
    registerDigits: number;
    installedAt: string;
    /** A meter with interval data only has no final register to give: the form does not ask it. */
    hasRegisterReadings: boolean;
    now: number;
  },
): { errors: ExchangeFormErrors; body: ExchangeMeterBody | null } {
  const parsed = exchangeMeterBodySchema.safeParse({
    at: zonedLocalToIso(values.at, context.timeZone) ?? '',
    ...(context.hasRegisterReadings ? { finalRegister: typedNumber(values.finalRegister) } : {}),
    newMeterNumber: values.newMeterNumber,
    newStartRegister: typedNumber(values.newStartRegister),
  });
  const errors: ExchangeFormErrors = parsed.success
    ? {}
    : fieldErrors(parsed.error, exchangeFields, (field, issue) => {
        if (field === 'at') return 'admin.exchange.errors.atRequired';
        if (field === 'newMeterNumber') return 'admin.exchange.errors.newMeterRequired';
        return issue.code === 'invalid_type'
          ? 'admin.exchange.errors.registerRequired'
          : 'admin.exchange.errors.registerRange';
      });
  // What the contract cannot know: the meter's installation, its register size, the clock.
  const at = zonedLocalToIso(values.at, context.timeZone);
  if (!errors.at && at !== null) {
    if (Date.parse(at) <= Date.parse(context.installedAt))
      errors.at = 'admin.exchange.errors.atBeforeInstall';
    else if (Date.parse(at) > context.now + CLOCK_SLACK_MS) errors.at = 'admin.exchange.errors.atFuture';
  }
  // The register wraps to 0 at 10^digits: a larger value is not one this meter can show.
  const limit = 10 ** context.registerDigits;
  for (const field of ['finalRegister', 'newStartRegister'] as const) {
    const value = typedNumber(values[field]);
    if (!errors[field] && value !== null && value >= limit)
      errors[field] = 'admin.exchange.errors.registerRange';
  }
  if (!errors.newMeterNumber && values.newMeterNumber.trim() === context.meterNumber)
    errors.newMeterNumber = 'admin.exchange.errors.sameMeter';
  const isValid = parsed.success && Object.keys(errors).length === 0;
  return { errors, body: isValid ? parsed.data : null };
}

export interface MeterFormValues {
  meterNumber: string;
  /** What people call it ("Apt C-101"); may stay empty. */
  label: string;
  /** Measures the location's whole supply (its other meters are sub-meters behind it). */
  mainSupply: boolean;
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

// The fields a person types; the selects (Cube, priority, status) offer valid values only.
const meterFields = [
  'meterNumber',
  'label',
  'meterInd',
  'multiplier',
  'registerDigits',
  'intervalMinutes',
  'installedAt',
] as const;

/** i18n keys of the new-meter form's problems (the meter number's depend on what is wrong). */
const meterMessages: Record<Exclude<(typeof meterFields)[number], 'meterNumber'>, string> = {
  label: 'admin.meterForm.errors.label',
  meterInd: 'admin.meterForm.errors.meterInd',
  multiplier: 'admin.meterForm.errors.multiplier',
  registerDigits: 'admin.meterForm.errors.registerDigits',
  intervalMinutes: 'admin.meterForm.errors.intervalMinutes',
  installedAt: 'admin.meterForm.errors.installedAt',
};

/** Checks a new meter; the body is built only when there is no error. */
export function validateNewMeter(
  values: MeterFormValues,
  context: { locationId: number; timeZone: string },
): { errors: MeterFormErrors; body: CreateMeterBody | null } {
  const parsed = createMeterBodySchema.safeParse({
    meterNumber: values.meterNumber,
    label: values.label,
    mainSupply: values.mainSupply,
    locationId: context.locationId,
    cubeId: values.cubeId === null || values.cubeId === '' ? null : Number(values.cubeId),
    meterInd: typedNumber(values.meterInd),
    multiplier: typedNumber(values.multiplier),
    registerDigits: typedNumber(values.registerDigits),
    intervalMinutes: typedNumber(values.intervalMinutes),
    installedAt: zonedLocalToIso(values.installedAt, context.timeZone) ?? '',
    priority: values.priority,
    status: values.status,
  });
  if (parsed.success) return { errors: {}, body: parsed.data };
  return {
    errors: fieldErrors(parsed.error, meterFields, (field, issue) => {
      if (field !== 'meterNumber') return meterMessages[field];
      return issue.code === 'too_big'
        ? 'admin.meterForm.errors.meterNumberTooLong'
        : 'admin.meterForm.errors.meterNumberRequired';
    }),
    body: null,
  };
}
