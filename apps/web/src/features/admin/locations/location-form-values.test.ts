import type { AdminLocation } from '@cm/contracts/admin.ts';
import { describe, expect, it } from 'vitest';
import {
  locationFormFrom,
  toCreateLocationBody,
  toUpdateLocationBody,
  validateLocationForm,
} from './location-form-values.ts';

const location: AdminLocation = {
  id: 4,
  publicName: 'Block C / Apt 204',
  address: '1 Quay',
  timeZone: 'Europe/Berlin',
  archivedAt: null,
  createdAt: '2026-01-01T00:00:00Z',
  meterCount: 2,
};

describe('location form', () => {
  it('needs a public name and a real IANA zone', () => {
    expect(validateLocationForm({ publicName: ' ', address: '', timeZone: 'Mars/Olympus' })).toEqual({
      publicName: 'admin.locations.form.nameRequired',
      timeZone: 'admin.locations.form.timeZoneRequired',
    });
    expect(validateLocationForm({ publicName: 'A', address: '', timeZone: 'America/New_York' })).toEqual({});
    expect(
      validateLocationForm({ publicName: 'x'.repeat(201), address: 'y'.repeat(501), timeZone: 'UTC' }),
    ).toEqual({
      publicName: 'admin.locations.form.nameTooLong',
      address: 'admin.locations.form.addressTooLong',
    });
  });

  it('trims the body and sends only changes', () => {
    expect(toCreateLocationBody({ publicName: ' Marina ', address: ' Pier 3 ', timeZone: 'UTC' })).toEqual({
      publicName: 'Marina',
      address: 'Pier 3',
      timeZone: 'UTC',
    });
    expect(toUpdateLocationBody(locationFormFrom(location, 'UTC'), location)).toEqual({});
    expect(
      toUpdateLocationBody({ ...locationFormFrom(location, 'UTC'), timeZone: 'Europe/Lisbon' }, location),
    ).toEqual({ timeZone: 'Europe/Lisbon' });
  });
});
