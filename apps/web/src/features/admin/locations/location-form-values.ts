import {
  createLocationBodySchema,
  type AdminLocation,
  type CreateLocationBody,
  type UpdateLocationBody,
} from '@cm/contracts/admin.ts';
import { formatOffset, isValidTimeZone, MINUTE_MS, utcOffsetMs } from '@cm/contracts/zoned-time.ts';
import { fieldErrors } from '../forms/field-errors.ts';

/** The location drawer's fields. */
export interface LocationFormValues {
  publicName: string;
  address: string;
  timeZone: string;
  /** '' for calendar months, else the day of the month a bill starts ('1' … '28'). */
  billingDay: string;
}

export type LocationFormErrors = Partial<Record<keyof LocationFormValues, string>>;

/** The form filled from a location, or empty with a default zone. */
export function locationFormFrom(location: AdminLocation | null, defaultZone: string): LocationFormValues {
  return location
    ? {
        publicName: location.publicName,
        address: location.address,
        timeZone: location.timeZone,
        billingDay: location.billingDay === null ? '' : String(location.billingDay),
      }
    : { publicName: '', address: '', timeZone: defaultZone, billingDay: '' };
}

const fields = ['publicName', 'address', 'timeZone'] as const;

/** What is wrong, as i18n keys: the contract's checks, and a zone this browser (and the server) knows. */
export function validateLocationForm(values: LocationFormValues): LocationFormErrors {
  const parsed = createLocationBodySchema.safeParse(toCreateLocationBody(values));
  const errors: LocationFormErrors = parsed.success
    ? {}
    : fieldErrors(parsed.error, fields, (field, issue) => {
        if (field === 'publicName')
          return issue.code === 'too_big'
            ? 'admin.locations.form.nameTooLong'
            : 'admin.locations.form.nameRequired';
        if (field === 'address') return 'admin.locations.form.addressTooLong';
        return 'admin.locations.form.timeZoneRequired';
      });
  if (!errors.timeZone && !isValidTimeZone(values.timeZone))
    errors.timeZone = 'admin.locations.form.timeZoneRequired';
  return errors;
}

const billingDayOf = (values: LocationFormValues) =>
  values.billingDay === '' ? null : Number(values.billingDay);

/** The create body, trimmed. */
export function toCreateLocationBody(values: LocationFormValues): CreateLocationBody {
  return {
    publicName: values.publicName.trim(),
    address: values.address.trim(),
    timeZone: values.timeZone,
    billingDay: billingDayOf(values),
  };
}

/** Only what changed. */
export function toUpdateLocationBody(values: LocationFormValues, before: AdminLocation): UpdateLocationBody {
  const body: UpdateLocationBody = {};
  if (values.publicName.trim() !== before.publicName) body.publicName = values.publicName.trim();
  if (values.address.trim() !== before.address) body.address = values.address.trim();
  if (values.timeZone !== before.timeZone) body.timeZone = values.timeZone;
  if (billingDayOf(values) !== before.billingDay) body.billingDay = billingDayOf(values);
  return body;
}

/** What a new time zone changes for a location that has meters: where its days begin, now. */
export interface TimeZoneChange {
  meterCount: number;
  from: { zone: string; offset: string };
  to: { zone: string; offset: string };
  /** How far local midnight moves, in minutes (positive: the day starts earlier in UTC). */
  shiftMinutes: number;
}

/**
 * The warning before a location's time zone changes (issue 17.16): its readings stay as they are
 * but every day, week and month of them is counted from another midnight. Null for a new
 * location, one without meters, or the same zone (or one not yet valid).
 */
export function timeZoneChange(
  location: AdminLocation | null,
  zone: string,
  nowMs: number,
): TimeZoneChange | null {
  if (!location || location.meterCount === 0 || zone === location.timeZone || !isValidTimeZone(zone))
    return null;
  const offsetOf = (name: string) => Math.round(utcOffsetMs(nowMs, name) / MINUTE_MS);
  const before = offsetOf(location.timeZone);
  const after = offsetOf(zone);
  return {
    meterCount: location.meterCount,
    from: { zone: location.timeZone, offset: formatOffset(before) },
    to: { zone, offset: formatOffset(after) },
    shiftMinutes: after - before,
  };
}
