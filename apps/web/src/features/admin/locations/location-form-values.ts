import {
  createLocationBodySchema,
  type AdminLocation,
  type CreateLocationBody,
  type UpdateLocationBody,
} from '@cm/contracts/admin.ts';
import { isValidTimeZone } from '@cm/contracts/zoned-time.ts';
import { fieldErrors } from '../forms/field-errors.ts';

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
