// Whether each rule's condition holds for each of its meters now: the one home of the alert
// rules. Pure given what the readings and the directory say; evaluate.ts asks them and turns
// conditions into episodes.

import {
  PRICE_LOOKAHEAD_HOURS,
  USUAL_WEEKS,
  type AlertDetail,
  type AlertKind,
} from '@cm/contracts/alerts.ts';
import { DAY_MS, HOUR_MS, localDateOf, localParts, startOfLocal } from '@cm/contracts/zoned-time.ts';
import type { AlertMeter } from '../directory/index.ts';
import {
  averagePower,
  type DayAsk,
  type DayRegisters,
  type MonthPeak,
  type RegisterDecrease,
  registerAdvanceMicro,
} from '../readings/index.ts';

/** A meter as the rules see it. */
export interface WatchedMeter extends Pick<
  AlertMeter,
  | 'id'
  | 'meterNumber'
  | 'locationId'
  | 'locationName'
  | 'timeZone'
  | 'billingDay'
  | 'multiplier'
  | 'registerDigits'
  | 'intervalMinutes'
  | 'installedAt'
  | 'expectsData'
> {
  /** Last instant its import channel has data for. */
  lastDataAt: Date | null;
  cubeLastSeen: Date | null;
  hasCube: boolean;
  accessPointLastSeen: Date | null;
  hasAccessPoint: boolean;
}

/** A rule as evaluated. */
export interface Rule {
  id: number;
  kind: AlertKind;
  threshold: number | null;
}

/** A rule's condition for one meter. */
export interface Condition {
  ruleId: number;
  meterId: number;
  holds: boolean;
  startedAt: Date;
  detail: AlertDetail;
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** Silent: no data for `threshold` hours. Says whether the Cube and AccessPoint are silent too. */
export function silentCondition(rule: Rule, meter: WatchedMeter, nowMs: number): Condition {
  const limitMs = (rule.threshold ?? 0) * HOUR_MS;
  const since = meter.lastDataAt ?? meter.installedAt;
  const isSilent = (at: Date | null) => at === null || nowMs - at.getTime() > limitMs;
  return {
    ruleId: rule.id,
    meterId: meter.id,
    // An inactive or not-yet-open meter is not expected to send anything: its silence is no alert.
    holds: meter.expectsData && nowMs - since.getTime() > limitMs,
    startedAt: since,
    detail: {
      lastSeenAt: iso(meter.lastDataAt),
      cubeSilent: meter.hasCube ? isSilent(meter.cubeLastSeen) : null,
      accessPointSilent: meter.hasAccessPoint ? isSilent(meter.accessPointLastSeen) : null,
    },
  };
}

/** The local days a meter's daily rules look at: yesterday (slot 0), then the same weekday 1 … USUAL_WEEKS weeks before. */
export function dayAsks(meter: WatchedMeter, nowMs: number): DayAsk[] {
  const today = localParts(nowMs, meter.timeZone);
  const asks: DayAsk[] = [];
  for (let slot = 0; slot <= USUAL_WEEKS; slot++) {
    // Calendar arithmetic on a UTC date, then each day's local midnights.
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day - 1 - 7 * slot));
    const local = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
    const next = new Date(date.getTime() + DAY_MS);
    const start = startOfLocal(local, meter.timeZone);
    const end = startOfLocal(
      { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() },
      meter.timeZone,
    );
    asks.push({ meterId: meter.id, start: new Date(start), end: new Date(end), slot });
  }
  return asks;
}

/**
 * A day's energy in millionths of the unit: its interval records, else the register difference
 * (across a rollover, and × the multiplier) when readings lie within an interval and a half of both
 * edges; null when the day's data does not tell, or the register went down without rolling over
 * (the readings engine's rule, register-value.ts).
 */
export function dayEnergy(meter: WatchedMeter, ask: DayAsk, row: DayRegisters | undefined): number | null {
  if (!row) return null;
  if (row.records > 0) return row.recordMicro;
  if (row.startMicro === null || row.endMicro === null || !row.startAt || !row.endAt) return null;
  const slack = 1.5 * meter.intervalMinutes * 60_000;
  if (ask.start.getTime() - row.startAt.getTime() > slack) return null;
  if (ask.end.getTime() - row.endAt.getTime() > slack) return null;
  const advance = registerAdvanceMicro(row.startMicro, row.endMicro, meter.registerDigits);
  return advance === null ? null : advance * meter.multiplier;
}

/**
 * Yesterday above `threshold` kWh (dailyAbove), or above `threshold` × the usual day: the mean of
 * the same weekday over the weeks before, when at least two of them are known (usualAbove).
 */
export function dailyCondition(
  rule: Rule,
  meter: WatchedMeter,
  asks: readonly DayAsk[],
  energies: readonly (number | null)[],
): Condition {
  const [yesterday] = asks;
  const energy = energies[0] ?? null;
  const known = energies.slice(1).filter((value): value is number => value !== null);
  const usual = known.length >= 2 ? known.reduce((sum, value) => sum + value, 0) / known.length : null;
  const threshold = rule.threshold ?? Infinity;
  const holds =
    energy !== null &&
    (rule.kind === 'dailyAbove'
      ? energy > threshold * 1_000_000
      : usual !== null && usual > 0 && energy > threshold * usual);
  return {
    ruleId: rule.id,
    meterId: meter.id,
    holds,
    startedAt: yesterday?.start ?? new Date(0),
    detail: {
      day: yesterday ? localDateOf(yesterday.start.getTime(), meter.timeZone) : '',
      consumption: energy === null ? 0 : energy / 1_000_000,
      usual: usual === null ? null : Math.round(usual) / 1_000_000,
    },
  };
}

/** Bill to date above `threshold` (in the tariff's currency); no bill (no tariff): never holds. */
export function billCondition(
  rule: Rule,
  meter: WatchedMeter,
  bill: { total: number; currency: string } | undefined,
  period: { from: string; startMs: number },
): Condition {
  return {
    ruleId: rule.id,
    meterId: meter.id,
    holds: bill !== undefined && bill.total > (rule.threshold ?? Infinity),
    startedAt: new Date(period.startMs),
    detail: bill ? { amount: bill.total, currency: bill.currency, periodFrom: period.from } : {},
  };
}

/**
 * Price above (issue 36): the first interval ending after now and starting within the look-ahead, whose import
 * price per kWh (millionths, NaN: none) is above the threshold. Known ahead of time from the price
 * series, so people hear before the expensive interval comes.
 */
export function priceCondition(
  rule: Rule,
  meter: WatchedMeter,
  prices:
    | { start: ArrayLike<number>; end: ArrayLike<number>; price: ArrayLike<number>; currency: string }
    | undefined,
  nowMs: number,
): Condition {
  const limit = Math.round((rule.threshold ?? Infinity) * 1_000_000);
  const untilMs = nowMs + PRICE_LOOKAHEAD_HOURS * HOUR_MS;
  let found = -1;
  for (let k = 0; prices && k < prices.start.length && found < 0; k++) {
    const start = prices.start[k] ?? 0;
    if ((prices.end[k] ?? 0) <= nowMs || start >= untilMs) continue;
    if ((prices.price[k] ?? Number.NaN) > limit) found = k;
  }
  const at = prices && found >= 0 ? Math.max(nowMs, prices.start[found] ?? nowMs) : nowMs;
  return {
    ruleId: rule.id,
    meterId: meter.id,
    holds: found >= 0,
    startedAt: new Date(nowMs),
    detail:
      prices && found >= 0
        ? {
            at: new Date(at).toISOString(),
            amount: (prices.price[found] ?? 0) / 1_000_000,
            currency: prices.currency,
          }
        : {},
  };
}

/** Register decrease or rollover: a register below the one before it within the window. */
export function decreaseCondition(
  rule: Rule,
  meter: WatchedMeter,
  found: RegisterDecrease | undefined,
  nowMs: number,
): Condition {
  return {
    ruleId: rule.id,
    meterId: meter.id,
    holds: found !== undefined,
    startedAt: found?.readAt ?? new Date(nowMs),
    detail: found
      ? { at: found.readAt.toISOString(), from: found.beforeMicro / 1e6, to: found.afterMicro / 1e6 }
      : {},
  };
}

/** The first instant of the meter's local month at `nowMs`: where "this month's peak" starts. */
export function monthStart(meter: WatchedMeter, nowMs: number): Date {
  const { year, month } = localParts(nowMs, meter.timeZone);
  return new Date(startOfLocal({ year, month, day: 1 }, meter.timeZone));
}

/**
 * This month's peak about to be exceeded (peakNear): the latest interval's average power above
 * `threshold` % of the highest interval power of the month before it. Without an earlier interval
 * in the month there is no peak to near: it does not hold.
 */
export function peakCondition(rule: Rule, meter: WatchedMeter, found: MonthPeak | undefined): Condition {
  const power = found
    ? averagePower(Number(found.lastMicro), found.lastStart.getTime(), found.lastEnd.getTime())
    : Number.NaN;
  const peak =
    found?.peakStart && found.peakEnd && found.peakMicro !== null
      ? averagePower(Number(found.peakMicro), found.peakStart.getTime(), found.peakEnd.getTime())
      : Number.NaN;
  const holds = peak > 0 && power * 100 > (rule.threshold ?? Infinity) * peak;
  return {
    ruleId: rule.id,
    meterId: meter.id,
    holds,
    startedAt: found?.lastStart ?? new Date(0),
    detail: found
      ? {
          at: found.lastStart.toISOString(),
          power: power / 1_000_000,
          ...(Number.isNaN(peak) ? {} : { peak: peak / 1_000_000, peakAt: found.peakStart?.toISOString() }),
        }
      : {},
  };
}
