import type { AdminLocation } from '@cm/contracts/admin.ts';
import { describe, expect, it } from 'vitest';
import {
  locationFormFrom,
  timeZoneChange,
  toCreateLocationBody,
  toUpdateLocationBody,
  validateLocationForm,
} from './location-form-values.ts';

const location: AdminLocation = {
  id: 4,
  publicName: 'Block C / Apt 204',
  address: '1 Quay',
  timeZone: 'Europe/Berlin',
  billingDay: null,
  archivedAt: null,
  createdAt: '2026-01-01T00:00:00Z',
  meterCount: 2,
};

describe('location form', () => {
  it('needs a public name and a real IANA zone', () => {
    expect(
      validateLocationForm({ publicName: ' ', address: '', timeZone: 'Mars/Olympus', billingDay: '' }),
    ).toEqual({
      publicName: 'admin.locations.form.nameRequired',
      timeZone: 'admin.locations.form.timeZoneRequired',
    });
    expect(
      validateLocationForm({ publicName: 'A', address: '', timeZone: 'America/New_York', billingDay: '17' }),
    ).toEqual({});
    expect(
      validateLocationForm({
        publicName: 'x'.repeat(201),
        address: 'y'.repeat(501),
        timeZone: 'UTC',
        billingDay: '',
      }),
    ).toEqual({
      publicName: 'admin.locations.form.nameTooLong',
      address: 'admin.locations.form.addressTooLong',
    });
  });

  it('trims the body and sends only changes', () => {
    expect(
      toCreateLocationBody({
        publicName: ' Marina ',
        address: ' Pier 3 ',
        timeZone: 'UTC',
        billingDay: '17',
      }),
    ).toEqual({ publicName: 'Marina', address: 'Pier 3', timeZone: 'UTC', billingDay: 17 });
    expect(toUpdateLocationBody(locationFormFrom(location, 'UTC'), location)).toEqual({});
    expect(
      toUpdateLocationBody({ ...locationFormFrom(location, 'UTC'), timeZone: 'Europe/Lisbon' }, location),
    ).toEqual({ timeZone: 'Europe/Lisbon' });
    // The billing day: a day of the month, or none for calendar months.
    expect(
      toUpdateLocationBody({ ...locationFormFrom(location, 'UTC'), billingDay: '17' }, location),
    ).toEqual({
      billingDay: 17,
    });
    expect(
      toUpdateLocationBody(locationFormFrom({ ...location, billingDay: 17 }, 'UTC'), {
        ...location,
        billingDay: 17,
      }),
    ).toEqual({});
    expect(
      toUpdateLocationBody(
        { ...locationFormFrom(location, 'UTC'), billingDay: '' },
        { ...location, billingDay: 17 },
      ),
    ).toEqual({ billingDay: null });
  });
});

describe('changing a location’s time zone', () => {
  it('warns, for a location with meters, where its days begin now and how far midnight moves', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(timeZoneChange(location, 'America/New_York', now)).toEqual({
      meterCount: 2,
      from: { zone: 'Europe/Berlin', offset: '+01:00' },
      to: { zone: 'America/New_York', offset: '-05:00' },
      shiftMinutes: -360,
    });
    expect(timeZoneChange(location, 'Europe/Berlin', now)).toBeNull();
    expect(timeZoneChange({ ...location, meterCount: 0 }, 'America/New_York', now)).toBeNull();
    expect(timeZoneChange(null, 'America/New_York', now)).toBeNull();
    expect(timeZoneChange(location, 'Mars/Olympus', now)).toBeNull();
  });
});
