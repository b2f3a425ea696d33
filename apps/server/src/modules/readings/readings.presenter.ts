// The engine's results as the contract words them: millionths become units (kWh), instants ISO
// 8601 strings, events sentences for API consumers (the web app words them itself from `type`).

import type {
  CarbonSummary,
  Channel,
  ChannelTotals,
  DemandPeak,
  Gap,
  MeterReadings,
  Period,
  ReadingEvent,
  ReadingQuality,
} from '@cm/contracts/check.ts';
import { isoInZone } from '@cm/contracts/zoned-time.ts';
import type { ChannelEvent, ChannelTotals as EngineTotals } from './engine/channel.ts';
import type { ComputedChannel, ReadingsComputation, SeriesColumns } from './engine/compute.ts';
import { StepFlag } from './engine/steps.ts';
import type { Peak } from './engine/demand.ts';

const units = (micro: number) => micro / 1e6;
const unitsOrNull = (micro: number | null) => (micro === null || Number.isNaN(micro) ? null : units(micro));
const iso = (ms: number) => new Date(ms).toISOString();

function qualityOf(flags: number): ReadingQuality {
  if (flags & StepFlag.substituted) return 'substituted';
  if (flags & StepFlag.estimated) return 'estimated';
  return 'actual';
}

/** A peak as the contract words it: kW, UTC instants, and the local start in `timeZone`. */
export function presentPeak(peak: Peak, timeZone: string): DemandPeak {
  return {
    kW: units(peak.power),
    from: iso(peak.fromMs),
    to: iso(peak.toMs),
    localFrom: isoInZone(peak.fromMs, timeZone),
    isAtLeast: peak.isAtLeast,
  };
}

function presentTotals(totals: EngineTotals, coveredDays: number, timeZone: string): ChannelTotals {
  return {
    consumption: unitsOrNull(totals.consumption),
    registerStart: unitsOrNull(totals.registerStart),
    registerEnd: unitsOrNull(totals.registerEnd),
    registerDifference: unitsOrNull(totals.registerDifference),
    intervalSum: units(totals.intervalSum),
    gapConsumption: units(totals.gapConsumption),
    estimatedConsumption: units(totals.estimatedConsumption),
    agrees: totals.agrees,
    disagreement: units(totals.disagreement),
    peak: totals.peak ? { consumption: units(totals.peak.energy), at: iso(totals.peak.atMs) } : null,
    demand: totals.demand ? presentPeak(totals.demand, timeZone) : null,
    // Not before a whole day has data: three night hours scaled to 24 would mislead.
    averagePerDay:
      totals.consumption !== null && coveredDays >= 1
        ? units(Math.round(totals.consumption / coveredDays))
        : null,
    dataEnd: totals.dataEndMs === null ? null : iso(totals.dataEndMs),
    readings: totals.readings,
    missingIntervals: totals.missingIntervals,
  };
}

function describe(event: ChannelEvent): string {
  switch (event.type) {
    case 'rollover':
      return `The register went from ${units(event.a)} to ${units(event.b)}: it rolled over past its last digit.`;
    case 'registerDecrease':
      return `The register went down from ${units(event.a)} to ${units(event.b)}; the energy of this interval is unknown.`;
    case 'meterExchange': {
      const old = `Meter ${event.previousMeterNumber ?? '?'}${Number.isNaN(event.a) ? '' : ` (last register ${units(event.a)})`}`;
      const first = Number.isNaN(event.b) ? '' : ` (first register ${units(event.b)})`;
      return `${old} was replaced by meter ${event.meterNumber}${first}.`;
    }
    case 'estimated':
    case 'substituted':
    case 'corrected': {
      const what = event.type === 'corrected' ? 'corrected (an earlier value was replaced)' : event.type;
      return event.a === 1
        ? `This value is ${what}.`
        : `${event.a} consecutive values are ${what}, up to ${iso(event.b)}.`;
    }
  }
}

function listsOf(channel: ComputedChannel) {
  const priced = channel.cost !== undefined;
  const gaps: Gap[] = channel.gaps.map((gap) => ({
    channel: channel.channel,
    from: iso(gap.fromMs),
    to: iso(gap.toMs),
    missingIntervals: gap.missing,
    consumption: Number.isNaN(gap.energy) ? null : units(gap.energy),
    ...(priced ? { cost: unitsOrNull(gap.cost) } : {}),
    bucket: Number.isNaN(gap.bucketMs) ? null : iso(gap.bucketMs),
  }));
  const periods: Period[] = channel.periods.map((period) => ({
    channel: channel.channel,
    from: iso(period.fromMs),
    to: iso(period.toMs),
    consumption: units(period.energy),
    ...(priced ? { cost: unitsOrNull(period.cost) } : {}),
    quality: qualityOf(period.flags),
  }));
  const events: (ReadingEvent & { atMs: number })[] = channel.events.map((event) => ({
    atMs: event.atMs,
    type: event.type,
    channel: channel.channel,
    at: iso(event.atMs),
    meterNumber: event.meterNumber,
    detail: describe(event),
  }));
  return { gaps, periods, events };
}

/** The readings section of one meter indicator (without the meter information). */
export function presentReadings(computed: ReadingsComputation): Omit<
  MeterReadings,
  'meterInd' | 'meter' | 'meterNumbers' | 'series' | 'bill'
> & {
  series: SeriesColumns;
} {
  const { primary, other, coveredDays } = computed;
  const primaryLists = listsOf(primary);
  const otherLists = other ? listsOf(other) : { gaps: [], periods: [], events: [] };
  const net = (importTotal: number | null, exportTotal: number | null) =>
    importTotal === null || exportTotal === null ? null : units(importTotal - exportTotal);
  const channels: Channel[] = other ? ['import', 'export'] : [primary.channel];
  return {
    channel: primary.channel,
    channels,
    series: computed.series,
    totals: {
      ...presentTotals(primary.totals, coveredDays, computed.timeZone),
      ...(other
        ? {
            other: presentTotals(other.totals, coveredDays, computed.timeZone),
            net: {
              consumption:
                primary.channel === 'import'
                  ? net(primary.totals.consumption, other.totals.consumption)
                  : net(other.totals.consumption, primary.totals.consumption),
            },
          }
        : {}),
    },
    gaps: [...primaryLists.gaps, ...otherLists.gaps],
    periods: [...primaryLists.periods, ...otherLists.periods],
    events: [...primaryLists.events, ...otherLists.events]
      .sort((a, b) => a.atMs - b.atMs)
      .map(({ atMs: _atMs, ...event }) => event),
    downsampled: computed.downsampled,
  };
}

/**
 * The carbon section of a meter indicator: import's emissions, export's avoided ones (an
 * estimate); null when the location has no carbon series (the engine was given none).
 */
export function presentCarbon(computed: ReadingsComputation, region: string): CarbonSummary | null {
  const byChannel = {
    [computed.primary.channel]: computed.primary,
    ...(computed.other ? { [computed.other.channel]: computed.other } : {}),
  };
  const imported = byChannel.import?.carbon;
  const exported = byChannel.export?.carbon;
  if (!imported && !exported) return null;
  // Nanograms as kg, to the milligram; energies millionths of a kWh.
  const kg = (nanograms: bigint) => Number((nanograms + 500_000n) / 1_000_000n) / 1e6;
  const known = imported?.knownEnergy ?? 0;
  const emitted = imported?.emitted ?? 0n;
  return {
    region,
    emissions: kg(emitted),
    unknownConsumption: (imported?.unknownEnergy ?? 0) / 1e6,
    unknownIntervals: imported?.unknownSteps ?? 0,
    knownConsumption: known / 1e6,
    cleanestConsumption: (imported?.cleanestEnergy ?? 0) / 1e6,
    rangedConsumption: (imported?.rangedEnergy ?? 0) / 1e6,
    // g/kWh to the milligram: nanograms ÷ millionths of a kWh is milligrams per kWh.
    averageIntensity: known > 0 ? Math.round(Number(emitted) / known) / 1000 : null,
    cleanestQuarterShare:
      imported && imported.rangedEnergy > 0
        ? Math.round((imported.cleanestEnergy / imported.rangedEnergy) * 1e6) / 1e6
        : null,
    avoidedEstimate: exported ? kg(exported.emitted) : null,
    unknownExport: (exported?.unknownEnergy ?? 0) / 1e6,
  };
}
