import type { ChannelTotals, MeterInfo } from '@cm/contracts/check.ts';

/*
 * A location's energy from its meters (issue 17.5). Where a meter is marked as the main supply,
 * the location used what the main supply measured: the other meters are sub-meters behind it, so
 * adding them to it would count their energy twice. The rest of the main supply, beyond the
 * sub-meters, is the unaccounted use (loads nobody meters, losses; negative when a sub-meter reads
 * more than the supply, a sign of a fault or a wrong mark). Without a main supply, the location's
 * meters are separate supplies and the location used their sum.
 */

/** What a location total needs of each meter. */
export interface MeterEnergy {
  meterInd: number;
  meter: Pick<MeterInfo, 'mainSupply'>;
  totals: Pick<ChannelTotals, 'consumption' | 'readings' | 'missingIntervals'>;
}

export interface LocationTotal {
  /** `mainSupply`: the main supply meters measure the location; `allMeters`: their sum does. */
  basis: 'mainSupply' | 'allMeters';
  /** The location's energy; null when a meter it counts has no known energy. */
  consumption: number | null;
  /** `mainSupply` only: the sub-meters' sum (null when one is unknown). */
  subMeters: number | null;
  /** `mainSupply` only: main supply minus sub-meters (null when either is unknown). */
  unaccounted: number | null;
  /** Share of `consumption` per meter indicator (null when either is unknown or the total is 0). */
  shares: ReadonlyMap<number, number | null>;
  /** Share of the counted meters' intervals that have readings (1 = complete); null without intervals. */
  coverage: number | null;
  /**
   * When `consumption` is null because some counted meters have no data in the range while others
   * have: the sum of those that have, the location used at least that (`known` of `of` meters).
   */
  atLeast: { consumption: number; known: number; of: number } | null;
}

/** The meters a location's totals count, energy and cost alike: its main supplies, else all of them. */
export function countedMeters<T extends { meter: Pick<MeterInfo, 'mainSupply'> }>(
  meters: readonly T[],
): { basis: LocationTotal['basis']; counted: readonly T[] } {
  const mains = meters.filter((m) => m.meter.mainSupply);
  return mains.length > 0 ? { basis: 'mainSupply', counted: mains } : { basis: 'allMeters', counted: meters };
}

/**
 * Which counted meters a partial total adds up (issue 34: one meter without data left the energy
 * total "—" while the cost total was shown): those with data in the range, when some but not all
 * have; null when all have (the total is whole) or none has (there is no total).
 */
export function metersWithData<T extends { totals: Pick<ChannelTotals, 'consumption'> }>(
  counted: readonly T[],
): { known: readonly T[]; of: number } | null {
  const known = counted.filter((m) => m.totals.consumption !== null);
  return known.length > 0 && known.length < counted.length ? { known, of: counted.length } : null;
}

/** Energies are added in whole Wh, so that a total is the exact sum of what the rows show. */
const toWh = (kwh: number) => Math.round(kwh * 1000);

function sumOf(meters: readonly MeterEnergy[]): number | null {
  let wh = 0;
  for (const { totals } of meters) {
    if (totals.consumption === null) return null;
    wh += toWh(totals.consumption);
  }
  return wh / 1000;
}

/** Share of the meters' intervals with readings: n readings close n − 1 intervals. */
export function coverageOf(meters: readonly Pick<MeterEnergy, 'totals'>[]): number | null {
  let present = 0;
  let missing = 0;
  for (const { totals } of meters) {
    present += Math.max(0, totals.readings - 1);
    missing += totals.missingIntervals;
  }
  return present + missing === 0 ? null : present / (present + missing);
}

/** The location's energy from its meters' totals over one range. */
export function locationTotal(meters: readonly MeterEnergy[]): LocationTotal {
  const { basis, counted } = countedMeters(meters);
  const consumption = meters.length === 0 ? null : sumOf(counted);
  const partial = metersWithData(counted);
  const atLeast = partial
    ? { consumption: sumOf(partial.known) ?? 0, known: partial.known.length, of: partial.of }
    : null;
  const shares = new Map<number, number | null>();
  for (const { meterInd, totals } of meters) {
    const hasShare = consumption !== null && consumption !== 0 && totals.consumption !== null;
    shares.set(meterInd, hasShare ? toWh(totals.consumption ?? 0) / toWh(consumption) : null);
  }
  if (basis === 'allMeters')
    return {
      basis,
      consumption,
      subMeters: null,
      unaccounted: null,
      shares,
      coverage: coverageOf(counted),
      atLeast,
    };
  const subMeters = sumOf(meters.filter((m) => !m.meter.mainSupply));
  const unaccounted =
    consumption === null || subMeters === null ? null : (toWh(consumption) - toWh(subMeters)) / 1000;
  return { basis, consumption, subMeters, unaccounted, shares, coverage: coverageOf(counted), atLeast };
}

/** What a location's net needs of each meter: the answer's channel, the meter's channels, its totals. */
export interface NetEnergy {
  channel: 'import' | 'export';
  channels: readonly string[];
  totals: Pick<ChannelTotals, 'consumption'> & { other?: Pick<ChannelTotals, 'consumption'> | undefined };
}

/**
 * A meter's import, export and net (import − export): a meter without an export channel exports
 * nothing it could measure ('none', not unknown) and its net is its import; null: unknown.
 */
export function meterNet({ channel, channels, totals }: NetEnergy): {
  imported: number | null;
  exported: number | null | 'none';
  net: number | null;
} {
  const imported = channel === 'import' ? totals.consumption : (totals.other?.consumption ?? null);
  if (!channels.includes('export')) return { imported, exported: 'none', net: imported };
  const exported = channel === 'export' ? totals.consumption : (totals.other?.consumption ?? null);
  const net = imported === null || exported === null ? null : (toWh(imported) - toWh(exported)) / 1000;
  return { imported, exported, net };
}

/**
 * A location's export and net over its counted meters (issue 34.12), a meter without an export
 * channel counting as exporting nothing. Null when no counted meter has an export channel; null
 * figures when an energy is unknown.
 */
export function locationNet<T extends NetEnergy & { meter: Pick<MeterInfo, 'mainSupply'> }>(
  meters: readonly T[],
): { exported: number | null; net: number | null } | null {
  const { counted } = countedMeters(meters);
  if (!counted.some((m) => m.channels.includes('export'))) return null;
  let exportedWh = 0;
  let netWh = 0;
  let isNetKnown = true;
  for (const meter of counted) {
    const { exported, net } = meterNet(meter);
    if (exported === null) return { exported: null, net: null };
    if (exported !== 'none') exportedWh += toWh(exported);
    if (net === null) isNetKnown = false;
    else netWh += toWh(net);
  }
  return { exported: exportedWh / 1000, net: isNetKnown ? netWh / 1000 : null };
}
