// When each price of a location's tariffs is in force, as instants: the one place where tariff
// versions, day types, seasons and time-of-use windows on the local wall clock become a timeline
// the readings engine prices energy with.
//
// Windows follow the location's clock: on the day the clocks go forward a window 00:00–07:00 lasts
// six hours, on the day they go back eight; a window 01:00–02:00 on a fall-back night covers both
// passes of that hour. The walk is over spans of constant UTC offset, on which wall time and
// instants differ by a constant, so no Intl call is made per reading or per day.

import type { Tariff, TariffDemand, TariffWindow } from '@cm/contracts/tariffs.ts';
import { tariffDays } from '@cm/contracts/tariff-days.ts';
import { decimalMillionths, windowMinutes } from '@cm/contracts/tariffs.ts';
import { DAY_MS, MINUTE_MS, civilFromDays, daysFromCivil, offsetSpans } from '@cm/contracts/zoned-time.ts';
import type { PriceTimeline } from '../readings/index.ts';

/** A tariff version ready to price with: prices in millionths of the currency. */
export interface PricedVersion {
  /** Local date it applies from, as days since 1970-01-01. */
  startDay: number;
  currency: string;
  energyMicro: number;
  windows: PricedWindow[];
  holidays: ReadonlySet<number>;
  standingMicro: number;
  /** Tax in millionths of a percent. */
  taxMicro: number;
  feedInMicro: number | null;
  /** Import priced from a price series instead (dynamic prices), with its margin and tax. */
  importSource: SeriesSource | null;
  /** Export paid from a price series instead of the feed-in price. */
  exportSource: SeriesSource | null;
  /** Demand and capacity charges (demand-charges.ts), null for none. */
  demand: PricedDemand | null;
}

/** A version's demand settings, in millionths. */
export interface PricedDemand {
  intervalMs: number;
  /** Per kW of a billing period's charged demand (millionths of the currency); null: no demand charge. */
  priceMicro: number | null;
  /** Where the demand charge's peak is taken; null: at any time. */
  window: Omit<PricedWindow, 'priceMicro'> | null;
  /** Millionths of a percent; null: no ratchet. */
  ratchetMicro: number | null;
  /** Per kW-year of the rolling average (millionths of the currency); null: no capacity charge. */
  capacityMicro: number | null;
  /** Millionths of a kW. */
  floorMicro: number;
}

/** A price taken from a series: the margin in millionths per kWh, the tax in millionths of a percent. */
export interface SeriesSource {
  seriesId: number;
  marginMicro: number;
  taxMicro: number;
}

const sourceOf = (source: Tariff['importSeries']): SeriesSource | null =>
  source === null
    ? null
    : {
        seriesId: source.seriesId,
        marginMicro: source.margin.startsWith('-')
          ? -decimalMillionths(source.margin.slice(1))
          : decimalMillionths(source.margin),
        taxMicro: decimalMillionths(source.taxPercent),
      };

interface PricedWindow {
  /** Bit i set: day type tariffDays[i] (0 Monday … 6 Sunday, 7 holiday). */
  dayMask: number;
  /** Bit m set: month m (1–12); 0 for every month. */
  monthMask: number;
  minutes: [number, number][];
  priceMicro: number;
}

/** A local date `YYYY-MM-DD` as days since 1970-01-01. */
export function dayNumber(date: string): number {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number);
  return daysFromCivil(year, month, day);
}

/** Tariff versions as the API gives them, oldest first, ready to price with. */
export function pricedVersions(tariffs: readonly Tariff[]): PricedVersion[] {
  return [...tariffs]
    .sort((a, b) => (a.effectiveFrom < b.effectiveFrom ? -1 : 1))
    .map((tariff) => ({
      startDay: dayNumber(tariff.effectiveFrom),
      currency: tariff.currency,
      energyMicro: decimalMillionths(tariff.energyPrice),
      windows: tariff.windows.map((window) => ({
        ...pricedWindow(window),
        priceMicro: decimalMillionths(window.price),
      })),
      holidays: new Set(tariff.holidays.map(dayNumber)),
      standingMicro: decimalMillionths(tariff.standingChargePerDay),
      taxMicro: decimalMillionths(tariff.taxPercent),
      feedInMicro: tariff.feedInPrice === null ? null : decimalMillionths(tariff.feedInPrice),
      importSource: sourceOf(tariff.importSeries),
      exportSource: sourceOf(tariff.exportSeries),
      demand: tariff.demand ? pricedDemand(tariff.demand) : null,
    }));
}

const orNull = (text: string | null) => (text === null ? null : decimalMillionths(text));

function pricedWindow(window: Pick<TariffWindow, 'days' | 'months' | 'from' | 'to'>) {
  return {
    dayMask: window.days.reduce((mask, day) => mask | (1 << tariffDays.indexOf(day)), 0),
    monthMask: (window.months ?? []).reduce((mask, month) => mask | (1 << month), 0),
    minutes: windowMinutes(window),
  };
}

function pricedDemand(demand: TariffDemand): PricedDemand {
  return {
    intervalMs: demand.intervalMinutes * MINUTE_MS,
    priceMicro: orNull(demand.pricePerKw),
    window: demand.window ? pricedWindow(demand.window) : null,
    ratchetMicro: orNull(demand.ratchetPercent),
    capacityMicro: orNull(demand.capacityPricePerKwYear),
    floorMicro: decimalMillionths(demand.capacityFloorKw),
  };
}

/** Index of the version in force on local day `day`, -1 before the first. */
export function versionOn(versions: readonly PricedVersion[], day: number): number {
  let found = -1;
  for (let v = 0; v < versions.length && (versions[v]?.startDay ?? Infinity) <= day; v++) found = v;
  return found;
}

/** A day's prices: pieces [from, to) in minutes after local midnight, ascending, covering the day. */
type DayProfile = readonly { from: number; to: number; price: number }[];

/** What a channel pays or earns per unit in a version on a day. */
export type ProfileOf = (version: PricedVersion, day: number) => DayProfile;

/** Import: the base price, replaced by the windows of the day's type and month. */
export const energyProfile: ProfileOf = (version, day) =>
  windowedProfile(version, version.windows, version.energyMicro, day);

/** Demand: 1 where a version's demand charge takes its peak (its window, else all day), 0 elsewhere. */
export const demandWindowProfile: ProfileOf = (version, day) => {
  const demand = version.demand;
  if (demand?.priceMicro == null) return [{ from: 0, to: 1440, price: 0 }];
  if (!demand.window) return [{ from: 0, to: 1440, price: 1 }];
  return windowedProfile(version, [{ ...demand.window, priceMicro: 1 }], 0, day);
};

/** A day's profile: `base`, replaced by the windows of the day's type and month. */
function windowedProfile(
  version: PricedVersion,
  windows: readonly PricedWindow[],
  base: number,
  day: number,
): DayProfile {
  const weekday = (((day + 3) % 7) + 7) % 7; // 0 Monday … 6 Sunday
  const dayType = version.holidays.has(day) ? tariffDays.indexOf('holiday') : weekday;
  const month = civilFromDays(day).month;
  const pieces: { from: number; to: number; price: number }[] = [];
  for (const window of windows) {
    if (!(window.dayMask & (1 << dayType))) continue;
    if (window.monthMask !== 0 && !(window.monthMask & (1 << month))) continue;
    for (const [from, to] of window.minutes) pieces.push({ from, to, price: window.priceMicro });
  }
  pieces.sort((a, b) => a.from - b.from);
  const profile: { from: number; to: number; price: number }[] = [];
  let at = 0;
  for (const piece of pieces) {
    if (piece.from > at) profile.push({ from: at, to: piece.from, price: base });
    profile.push(piece);
    at = piece.to;
  }
  if (at < 1440) profile.push({ from: at, to: 1440, price: base });
  return profile;
}

/** Export: the feed-in price all day, none when export is not paid. */
export const feedInProfile: ProfileOf = (version) => [
  // A version paying export from a series has its price put in by overlaySeries (0 marks it paid).
  { from: 0, to: 1440, price: version.exportSource ? 0 : (version.feedInMicro ?? Number.NaN) },
];

/** Prices over [fromMs, toMs) in `timeZone`; time before the first version has no price. */
export function priceTimeline(
  versions: readonly PricedVersion[],
  profileOf: ProfileOf,
  fromMs: number,
  toMs: number,
  timeZone: string,
): PriceTimeline {
  const { emit, build } = timelineBuilder();
  const profiles = new Map<string, DayProfile>();
  const spans = offsetSpans(fromMs, toMs, timeZone);
  for (let k = 0; k < spans.starts.length; k++) {
    const offset = spans.offsets[k] ?? 0;
    const a = Math.max(fromMs, spans.starts[k] ?? fromMs);
    const b = Math.min(toMs, spans.starts[k + 1] ?? toMs);
    if (a >= b) continue;
    let wall = a + offset;
    const wallEnd = b + offset;
    while (wall < wallEnd) {
      const day = Math.floor(wall / DAY_MS);
      const dayWall = day * DAY_MS;
      const stop = Math.min(wallEnd, dayWall + DAY_MS);
      const v = versionOn(versions, day);
      const current = versions[v];
      if (!current) {
        emit(wall - offset, stop - offset, Number.NaN, 0);
      } else {
        const key = `${v}:${day % 7}:${current.holidays.has(day) ? 'h' : ''}:${civilFromDays(day).month}`;
        let profile = profiles.get(key);
        if (!profile) {
          profile = profileOf(current, day);
          profiles.set(key, profile);
        }
        for (const piece of profile) {
          const pieceFrom = Math.max(wall, dayWall + piece.from * MINUTE_MS);
          const pieceTo = Math.min(stop, dayWall + piece.to * MINUTE_MS);
          if (pieceFrom < pieceTo) emit(pieceFrom - offset, pieceTo - offset, piece.price, v);
        }
      }
      wall = stop;
    }
  }
  return build(Math.max(1, versions.length));
}

/**
 * Collects a timeline's segments in time order: `emit` appends [a, b) at price p of version v,
 * merged into the segment before when it continues it at the same price and version.
 */
export function timelineBuilder() {
  const start: number[] = [];
  const end: number[] = [];
  const price: number[] = [];
  const version: number[] = [];
  const emit = (a: number, b: number, p: number, v: number) => {
    const last = start.length - 1;
    const samePrice = last >= 0 && (price[last] === p || (Number.isNaN(p) && Number.isNaN(price[last] ?? 0)));
    if (last >= 0 && end[last] === a && samePrice && version[last] === v) {
      end[last] = b;
      return;
    }
    start.push(a);
    end.push(b);
    price.push(p);
    version.push(v);
  };
  const build = (versions: number): PriceTimeline => ({
    start: Float64Array.from(start),
    end: Float64Array.from(end),
    price: Float64Array.from(price),
    version: Int32Array.from(version),
    versions,
  });
  return { emit, build };
}
