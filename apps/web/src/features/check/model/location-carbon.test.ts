import type { CarbonSummary } from '@cm/contracts/check.ts';
import { describe, expect, it } from 'vitest';
import { locationCarbon } from './location-carbon.ts';

const carbon = (fields: Partial<CarbonSummary>): CarbonSummary => ({
  region: 'NL',
  emissions: 0,
  unknownConsumption: 0,
  unknownIntervals: 0,
  knownConsumption: 0,
  averageIntensity: null,
  cleanestConsumption: 0,
  rangedConsumption: 0,
  cleanestQuarterShare: null,
  avoidedEstimate: null,
  unknownExport: 0,
  ...fields,
});

const meter = (mainSupply: boolean, consumption: number | null, figures: CarbonSummary | null) => ({
  meter: { mainSupply },
  totals: { consumption },
  carbon: figures,
});

// docs/carbon.md's example meter (2.2 kg over 9.5 kWh, 3.5 kWh of it in the cleanest quarter) and a
// second meter of the same site: 0.9 kg over 4.5 kWh, 0.5 kWh in the cleanest quarter, 2 kWh unknown.
const a = carbon({
  emissions: 2.2,
  knownConsumption: 9.5,
  unknownConsumption: 1,
  unknownIntervals: 1,
  averageIntensity: 231.579,
  cleanestConsumption: 3.5,
  rangedConsumption: 9.5,
  cleanestQuarterShare: 0.368421,
});
const b = carbon({
  emissions: 0.9,
  knownConsumption: 4.5,
  unknownConsumption: 2,
  unknownIntervals: 3,
  averageIntensity: 200,
  cleanestConsumption: 0.5,
  rangedConsumption: 4.5,
  cleanestQuarterShare: 0.111111,
  avoidedEstimate: 0.25,
});

describe('a location’s carbon (issue 36)', () => {
  it('adds the meters’ parts when none is the main supply: 3.1 kg over 14 kWh, 4 of 14 kWh cleanest', () => {
    expect(locationCarbon([meter(false, 10.5, a), meter(false, 6.5, b)])).toEqual({
      basis: 'allMeters',
      count: 2,
      partial: null,
      carbon: {
        region: 'NL',
        emissions: 3.1,
        unknownConsumption: 3,
        unknownIntervals: 4,
        knownConsumption: 14,
        // 3,100 g / 14 kWh = 221.428571… g/kWh; 4 / 14 = 0.285714…
        averageIntensity: 221.429,
        cleanestConsumption: 4,
        rangedConsumption: 14,
        cleanestQuarterShare: 0.285714,
        avoidedEstimate: 0.25,
        unknownExport: 0,
      },
    });
  });

  it('is the main supply’s where one is marked, and counts only meters with data', () => {
    expect(locationCarbon([meter(true, 10.5, a), meter(false, 6.5, b)])?.carbon).toEqual(a);
    const partial = locationCarbon([meter(false, 10.5, a), meter(false, null, null)]);
    expect(partial).toMatchObject({ basis: 'allMeters', count: 2, partial: { known: 1 } });
    expect(partial?.carbon.emissions).toBe(2.2);
    expect(locationCarbon([meter(false, 10.5, null)])).toBeNull();
  });
});
