// A range's bill from the priced energy the readings engine returns: standing charges per local
// day, tax per tariff version, the feed-in credit, and for a range still going, its projection to
// the end of the period it is the part so far of.
// Energy charges arrive exact (10^-12 of the currency, per version); standing charges of part of a
// day and tax are shares, kept as doubles in the same unit. Everything is rounded once, to the
// millionth, when written; the reader's currency format rounds to cents.

import type { Bill } from '@cm/contracts/check.ts';
import { localDayNumber } from '@cm/contracts/zoned-time.ts';
import { type CostTotals, bucketEdges } from '../readings/index.ts';
import { versionOn, type PricedVersion } from './price-timeline.ts';
import { demandCharges, type DemandInput } from './demand-charges.ts';

/** Tax is stored in millionths of a percent: a fraction is taxMicro / 10^8. */
const TAX_DIVISOR = 1e8;

/** The local days of a range, each with the tariff version in force (-1: none). */
export interface BillingDays {
  /** Day k is [edges[k], edges[k + 1]), a whole local day (23 or 25 hours on DST days). */
  edges: readonly number[];
  version: readonly number[];
}

/** The local days of [fromMs, toMs) in `timeZone` and the version in force on each. */
export function billingDays(
  versions: readonly PricedVersion[],
  fromMs: number,
  toMs: number,
  timeZone: string,
): BillingDays {
  const edges = bucketEdges(fromMs, toMs, 'day', timeZone);
  const version = edges.slice(0, -1).map((edge) => versionOn(versions, localDayNumber(edge, timeZone)));
  return { edges, version };
}

export interface BillInput {
  versions: readonly PricedVersion[];
  /** The days of [fromMs, projectToMs ?? toMs) (billingDays), computed once per range. */
  days: BillingDays;
  fromMs: number;
  toMs: number;
  /** Where a range still going is projected to (at or after toMs); absent: no projection. */
  projectToMs?: number | undefined;
  nowMs: number;
  /** The import channel's priced energy (absent when the meter has none in the range). */
  imported?: CostTotals | undefined;
  exported?: CostTotals | undefined;
  /** Last instant with data (for the projection's average day). */
  dataEndMs: number | null;
  /** The import intervals and where, for demand and capacity charges (absent: none charged). */
  demand?: DemandInput | undefined;
}

interface Charges {
  energy: number;
  standingCharge: number;
  demandCharge: number;
  capacityCharge: number;
  tax: number;
  feedIn: number;
}

const currency = (pico: number) => Math.round(pico / 1e6) / 1e6;

function worded(charges: Charges) {
  return {
    energy: currency(charges.energy),
    standingCharge: currency(charges.standingCharge),
    demandCharge: currency(charges.demandCharge),
    capacityCharge: currency(charges.capacityCharge),
    tax: currency(charges.tax),
    feedIn: currency(charges.feedIn),
    total: currency(
      charges.energy +
        charges.standingCharge +
        charges.demandCharge +
        charges.capacityCharge +
        charges.tax -
        charges.feedIn,
    ),
  };
}

/** The bill of [fromMs, toMs); `null` when the location has no tariff. */
export function billOf(input: BillInput): Bill | null {
  const { versions, fromMs, toMs, nowMs, projectToMs } = input;
  const endMs = Math.max(toMs, projectToMs ?? toMs);
  const { edges } = input.days;
  const first = versions[0];
  if (!first) return null;
  const energyBy = input.imported?.byVersion.map(Number) ?? [];
  const creditBy = input.exported?.byVersion.map(Number) ?? [];
  const standingBy = versions.map(() => 0);
  let standingDays = 0;
  // Days with a share charged up to now, and the share still to come (for the projection).
  const dataEnd = Math.min(input.dataEndMs ?? fromMs, nowMs);
  let averagedDays = 0;
  const future: { version: number; share: number; dataShare: number }[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const start = Math.max(fromMs, edges[i] ?? 0);
    const end = Math.min(endMs, edges[i + 1] ?? 0);
    const length = (edges[i + 1] ?? 0) - (edges[i] ?? 0);
    if (end <= start || length <= 0) continue;
    const v = input.days.version[i] ?? -1;
    const charged = Math.max(0, Math.min(end, toMs, nowMs) - start) / length;
    const withData = Math.max(0, Math.min(end, dataEnd) - start) / length;
    averagedDays += withData;
    if (v >= 0 && charged > 0) {
      standingBy[v] = (standingBy[v] ?? 0) + charged * (versions[v]?.standingMicro ?? 0) * 1e6;
      standingDays += charged;
    }
    const rest = (end - start) / length;
    if (v >= 0) future.push({ version: v, share: rest - charged, dataShare: rest - withData });
  }
  const taxOf = (v: number, amount: number) => (amount * (versions[v]?.taxMicro ?? 0)) / TAX_DIVISOR;
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  const peaks = input.demand ? demandCharges({ ...input, endMs, days: input.days }, input.demand) : null;
  const demandBy = peaks?.demand ?? [];
  const capacityBy = peaks?.capacity ?? [];
  const energy = sum(energyBy);
  const standingCharge = sum(standingBy);
  const tax = sum(
    versions.map((_, v) =>
      taxOf(v, (energyBy[v] ?? 0) + (standingBy[v] ?? 0) + (demandBy[v] ?? 0) + (capacityBy[v] ?? 0)),
    ),
  );
  const feedIn = sum(creditBy);
  const charges = {
    energy,
    standingCharge,
    demandCharge: sum(demandBy),
    capacityCharge: sum(capacityBy),
    tax,
    feedIn,
  };

  const isGoing = toMs > nowMs && nowMs > fromMs;
  let projection: Bill['projection'] = null;
  if (projectToMs !== undefined && isGoing && averagedDays >= 1) {
    const energyPerDay = energy / averagedDays;
    const creditPerDay = feedIn / averagedDays;
    const projected = { ...charges };
    versions.forEach((_, v) => {
      const moreDemand = peaks?.moreDemand[v] ?? 0;
      const moreCapacity = peaks?.moreCapacity[v] ?? 0;
      projected.demandCharge += moreDemand;
      projected.capacityCharge += moreCapacity;
      projected.tax += taxOf(v, moreDemand + moreCapacity);
    });
    for (const day of future) {
      const moreEnergy = energyPerDay * day.dataShare;
      const moreStanding = (versions[day.version]?.standingMicro ?? 0) * 1e6 * day.share;
      projected.energy += moreEnergy;
      projected.standingCharge += moreStanding;
      projected.tax += taxOf(day.version, moreEnergy + moreStanding);
      projected.feedIn += creditPerDay * day.dataShare;
    }
    projection = {
      ...worded(projected),
      averagedDays: Math.round(averagedDays * 1000) / 1000,
      to: new Date(endMs).toISOString(),
      peakMayRise: charges.demandCharge > 0 || projected.demandCharge > 0,
    };
  }
  return {
    currency: first.currency,
    ...worded(charges),
    estimated: currency(Number(input.imported?.estimated ?? 0n)),
    unpricedConsumption: (input.imported?.unpricedEnergy ?? 0) / 1e6,
    standingDays: Math.round(standingDays * 1000) / 1000,
    projection,
    demand: peaks?.detail ?? null,
  };
}
