// Demand and capacity charges of a tariff version (issue 36): the one home of their rules, which
// docs/demand.md explains with a worked example.
//
// - Demand is the average power over the tariff's demand interval (15, 30 or 60 minutes): the
//   meter's own intervals summed in slots of that length aligned to the clock (UTC; the same as the
//   local clock in zones whose offset is whole hours). A meter interval longer than the demand
//   interval is its own slot: the peak cannot be finer than the data. A slot with part of its time
//   unknown is a lower bound ("at least").
// - Demand charge: each local day of a billing period pays 1/N (N: the period's days) of the
//   period's charged demand × its version's price per kW. The charged demand is the highest slot of
//   the period's part the range covers (inside the version's on-peak window if it has one), raised
//   to the ratchet's % of the highest monthly peak of the 11 months before the period's first month.
// - Capacity charge: each local day pays its version's price per kW-year ÷ the days of its year ×
//   the rolling average of the 12 monthly peaks ending with its month, each at least the floor.
// Money is exact: kW and prices are integers in millionths, each (period or month, version) is
// charged once in BigInt, in 10^-12 of the currency, and rounded there.

import type { BillDemand } from '@cm/contracts/check.ts';
import { billingPeriod } from '@cm/contracts/billing-period.ts';
import { upperBound } from '@cm/contracts/sorted.ts';
import { civilFromDays, localDateOf, localParts, startOfLocal } from '@cm/contracts/zoned-time.ts';
import {
  averagePower,
  bucketEdges,
  presentPeak,
  type PriceTimeline,
  rollingAverage,
  type KnownIntervals,
  type Peak,
} from '../readings/index.ts';
import { dayNumber, demandWindowProfile, priceTimeline, type PricedVersion } from './price-timeline.ts';

const MILLION = 1_000_000;
const MONTHS_BACK = 12;

/** The demand slots of a channel: clock-aligned spans of the demand interval with their average power. */
export interface DemandSlots {
  start: Float64Array;
  end: Float64Array;
  /** Millionths of a kW. */
  power: Float64Array;
  /** Known time inside the slot (ms): less than its length makes its power a lower bound. */
  covered: Float64Array;
}

/**
 * The meter's intervals (in time order) summed per slot of `demandMs` aligned to the clock; an
 * interval longer than `demandMs` is a slot of its own length.
 */
export function demandSlots(intervals: KnownIntervals, demandMs: number): DemandSlots {
  const n = intervals.start.length;
  // Typed columns and a plain loop: a year of 5-minute records is 105,120 of them.
  const slots: DemandSlots = {
    start: new Float64Array(n),
    end: new Float64Array(n),
    power: new Float64Array(n),
    covered: new Float64Array(n),
  };
  const count = fillSlots(intervals, demandMs, slots);
  return {
    start: slots.start.subarray(0, count),
    end: slots.end.subarray(0, count),
    power: slots.power.subarray(0, count),
    covered: slots.covered.subarray(0, count),
  };
}

/**
 * demandSlots' loop; returns how many slots it filled. A function of its own that returns right
 * after its loop (the readings engine's "hot loops", accumulation.ts).
 */
function fillSlots(intervals: KnownIntervals, demandMs: number, slots: DemandSlots): number {
  const { start, energy, nominal } = intervals;
  const { start: slotStarts, end: slotEnds, power: powers, covered: covers } = slots;
  const n = start.length;
  let count = 0;
  for (let i = 0; i < n;) {
    const first = start[i] ?? 0;
    const length = Math.max(demandMs, nominal[i] ?? 0);
    // The slot holding `first` (floor division: `%` on doubles costs more than the rest of the step).
    const slotStart = Math.floor(first / length) * length;
    const slotEnd = slotStart + length;
    let sum = 0;
    let covered = 0;
    for (; i < n && (start[i] ?? 0) < slotEnd && Math.max(demandMs, nominal[i] ?? 0) === length; i++) {
      sum += energy[i] ?? 0;
      const own = nominal[i] ?? 0;
      covered += own > 0 ? own : length;
    }
    slotStarts[count] = slotStart;
    slotEnds[count] = slotEnd;
    powers[count] = averagePower(sum, slotStart, slotEnd);
    covers[count] = Math.min(covered, length);
    count++;
  }
  return count;
}

/** What the demand and capacity charges need beside the bill's days. */
export interface DemandInput {
  /** The import channel's intervals from `demandLookbackFrom` to the range's end, in time order. */
  intervals: KnownIntervals;
  timeZone: string;
  /** The location's billing day (1–28; null: calendar months). */
  billingDay: number | null;
}

/** Whether any version has demand settings, and how far back they need intervals. */
export function demandLookbackFrom(
  versions: readonly PricedVersion[],
  fromMs: number,
  timeZone: string,
): number | null {
  const settings = versions.flatMap((version) => (version.demand ? [version.demand] : []));
  if (settings.length === 0) return null;
  const needsMonths = settings.some(
    (demand) => demand.ratchetMicro !== null || demand.capacityMicro !== null,
  );
  const parts = localParts(fromMs, timeZone);
  // A billing period may start in the month before the range's first: its ratchet looks 11 months
  // before that, so 12 months before the range's first month cover every rule.
  const monthIndex = parts.year * 12 + parts.month - 1 - (needsMonths ? MONTHS_BACK : 1);
  return Math.min(
    fromMs,
    startOfLocal({ year: Math.floor(monthIndex / 12), month: (monthIndex % 12) + 1, day: 1 }, timeZone),
  );
}

/** Charges per tariff version, in 10^-12 of the currency; `more*`: the projection's rest. */
export interface DemandCharges {
  demand: number[];
  capacity: number[];
  moreDemand: number[];
  moreCapacity: number[];
  detail: BillDemand | null;
}

interface RangeWhere {
  versions: readonly PricedVersion[];
  /** The bill's local days over [fromMs, endMs) and the version in force on each. */
  days: { edges: readonly number[]; version: readonly number[] };
  fromMs: number;
  toMs: number;
  endMs: number;
  nowMs: number;
}

interface Period {
  startMs: number;
  endMs: number;
  days: number;
  peak: Peak | null;
  covered: number;
  hasOpenSlot: boolean;
}

interface Month {
  all: number | null;
  windowed: number | null;
  isAtLeast: boolean;
  covered: number;
}

/**
 * Each slot into its month's peaks and, inside [fromMs, toMs), its billing period's: a function of
 * its own that returns right after its loop (the readings engine's "hot loops", accumulation.ts).
 */
function foldSlots(
  slots: DemandSlots,
  window: PriceTimeline,
  monthEdges: readonly number[],
  months: Month[],
  periods: Period[],
  fromMs: number,
  toMs: number,
): void {
  let segment = 0;
  let m = 0;
  let p = 0;
  for (let i = 0; i < slots.start.length; i++) {
    const start = slots.start[i] ?? 0;
    const power = slots.power[i] ?? 0;
    const end = slots.end[i] ?? start;
    const covered = slots.covered[i] ?? 0;
    const isOpen = covered < end - start;
    while (segment < window.end.length && (window.end[segment] ?? 0) <= start) segment++;
    const isWindowed = window.price[segment] === 1 && (window.start[segment] ?? Infinity) <= start;
    // Slots ascend: the month and the period move forward only.
    while (m + 1 < monthEdges.length && (monthEdges[m + 1] ?? 0) <= start) m++;
    const month = (monthEdges[m] ?? Infinity) <= start ? months[m] : undefined;
    if (month) {
      if (month.all === null || power > month.all) month.all = power;
      if (isWindowed && (month.windowed === null || power > month.windowed)) month.windowed = power;
      month.covered += covered;
      if (isOpen) month.isAtLeast = true;
    }
    if (start < fromMs || start >= toMs) continue;
    while (p + 1 < periods.length && (periods[p + 1]?.startMs ?? 0) <= start) p++;
    const period = periods[p];
    if (!period || start < period.startMs || start >= period.endMs) continue;
    period.covered += covered;
    if (isOpen) period.hasOpenSlot = true;
    if (isWindowed && (period.peak === null || power > period.peak.power))
      period.peak = { power, fromMs: start, toMs: end, isAtLeast: false };
  }
}

/** The range's demand and capacity charges (docs/demand.md); `null` when no version has any. */
export function demandCharges(where: RangeWhere, input: DemandInput): DemandCharges | null {
  const { versions, fromMs, toMs, endMs, nowMs, days } = where;
  const { timeZone } = input;
  const newest = [...versions].reverse().find((version) => version.demand)?.demand;
  if (!newest) return null;
  const slots = demandSlots(input.intervals, newest.intervalMs);
  const firstMs = Math.min(fromMs, input.intervals.start[0] ?? fromMs);
  const monthEdges = bucketEdges(firstMs, endMs, 'month', timeZone);
  const months: Month[] = monthEdges
    .slice(1)
    .map(() => ({ all: null, windowed: null, isAtLeast: false, covered: 0 }));
  // The bill's days are consecutive local days: day k is the first one's date + k (one zone lookup).
  const firstDay = dayNumber(localDateOf(days.edges[0] ?? fromMs, timeZone));
  const periods = billingPeriods(days.edges, firstDay, input.billingDay, timeZone);
  const periodStarts = periods.map((period) => period.startMs);
  const window = priceTimeline(versions, demandWindowProfile, firstMs, endMs, timeZone);
  foldSlots(slots, window, monthEdges, months, periods, fromMs, toMs);
  const elapsedEnd = Math.min(toMs, nowMs);
  months.forEach((month, m) => {
    const known = Math.min(monthEdges[m + 1] ?? 0, elapsedEnd) - (monthEdges[m] ?? 0);
    if (month.covered < known) month.isAtLeast = true;
  });
  for (const period of periods) {
    const known = Math.min(period.endMs, elapsedEnd) - Math.max(period.startMs, fromMs);
    if (period.peak) period.peak.isAtLeast = period.hasOpenSlot || period.covered < known;
  }

  const monthOf = (ms: number) => upperBound(monthEdges, ms) - 1;
  /** The ratchet's floor for a period: % of the highest windowed monthly peak of the 11 months before its first. */
  const ratchetOf = (period: Period, ratchetMicro: number) => {
    const first = monthOf(period.startMs);
    let highest = 0;
    for (let m = Math.max(0, first - 11); m < first; m++)
      highest = Math.max(highest, months[m]?.windowed ?? 0);
    return Math.round((highest * ratchetMicro) / (100 * MILLION));
  };
  const capacityOf = (m: number, floorMicro: number) => {
    const window = months.slice(Math.max(0, m - 11), m + 1);
    return {
      kW: rollingAverage(
        window.map((month) => month.all),
        floorMicro,
      ).average,
      isAtLeast: window.some((month) => month.all !== null && month.isAtLeast),
    };
  };

  const charges = versions.map(() => ({ demand: 0n, capacity: 0n, moreDemand: 0n, moreCapacity: 0n }));
  // Shares of a day in millionths, summed per (period or month, version) and charged once.
  const owed = new Map<
    string,
    {
      version: number;
      kw: number;
      price: number;
      days: number;
      share: number;
      more: number;
      isCapacity: boolean;
    }
  >();
  const owe = (
    key: string,
    entry: { version: number; kw: number; price: number; days: number; isCapacity: boolean },
    share: number,
    more: number,
  ) => {
    const known = owed.get(key) ?? { ...entry, share: 0, more: 0 };
    known.share += share;
    known.more += more;
    owed.set(key, known);
  };
  let detail: BillDemand | null = null;
  for (let k = 0; k + 1 < days.edges.length; k++) {
    const dayStart = days.edges[k] ?? 0;
    const dayEnd = days.edges[k + 1] ?? 0;
    const start = Math.max(fromMs, dayStart);
    const end = Math.min(endMs, dayEnd);
    const length = dayEnd - dayStart;
    const v = days.version[k] ?? -1;
    const demand = versions[v]?.demand;
    if (!demand || end <= start || length <= 0) continue;
    const share = (until: number) =>
      Math.round((Math.max(0, Math.min(end, until) - start) * MILLION) / length);
    const rest = share(end);
    const inRange = share(toMs);
    const charged = share(Math.min(toMs, nowMs));
    const period = periods[upperBound(periodStarts, dayStart) - 1];
    let chargedKw: number | null = null;
    let ratchetKw: number | null = null;
    if (demand.priceMicro !== null && period) {
      ratchetKw = demand.ratchetMicro === null ? null : ratchetOf(period, demand.ratchetMicro);
      chargedKw = Math.max(period.peak?.power ?? 0, ratchetKw ?? 0);
      const entry = {
        version: v,
        kw: chargedKw,
        price: demand.priceMicro,
        days: period.days,
        isCapacity: false,
      };
      owe(`d${period.startMs}:${v}`, entry, inRange, rest - inRange);
    }
    let capacity: { kW: number | null; isAtLeast: boolean } | null = null;
    if (demand.capacityMicro !== null) {
      const m = monthOf(dayStart);
      capacity = capacityOf(m, demand.floorMicro);
      const { year } = civilFromDays(firstDay + k);
      const yearDays = dayNumber(`${year + 1}-01-01`) - dayNumber(`${year}-01-01`);
      const entry = {
        version: v,
        kw: capacity.kW ?? 0,
        price: demand.capacityMicro,
        days: yearDays,
        isCapacity: true,
      };
      owe(`c${m}:${v}`, entry, charged, rest - charged);
    }
    if (dayStart < toMs)
      detail = {
        intervalMinutes: demand.intervalMs / 60_000,
        peak: period?.peak ? presentPeak(period.peak, timeZone) : null,
        chargedKw: chargedKw === null ? null : chargedKw / MILLION,
        ratchetKw: ratchetKw === null ? null : ratchetKw / MILLION,
        capacityKw: capacity?.kW == null ? null : capacity.kW / MILLION,
        isAtLeast: Boolean(period?.peak?.isAtLeast) || Boolean(capacity?.isAtLeast),
      };
  }
  for (const entry of owed.values()) {
    const line = charges[entry.version];
    if (!line) continue;
    const pico = (share: number) =>
      divideRounded(BigInt(entry.kw) * BigInt(entry.price) * BigInt(share), BigInt(entry.days * MILLION));
    if (entry.isCapacity) {
      line.capacity += pico(entry.share);
      line.moreCapacity += pico(entry.more);
    } else {
      line.demand += pico(entry.share);
      line.moreDemand += pico(entry.more);
    }
  }
  return {
    demand: charges.map((line) => Number(line.demand)),
    capacity: charges.map((line) => Number(line.capacity)),
    moreDemand: charges.map((line) => Number(line.moreDemand)),
    moreCapacity: charges.map((line) => Number(line.moreCapacity)),
    detail,
  };
}

/** a ÷ b rounded half up (a ≥ 0, b > 0). */
function divideRounded(a: bigint, b: bigint): bigint {
  return (2n * a + b) / (2n * b);
}

/** The billing periods holding the local days starting at `edges` (all but the last edge). */
function billingPeriods(
  edges: readonly number[],
  firstDay: number,
  billingDay: number | null,
  timeZone: string,
): Period[] {
  const periods: Period[] = [];
  let lastFrom = '';
  for (let k = 0; k + 1 < edges.length; k++) {
    const { from, to } = billingPeriod(dateText(firstDay + k), billingDay);
    if (from === lastFrom) continue;
    lastFrom = from;
    const startMs = startOfLocal(dateParts(from), timeZone);
    const next = civilFromDays(dayNumber(to) + 1);
    periods.push({
      startMs,
      endMs: startOfLocal(next, timeZone),
      days: dayNumber(to) - dayNumber(from) + 1,
      peak: null,
      covered: 0,
      hasOpenSlot: false,
    });
  }
  return periods;
}

/** Days since 1970-01-01 as a local date `YYYY-MM-DD`. */
const dateText = (day: number) => {
  const { year, month, day: date } = civilFromDays(day);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`;
};

const dateParts = (date: string) => {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number);
  return { year, month, day };
};
