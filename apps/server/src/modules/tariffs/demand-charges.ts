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
  joinIntervals,
  mapIntervals,
  presentPeak,
  type PriceTimeline,
  rollingAverage,
  type KnownIntervals,
  type Peak,
} from '../readings/index.ts';
import { dayNumber, demandWindowProfile, priceTimeline, type PricedVersion } from './price-timeline.ts';

const MILLION = 1_000_000;
const MONTHS_BACK = 12;

/** What the demand and capacity charges need beside the bill's days. */
export interface DemandInput {
  /** The import channel's intervals over the range, in time order. */
  intervals: KnownIntervals;
  /** The months before the range folded (`foldEarlierMonths`), when `demandLookbackFrom` reaches before it. */
  earlier?: EarlierMonths | null | undefined;
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
  if (!versions.some((version) => version.demand)) return null;
  // A demand charge alone charges the peak of the part of each billing period the range covers:
  // nothing before the range.
  if (!needsMonthlyPeaks(versions)) return fromMs;
  const parts = localParts(fromMs, timeZone);
  // A billing period may start in the month before the range's first: its ratchet looks 11 months
  // before that, so 12 months before the range's first month cover every rule.
  const monthIndex = parts.year * 12 + parts.month - 1 - MONTHS_BACK;
  return Math.min(
    fromMs,
    startOfLocal({ year: Math.floor(monthIndex / 12), month: (monthIndex % 12) + 1, day: 1 }, timeZone),
  );
}

/** Whether some version charges from monthly peaks (a ratchet or a capacity charge). */
function needsMonthlyPeaks(versions: readonly PricedVersion[]): boolean {
  return versions.some(
    ({ demand }) => demand && (demand.ratchetMicro !== null || demand.capacityMicro !== null),
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
  /** The highest slot of the part the range covers, inside the window (from the fold). */
  peak: Peak | null;
}

/**
 * Each calendar month's peaks, a column per figure (one entry per month: typed, not objects, as
 * the fold below writes them for every slot).
 */
interface Months {
  /** The highest slot (millionths of a kW); NaN: none. */
  all: Float64Array;
  /** The highest slot inside the on-peak window; NaN: none. */
  windowed: Float64Array;
  /** Known time (ms). */
  covered: Float64Array;
  /** 1: some slot had part of its time unknown. */
  hasOpenSlot: Uint8Array;
}

/** Months with no slot folded yet. */
function noMonths(count: number): Months {
  return {
    all: new Float64Array(count).fill(Number.NaN),
    windowed: new Float64Array(count).fill(Number.NaN),
    covered: new Float64Array(count),
    hasOpenSlot: new Uint8Array(count),
  };
}

/** The billing periods' slots, a column per figure (as Months). */
interface PeriodColumns {
  startMs: Float64Array;
  endMs: Float64Array;
  covered: Float64Array;
  hasOpenSlot: Uint8Array;
  /** The highest slot inside the window (millionths of a kW) and its span; NaN: none. */
  peak: Float64Array;
  peakFrom: Float64Array;
  peakTo: Float64Array;
}

function periodColumns(periods: readonly Period[]): PeriodColumns {
  const n = periods.length;
  return {
    startMs: Float64Array.from(periods, (period) => period.startMs),
    endMs: Float64Array.from(periods, (period) => period.endMs),
    covered: new Float64Array(n),
    hasOpenSlot: new Uint8Array(n),
    peak: new Float64Array(n).fill(Number.NaN),
    peakFrom: new Float64Array(n),
    peakTo: new Float64Array(n),
  };
}

/** Where the fold looks things up: the window, the months and the billing periods of the range. */
interface FoldPlaces {
  window: PriceTimeline;
  monthEdges: readonly number[];
  months: Months;
  periods: PeriodColumns;
  fromMs: number;
  toMs: number;
  /** The fold stops before the first slot that ends after this (Infinity: it folds every slot)… */
  stopMs: number;
  /** …and notes that slot's start here. */
  stoppedAt: number;
}

/**
 * The meter's intervals (in time order) summed per slot of `demandMs` aligned to the clock (an
 * interval longer than `demandMs` is a slot of its own length), each slot folded as it closes into
 * its month's peaks and, inside [fromMs, toMs), its billing period's. One pass, nothing kept per
 * slot; a function of its own that returns right after its loop (the readings engine's "hot
 * loops", accumulation.ts).
 */
function foldSlots(intervals: KnownIntervals, demandMs: number, places: FoldPlaces): number {
  const { start, energy, nominal } = intervals;
  const { window, monthEdges, months, periods, fromMs, toMs, stopMs } = places;
  const n = start.length;
  let segment = 0;
  let m = 0;
  let p = 0;
  let i = 0;
  while (i < n) {
    const firstNominal = nominal[i] ?? 0;
    const length = firstNominal > demandMs ? firstNominal : demandMs;
    // The slot holding the interval (floor division: `%` on doubles costs more than the rest of the step).
    const slotStart = Math.floor((start[i] ?? 0) / length) * length;
    const slotEnd = slotStart + length;
    if (slotEnd > stopMs) {
      places.stoppedAt = slotStart;
      break;
    }
    let sum = 0;
    let covered = 0;
    for (; i < n; i++) {
      const own = nominal[i] ?? 0;
      if ((start[i] ?? 0) >= slotEnd || (own > demandMs ? own : demandMs) !== length) break;
      sum += energy[i] ?? 0;
      covered += own > 0 ? own : length;
    }
    if (covered > length) covered = length;
    const power = averagePower(sum, slotStart, slotEnd);
    const isOpen = covered < length;
    while (segment < window.end.length && (window.end[segment] ?? 0) <= slotStart) segment++;
    const isWindowed = window.price[segment] === 1 && (window.start[segment] ?? Infinity) <= slotStart;
    // Slots ascend: the month and the period move forward only.
    while (m + 1 < monthEdges.length && (monthEdges[m + 1] ?? 0) <= slotStart) m++;
    if ((monthEdges[m] ?? Infinity) <= slotStart && m < months.all.length) {
      if (!(power <= (months.all[m] ?? 0))) months.all[m] = power;
      if (isWindowed && !(power <= (months.windowed[m] ?? 0))) months.windowed[m] = power;
      months.covered[m] = (months.covered[m] ?? 0) + covered;
      if (isOpen) months.hasOpenSlot[m] = 1;
    }
    if (slotStart < fromMs || slotStart >= toMs) continue;
    const periodCount = periods.startMs.length;
    while (p + 1 < periodCount && (periods.startMs[p + 1] ?? 0) <= slotStart) p++;
    if (p >= periodCount || slotStart < (periods.startMs[p] ?? 0) || slotStart >= (periods.endMs[p] ?? 0))
      continue;
    periods.covered[p] = (periods.covered[p] ?? 0) + covered;
    if (isOpen) periods.hasOpenSlot[p] = 1;
    if (isWindowed && !(power <= (periods.peak[p] ?? 0))) {
      periods.peak[p] = power;
      periods.peakFrom[p] = slotStart;
      periods.peakTo[p] = slotEnd;
    }
  }
  return i;
}

/**
 * The months before a range folded once, for a ratchet or a capacity charge to read (the server
 * remembers them: check/demand-history.ts), and the intervals of the slot the range's start cuts
 * (in a zone whose midnight is not on the slots' clock), folded with the range's own.
 */
export interface EarlierMonths {
  /** Where the months start: the first interval's start, or the range's without any. */
  firstMs: number;
  months: Months;
  /** The intervals from the first slot ending after the range's start on. */
  tail: KnownIntervals;
  /** That slot's start (the range's start when there is none). */
  tailFromMs: number;
}

/**
 * Folds the intervals before `fromMs` (in time order, from `demandLookbackFrom` on) into their
 * months, as `demandCharges` would fold them together with the range's.
 */
export function foldEarlierMonths(
  intervals: KnownIntervals,
  versions: readonly PricedVersion[],
  fromMs: number,
  timeZone: string,
): EarlierMonths {
  const firstMs = Math.min(fromMs, intervals.start[0] ?? fromMs);
  const monthEdges = bucketEdges(firstMs, fromMs, 'month', timeZone);
  const months = noMonths(Math.max(0, monthEdges.length - 1));
  const places: FoldPlaces = {
    window: priceTimeline(versions, demandWindowProfile, firstMs, fromMs, timeZone),
    monthEdges,
    months,
    periods: periodColumns([]),
    fromMs,
    toMs: fromMs,
    stopMs: fromMs,
    stoppedAt: fromMs,
  };
  const folded = foldSlots(intervals, newestDemand(versions)?.intervalMs ?? 0, places);
  // Copies: what is remembered keeps the cut slot's few intervals, not the whole lookback's columns.
  const tail = mapIntervals(intervals, (column) => column.slice(folded));
  return { firstMs, months, tail, tailFromMs: places.stoppedAt };
}

/** The demand settings of the newest version that has any. */
function newestDemand(versions: readonly PricedVersion[]) {
  return [...versions].reverse().find((version) => version.demand)?.demand;
}

/**
 * What `foldEarlierMonths` depends on of the versions (demand interval, window, holidays, which
 * version charges what, from when): a key to remember its answer by.
 */
export function demandSettingsKey(versions: readonly PricedVersion[]): string {
  return JSON.stringify(versions.map((version) => [version.startDay, version.demand, [...version.holidays]]));
}

/** The range's demand and capacity charges (docs/demand.md); `null` when no version has any. */
export function demandCharges(where: RangeWhere, input: DemandInput): DemandCharges | null {
  const { versions, fromMs, toMs, endMs, nowMs, days } = where;
  const { timeZone } = input;
  const newest = newestDemand(versions);
  if (!newest) return null;
  const { earlier } = input;
  const firstMs = earlier ? earlier.firstMs : Math.min(fromMs, input.intervals.start[0] ?? fromMs);
  // Monthly peaks only for a ratchet or a capacity charge: else no month is folded.
  const monthEdges = needsMonthlyPeaks(versions) ? bucketEdges(firstMs, endMs, 'month', timeZone) : [];
  const months = noMonths(Math.max(0, monthEdges.length - 1));
  // The months before the range as folded already; the range's slots (and a cut one) fold on top.
  let intervals = input.intervals;
  if (earlier) {
    for (const column of ['all', 'windowed', 'covered', 'hasOpenSlot'] as const)
      months[column].set(earlier.months[column].subarray(0, months[column].length));
    if (earlier.tail.start.length > 0 || (intervals.start[0] ?? fromMs) < fromMs)
      intervals = joinIntervals(earlier.tail, intervals, fromMs);
  }
  // The bill's days are consecutive local days: day k is the first one's date + k (one zone lookup).
  const firstDay = dayNumber(localDateOf(days.edges[0] ?? fromMs, timeZone));
  const periods = billingPeriods(days.edges, firstDay, input.billingDay, timeZone);
  const periodStarts = periods.map((period) => period.startMs);
  const windowFrom = earlier ? Math.min(fromMs, earlier.tailFromMs) : firstMs;
  const window = priceTimeline(versions, demandWindowProfile, windowFrom, endMs, timeZone);
  const folded = periodColumns(periods);
  foldSlots(intervals, newest.intervalMs, {
    window,
    monthEdges,
    months,
    periods: folded,
    fromMs,
    toMs,
    stopMs: Infinity,
    stoppedAt: Infinity,
  });
  const elapsedEnd = Math.min(toMs, nowMs);
  /** A month's peak is "at least" with a slot partly unknown or less time known than has passed. */
  const isMonthAtLeast = (m: number) =>
    months.hasOpenSlot[m] === 1 ||
    (months.covered[m] ?? 0) < Math.min(monthEdges[m + 1] ?? 0, elapsedEnd) - (monthEdges[m] ?? 0);
  periods.forEach((period, k) => {
    const power = folded.peak[k] ?? Number.NaN;
    if (Number.isNaN(power)) return;
    const known = Math.min(period.endMs, elapsedEnd) - Math.max(period.startMs, fromMs);
    period.peak = {
      power,
      fromMs: folded.peakFrom[k] ?? 0,
      toMs: folded.peakTo[k] ?? 0,
      isAtLeast: folded.hasOpenSlot[k] === 1 || (folded.covered[k] ?? 0) < known,
    };
  });

  const monthOf = (ms: number) => upperBound(monthEdges, ms) - 1;
  /** The ratchet's floor for a period: % of the highest windowed monthly peak of the 11 months before its first. */
  const ratchetOf = (period: Period, ratchetMicro: number) => {
    const first = monthOf(period.startMs);
    let highest = 0;
    for (let m = Math.max(0, first - 11); m < first; m++) {
      const peak = months.windowed[m] ?? Number.NaN;
      if (peak > highest) highest = peak;
    }
    return Math.round((highest * ratchetMicro) / (100 * MILLION));
  };
  // Per month and floor: every day of a month has the same.
  const capacities = new Map<string, { kW: number | null; isAtLeast: boolean }>();
  const capacityOf = (m: number, floorMicro: number) => {
    const key = `${m}:${floorMicro}`;
    let capacity = capacities.get(key);
    if (!capacity) {
      const peaks: (number | null)[] = [];
      let isAtLeast = false;
      for (let k = Math.max(0, m - 11); k <= m; k++) {
        const peak = months.all[k] ?? Number.NaN;
        peaks.push(Number.isNaN(peak) ? null : peak);
        if (!Number.isNaN(peak) && isMonthAtLeast(k)) isAtLeast = true;
      }
      capacity = { kW: rollingAverage(peaks, floorMicro).average, isAtLeast };
      capacities.set(key, capacity);
    }
    return capacity;
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
  const daysOfYear = new Map<number, number>();
  const yearDaysOf = (year: number) => {
    let count = daysOfYear.get(year);
    if (count === undefined) {
      count = dayNumber(`${year + 1}-01-01`) - dayNumber(`${year}-01-01`);
      daysOfYear.set(year, count);
    }
    return count;
  };
  let detail: BillDemand | null = null;
  let detailPeak: Peak | null = null;
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
      const entry = {
        version: v,
        kw: capacity.kW ?? 0,
        price: demand.capacityMicro,
        days: yearDaysOf(civilFromDays(firstDay + k).year),
        isCapacity: true,
      };
      owe(`c${m}:${v}`, entry, charged, rest - charged);
    }
    if (dayStart < toMs) {
      // The last day's, presented once after the loop.
      detailPeak = period?.peak ?? null;
      detail = {
        intervalMinutes: demand.intervalMs / 60_000,
        peak: null,
        chargedKw: chargedKw === null ? null : chargedKw / MILLION,
        ratchetKw: ratchetKw === null ? null : ratchetKw / MILLION,
        capacityKw: capacity?.kW == null ? null : capacity.kW / MILLION,
        isAtLeast: Boolean(period?.peak?.isAtLeast) || Boolean(capacity?.isAtLeast),
      };
    }
  }
  if (detail && detailPeak) detail.peak = presentPeak(detailPeak, timeZone);
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
  // Each period once: from a day, on to the day after its period's last.
  for (let k = 0; k + 1 < edges.length;) {
    const { from, to } = billingPeriod(dateText(firstDay + k), billingDay);
    const after = dayNumber(to) + 1;
    periods.push({
      startMs: startOfLocal(dateParts(from), timeZone),
      endMs: startOfLocal(civilFromDays(after), timeZone),
      days: after - dayNumber(from),
      peak: null,
    });
    k = after - firstDay;
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
