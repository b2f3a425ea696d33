import type { AdminLocation, CreateLocationBody, UpdateLocationBody } from '@cm/contracts/admin.ts';
import { isKnownTimeZone } from './time-zones.ts';

/** The location drawer's fields. */
export interface LocationFormValues {
  publicName: string;
  address: string;
  timeZone: string;
}

export type LocationFormErrors = Partial<Record<keyof LocationFormValues, string>>;

/** The form filled from a location, or empty with a default zone. */
export function locationFormFrom(location: AdminLocation | null, defaultZone: string): LocationFormValues {
  return location
    ? { publicName: location.publicName, address: location.address, timeZone: location.timeZone }
    : { publicName: '', address: '', timeZone: defaultZone };
}

/** What is wrong, as i18n keys. */
export function validateLocationForm(values: LocationFormValues): LocationFormErrors {
  const errors: LocationFormErrors = {};
  if (values.publicName.trim() === '') errors.publicName = 'admin.locations.form.nameRequired';
  else if (values.publicName.trim().length > 200) errors.publicName = 'admin.locations.form.nameTooLong';
  if (values.address.trim().length > 500) errors.address = 'admin.locations.form.addressTooLong';
  if (!isKnownTimeZone(values.timeZone)) errors.timeZone = 'admin.locations.form.timeZoneRequired';
  return errors;
}

/** The create body, trimmed. */
export function toCreateLocationBody(values: LocationFormValues): CreateLocationBody {
  return { publicName: values.publicName.trim(), address: values.address.trim(), timeZone: values.timeZone };
}

/** Only what changed. */
export function toUpdateLocationBody(values: LocationFormValues, before: AdminLocation): UpdateLocationBody {
  const body: UpdateLocationBody = {};
  if (values.publicName.trim() !== before.publicName) body.publicName = values.publicName.trim();
  if (values.address.trim() !== before.address) body.address = values.address.trim();
  if (values.timeZone !== before.timeZone) body.timeZone = values.timeZone;
  return body;
}
