import type { CarbonSummary, MeterReadings } from '@cm/contracts/check.ts';
import { countedMeters, metersWithData } from './location-total.ts';

/** A location's carbon and which meters it counts (as its energy total does). */
export interface LocationCarbon {
  carbon: CarbonSummary;
  basis: 'mainSupply' | 'allMeters';
  /** Meters counted, and of them those with data when only some have (a partial figure). */
  count: number;
  partial: { known: number } | null;
}

/** Whole milligrams, so that sums of kg figures stay what they show. */
const mg = (kg: number) => Math.round(kg * 1e6);
const millionths = (kwh: number) => Math.round(kwh * 1e6);

/**
 * The carbon of a location's view, counted as its energy is (location-total.ts): the main supply's,
 * or the meters' together when none is marked. Emissions and energies add up; the average
 * intensity is the emissions over the energy of known intensity, and the cleanest share the energy
 * in the cleanest quarter over the energy in all of the range's intervals — the same region's
 * intervals for every meter of the location, so the meters' parts add up exactly. Null when no
 * counted meter with data has carbon figures.
 */
export function locationCarbon(
  meters: readonly (Pick<MeterReadings, 'carbon'> & {
    meter: Pick<MeterReadings['meter'], 'mainSupply'>;
    totals: Pick<MeterReadings['totals'], 'consumption'>;
  })[],
): LocationCarbon | null {
  const { basis, counted } = countedMeters(meters);
  const partial = metersWithData(counted);
  const withData = partial ? partial.known : counted.filter((m) => m.totals.consumption !== null);
  const parts = withData.flatMap((meter) => (meter.carbon ? [meter.carbon] : []));
  const [first] = parts;
  if (!first) return null;
  const sum = (pick: (carbon: CarbonSummary) => number, unit: (value: number) => number) =>
    parts.reduce((total, carbon) => total + unit(pick(carbon)), 0);
  const emitted = sum((c) => c.emissions, mg);
  const known = sum((c) => c.knownConsumption, millionths);
  const cleanest = sum((c) => c.cleanestConsumption, millionths);
  const ranged = sum((c) => c.rangedConsumption, millionths);
  const avoided = parts.filter((c) => c.avoidedEstimate !== null);
  return {
    basis,
    count: counted.length,
    partial: partial ? { known: partial.known.length } : null,
    carbon: {
      region: first.region,
      emissions: emitted / 1e6,
      unknownConsumption: sum((c) => c.unknownConsumption, millionths) / 1e6,
      unknownIntervals: parts.reduce((total, c) => total + c.unknownIntervals, 0),
      knownConsumption: known / 1e6,
      // g/kWh to the milligram, as the server rounds one meter's.
      averageIntensity: known > 0 ? Math.round((emitted / known) * 1e6) / 1000 : null,
      cleanestConsumption: cleanest / 1e6,
      rangedConsumption: ranged / 1e6,
      cleanestQuarterShare: ranged > 0 ? Math.round((cleanest / ranged) * 1e6) / 1e6 : null,
      avoidedEstimate:
        avoided.length === 0
          ? null
          : avoided.reduce((total, c) => total + mg(c.avoidedEstimate ?? 0), 0) / 1e6,
      unknownExport: sum((c) => c.unknownExport, millionths) / 1e6,
    },
  };
}
