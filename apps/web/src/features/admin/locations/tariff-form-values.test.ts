// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { Tariff } from '@cm/contracts/tariffs.ts';
import { newWindow, tariffFormFrom, toTariffBody, validateTariffForm } from './tariff-form-values.ts';

const latest: Tariff = {
  id: 3,
  locationId: 1,
  effectiveFrom: '2026-01-01',
  currency: 'EUR',
  energyPrice: '0.3',
  windows: [
    { label: 'night', price: '0.12', days: ['sat', 'sun'], from: '00:00', to: '07:00', months: [12, 1] },
  ],
  holidays: ['2026-12-25'],
  standingChargePerDay: '0.45',
  taxPercent: '19',
  feedInPrice: null,
  importSeries: null,
  exportSeries: null,
  demand: null,
  createdAt: '2026-01-01T00:00:00Z',
};

describe('tariff form', () => {
  it('starts from the latest version, from today; a first version from the start of the year', () => {
    const next = tariffFormFrom(latest, '2026-11-26');
    expect(next).toMatchObject({
      effectiveFrom: '2026-11-26',
      currency: 'EUR',
      energyPrice: '0.3',
      holidays: '2026-12-25',
    });
    expect(toTariffBody(next)).toEqual({
      effectiveFrom: '2026-11-26',
      currency: 'EUR',
      energyPrice: '0.3',
      standingChargePerDay: '0.45',
      taxPercent: '19',
      feedInPrice: null,
      importSeries: null,
      exportSeries: null,
      windows: [
        { label: 'night', price: '0.12', days: ['sat', 'sun'], from: '00:00', to: '07:00', months: [1, 12] },
      ],
      holidays: ['2026-12-25'],
      demand: null,
    });
    expect(tariffFormFrom(undefined, '2026-11-26').effectiveFrom).toBe('2026-01-01');
  });

  it('prices import from a series with its margin and tax, keeps it for the next version, and names what is wrong', () => {
    const dynamic = { ...tariffFormFrom(undefined, '2026-11-26'), energyPrice: '0.3' };
    const values = { ...dynamic, importSeriesId: '7', importMargin: '0,12', importTaxPercent: '19' };
    expect(toTariffBody(values).importSeries).toEqual({ seriesId: 7, margin: '0.12', taxPercent: '19' });
    expect(validateTariffForm(values)).toEqual({});
    expect(toTariffBody(dynamic).importSeries).toBeNull();
    const kept = tariffFormFrom(
      { ...latest, windows: [], importSeries: { seriesId: 7, margin: '0.12', taxPercent: '19' } },
      '2026-11-26',
    );
    expect(kept).toMatchObject({ importSeriesId: '7', importMargin: '0.12', importTaxPercent: '19' });
    expect(
      validateTariffForm({ ...values, importMargin: 'lots', windows: [{ ...newWindow(), price: '0.1' }] }),
    ).toEqual({
      importMargin: 'admin.tariffs.form.invalid.importMargin',
      windows: 'admin.tariffs.form.invalid.windowsWithSeries',
    });
  });

  it('pays export from a series in place of the feed-in price, keeps it, and names a wrong margin under export', () => {
    const base = { ...tariffFormFrom(undefined, '2026-11-26'), energyPrice: '0.3', feedInPrice: '0.05' };
    const values = { ...base, exportSeriesId: '9', exportMargin: '-0,01', exportTaxPercent: '0' };
    const body = toTariffBody(values);
    expect(body.exportSeries).toEqual({ seriesId: 9, margin: '-0.01', taxPercent: '0' });
    expect(body.importSeries).toBeNull();
    expect(validateTariffForm(values)).toEqual({});
    expect(toTariffBody(base).exportSeries).toBeNull();
    const kept = tariffFormFrom(
      { ...latest, exportSeries: { seriesId: 9, margin: '-0.01', taxPercent: '0' } },
      '2026-11-26',
    );
    expect(kept).toMatchObject({ exportSeriesId: '9', exportMargin: '-0.01', exportTaxPercent: '0' });
    expect(validateTariffForm({ ...values, exportMargin: 'lots' })).toEqual({
      exportMargin: 'admin.tariffs.form.invalid.importMargin',
    });
  });

  it('sends demand settings only with a demand or capacity price, and names what a setting needs', () => {
    const none = tariffFormFrom(latest, '2026-11-26');
    expect(toTariffBody({ ...none, demandRatchetPercent: '80' }).demand).toMatchObject({
      pricePerKw: null,
      ratchetPercent: '80',
    });
    expect(toTariffBody({ ...none, demandRatchetPercent: '' }).demand).toBeNull();
    // A ratchet without a price per kW: the ratchet's field says it needs one.
    expect(validateTariffForm({ ...none, capacityPricePerKwYear: '40', demandRatchetPercent: '80' })).toEqual(
      {
        demandRatchetPercent: 'admin.tariffs.form.invalid.demandNeedsPricePerKw',
      },
    );
    const onPeak = {
      ...none,
      demandPricePerKw: '12,5',
      demandIntervalMinutes: '30',
      demandWindowFrom: '14:00',
      demandWindowTo: '19:00',
      demandRatchetPercent: '120',
    };
    expect(validateTariffForm(onPeak)).toEqual({
      demandRatchetPercent: 'admin.tariffs.form.invalid.demandRatchetPercent',
    });
    expect(toTariffBody({ ...onPeak, demandRatchetPercent: '80' }).demand).toEqual({
      intervalMinutes: 30,
      pricePerKw: '12.5',
      window: { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '14:00', to: '19:00' },
      ratchetPercent: '80',
      capacityPricePerKwYear: null,
      capacityFloorKw: '2.5',
    });
  });

  it('reads decimal commas and lists of dates as people type them', () => {
    const values = {
      ...tariffFormFrom(latest, '2026-11-26'),
      energyPrice: ' 0,2875 ',
      feedInPrice: '0,08',
      holidays: '2026-12-25, 2026-12-26\n2027-01-01',
    };
    expect(toTariffBody(values)).toMatchObject({
      energyPrice: '0.2875',
      feedInPrice: '0.08',
      holidays: ['2026-12-25', '2026-12-26', '2027-01-01'],
    });
  });

  it('names what is wrong, per field and for overlapping windows', () => {
    const base = tariffFormFrom(latest, '2026-11-26');
    expect(validateTariffForm({ ...base, energyPrice: 'cheap', effectiveFrom: '' })).toEqual({
      effectiveFrom: 'admin.tariffs.form.invalid.effectiveFrom',
      energyPrice: 'admin.tariffs.form.invalid.energyPrice',
    });
    expect(validateTariffForm({ ...base, windows: [{ ...newWindow(), price: '' }] })).toEqual({
      windows: 'admin.tariffs.form.invalid.windows',
    });
    const peak = { ...newWindow(), price: '0.5' };
    expect(validateTariffForm({ ...base, windows: [peak, { ...peak, from: '19:00', to: '21:00' }] })).toEqual(
      {
        windows: 'admin.tariffs.form.invalid.overlap',
      },
    );
    expect(validateTariffForm(base)).toEqual({});
  });
});
