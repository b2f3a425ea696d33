import { describe, expect, it } from 'vitest';
import {
  coverageOf,
  locationNet,
  locationTotal,
  type MeterEnergy,
  type NetEnergy,
} from './location-total.ts';

const meter = (meterInd: number, consumption: number | null, mainSupply = false): MeterEnergy => ({
  meterInd,
  meter: { mainSupply },
  totals: { consumption, readings: 97, missingIntervals: 0 },
});

describe('locationTotal', () => {
  it('adds separate supplies and gives each meter its share', () => {
    // Three flats, each on its own supply: 1.5 + 2.5 + 6 = 10 kWh.
    const total = locationTotal([meter(1, 1.5), meter(2, 2.5), meter(3, 6)]);
    expect(total).toMatchObject({ basis: 'allMeters', consumption: 10, subMeters: null, unaccounted: null });
    expect([...total.shares]).toEqual([
      [1, 0.15],
      [2, 0.25],
      [3, 0.6],
    ]);
  });

  it('takes the main supply as the location and never adds its sub-meters to it', () => {
    // The library: 100 kWh at the main supply, 40 + 25 + 10 behind it, 25 nobody meters.
    const total = locationTotal([meter(1, 100, true), meter(2, 40), meter(3, 25), meter(4, 10)]);
    expect(total).toMatchObject({ basis: 'mainSupply', consumption: 100, subMeters: 75, unaccounted: 25 });
    expect(total.shares.get(1)).toBe(1);
    expect(total.shares.get(2)).toBe(0.4);
  });

  it('adds in whole watt-hours, so 0.1 + 0.2 is 0.3', () => {
    expect(locationTotal([meter(1, 0.1), meter(2, 0.2)]).consumption).toBe(0.3);
    expect(locationTotal([meter(1, 0.3, true), meter(2, 0.1)]).unaccounted).toBe(0.2);
  });

  it('says sub-meters reading more than the supply as a negative rest', () => {
    expect(locationTotal([meter(1, 10, true), meter(2, 12)]).unaccounted).toBe(-2);
  });

  it('gives a partial total, at least the sum of the meters with data (issue 34)', () => {
    // Elm Street Lofts, today: 15.264 + 23.214 = 38.478 kWh from 2 of 4 meters (two sent nothing).
    const total = locationTotal([meter(1, 15.264), meter(2, null), meter(3, 23.214), meter(4, null)]);
    expect(total.consumption).toBeNull();
    expect(total.atLeast).toEqual({ consumption: 38.478, known: 2, of: 4 });
    // Whole or empty: no partial total.
    expect(locationTotal([meter(1, 1), meter(2, 2)]).atLeast).toBeNull();
    expect(locationTotal([meter(1, null), meter(2, null)]).atLeast).toBeNull();
    // A main supply with data: the location's total is whole, whatever the sub-meters.
    expect(locationTotal([meter(1, 5, true), meter(2, null)]).atLeast).toBeNull();
  });

  it('knows no total when a counted meter has no known energy, and no share of nothing', () => {
    expect(locationTotal([meter(1, 5), meter(2, null)]).consumption).toBeNull();
    // An unknown sub-meter leaves the main supply's total known, the rest unknown.
    const withMain = locationTotal([meter(1, 5, true), meter(2, null)]);
    expect(withMain).toMatchObject({ consumption: 5, subMeters: null, unaccounted: null });
    expect(withMain.shares.get(2)).toBeNull();
    expect(locationTotal([meter(1, 0), meter(2, 0)]).shares.get(1)).toBeNull();
    expect(locationTotal([]).consumption).toBeNull();
  });
});

describe('coverageOf', () => {
  it('counts n − 1 intervals for n readings, over all the meters', () => {
    // 97 readings close 96 intervals: 96 + 96 present of 96 + 96 + 32 with 32 missing.
    const full = meter(1, 1);
    const holed = { ...meter(2, 1), totals: { consumption: 1, readings: 97, missingIntervals: 32 } };
    expect(coverageOf([full, { ...holed }])).toBeCloseTo(192 / 224, 12);
    expect(coverageOf([{ totals: { consumption: null, readings: 0, missingIntervals: 0 } }])).toBeNull();
  });
});

describe('locationNet', () => {
  const withChannels = (
    meterInd: number,
    imported: number | null,
    exported?: number | null,
  ): MeterEnergy & NetEnergy => ({
    ...meter(meterInd, imported),
    channel: 'import',
    channels: exported === undefined ? ['import'] : ['import', 'export'],
    totals: {
      consumption: imported,
      readings: 97,
      missingIntervals: 0,
      ...(exported === undefined ? {} : { other: { consumption: exported } }),
    },
  });

  it('counts a meter without an export channel as exporting nothing, not as unknown (issue 34.12)', () => {
    // Harbour View: the solar flat imports 10 kWh and exports 4; the other flat imports 3 and has
    // no export channel. The location exports 4 and its net is 13 − 4 = 9 kWh.
    expect(locationNet([withChannels(1, 10, 4), withChannels(2, 3)])).toEqual({ exported: 4, net: 9 });
  });

  it('has no net without any export channel, and an unknown one when an export is unknown', () => {
    expect(locationNet([withChannels(1, 10), withChannels(2, 3)])).toBeNull();
    expect(locationNet([withChannels(1, 10, null), withChannels(2, 3)])).toEqual({
      exported: null,
      net: null,
    });
  });
});
