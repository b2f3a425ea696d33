import { describe, expect, it } from 'vitest';
import { initialImportValues, toImportRequest } from './series-import-values.ts';

describe('series import values', () => {
  it('makes a new price series of the typed fields, the currency in capitals', () => {
    const values = {
      ...initialImportValues('Europe/Berlin'),
      name: ' DE-LU day-ahead ',
      intervalMinutes: '15',
      currency: 'eur',
      zone: 'DE-LU',
    };
    expect(toImportRequest(values)).toEqual({
      request: {
        kind: 'price',
        draft: {
          name: 'DE-LU day-ahead',
          intervalMinutes: 15,
          unit: 'MWh',
          currency: 'EUR',
          timeZone: 'Europe/Berlin',
          zone: 'DE-LU',
        },
      },
    });
  });

  it('names each wrong field of a new series', () => {
    const values = { ...initialImportValues('Nowhere/Atlantis'), currency: 'euro', intervalMinutes: '20' };
    expect(toImportRequest(values)).toEqual({
      errors: {
        name: 'admin.series.errors.name',
        intervalMinutes: 'admin.series.errors.intervalMinutes',
        timeZone: 'admin.series.errors.timeZone',
        currency: 'admin.series.errors.currency',
        zone: 'admin.series.errors.zone',
      },
    });
  });

  it('makes a carbon series with its region, and takes an existing series by id', () => {
    const carbon = {
      ...initialImportValues('Europe/Lisbon'),
      kind: 'carbon' as const,
      name: 'PT',
      region: 'PT',
    };
    expect(toImportRequest(carbon)).toEqual({
      request: {
        kind: 'carbon',
        draft: { name: 'PT', intervalMinutes: 60, timeZone: 'Europe/Lisbon', region: 'PT' },
      },
    });
    expect(toImportRequest({ ...carbon, target: '7' })).toEqual({ request: { kind: 'carbon', id: 7 } });
  });
});
