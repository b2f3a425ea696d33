import type { Granularity, LocationReadings, MeterInfo, MeterReadings } from '@cm/contracts/check.ts';
import type { MonthlyPeaksQuery } from '@cm/contracts/demand.ts';
import { MAX_RAW_RANGE_DAYS } from '@cm/contracts/check-limits.ts';
import { localDateOf } from '@cm/contracts/zoned-time.ts';
import type { Failure } from '@/lib/http-client.ts';
import type { ReadingsArgs } from './api.ts';
import { comparisonPlans, type ComparisonPlan } from './model/comparison.ts';
import { locationTotal } from './model/location-total.ts';
import {
  answerRange,
  effectiveGranularity,
  previousPeriod,
  projectionEnd,
  rangeDays,
  resolvePreset,
  validateRange,
  type DateRange,
} from './model/date-range.ts';
import { serializeCheckUrl, type CheckTarget, type CheckUrlState } from './model/url-state.ts';
import type { ComparisonTotal } from './totals/comparison-tiles.tsx';
import { locationBill } from './model/bill.ts';

/*
 * The check page as a pure function of its URL, the server's answers and the time: what to ask
 * for, and what to show. The page (check-page.tsx) runs the queries and renders the result.
 */

/** An answer as the page sees it: the data, or why there is none, and whether it is on its way. */
export interface Answer<T> {
  data: T | undefined;
  failure: Failure | null;
  isLoading: boolean;
  isFetching: boolean;
}

/** A text to show: an i18n key and its values. */
export interface Message {
  key: string;
  values?: Record<string, string | number>;
}

/** The comparison periods only need totals: monthly buckets keep those answers tiny. */
const COMPARISON_GRANULARITY: Granularity = 'month';

/** What the page asks the server for; null where it asks nothing. */
export interface CheckRequests {
  /** GetMeterInfo, for a meter target. */
  meterNumber: string | null;
  /** A location's meters and zone: a one-day answer in one bucket. */
  locationMeters: ReadingsArgs | null;
  readings: ReadingsArgs | null;
}

/** The comparisons, and what to ask for them (once the range's own answer says where its data ends). */
export interface ComparisonRequests {
  plans: ComparisonPlan[];
  previous: ReadingsArgs | null;
  lastYear: ReadingsArgs | null;
}

/** Today as a UTC date: the one-day answer that lists a location's meters (shared with the lookup). */
export function utcDateOf(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** The first two requests, which depend on the URL alone. */
export function lookupRequests(
  url: CheckUrlState,
  now: number,
): Pick<CheckRequests, 'meterNumber' | 'locationMeters'> {
  const { target } = url;
  const today = utcDateOf(now);
  return {
    meterNumber: target.kind === 'meter' ? target.meterNumber : null,
    locationMeters:
      target.kind === 'location' ? { name: target.name, From: today, To: today, granularity: 'month' } : null,
  };
}

/**
 * The range, its problem and the granularity, once the location's zone is known. A removed
 * meter's presets end on the day it was removed (its last week, not its successor's), unprojected.
 */
function rangeOf(
  url: CheckUrlState,
  {
    timeZone,
    billingDay,
    removedAtMs,
  }: { timeZone: string | null; billingDay: number | null; removedAtMs: number | null },
  now: number,
) {
  const isRemoved = removedAtMs !== null && removedAtMs <= now;
  // The removal instant ends its last day; a meter removed at midnight ended the day before.
  const today = timeZone ? localDateOf(isRemoved ? removedAtMs - 1 : now, timeZone) : null;
  const range: DateRange | null =
    url.range.kind === 'custom'
      ? { from: url.range.from, to: url.range.to }
      : today
        ? resolvePreset(url.range.preset, today, billingDay)
        : null;
  const problem = range && url.range.kind === 'custom' ? validateRange(range) : null;
  const chosen = range && !problem ? effectiveGranularity(url.granularity, range) : null;
  // 15 minutes and hours are answered for at most MAX_RAW_RANGE_DAYS: said at once, not asked for.
  const days = range ? rangeDays(range) : 0;
  const isTooLong = (chosen === 'raw' || chosen === 'hour') && days > MAX_RAW_RANGE_DAYS;
  const tooLong = isTooLong ? { granularity: chosen, days } : null;
  const projectTo =
    range && today && !problem && !isRemoved
      ? projectionEnd(url.range.kind === 'preset' ? url.range.preset : null, range, today)
      : null;
  return { range, problem, granularity: isTooLong ? null : chosen, tooLong, projectTo };
}

/** What the answers so far say about the target: its zone, its location and meter indicator. */
function targetOf(url: CheckUrlState, meter: Answer<MeterInfo>, meters: Answer<LocationReadings>) {
  const { target } = url;
  const meterInfo = target.kind === 'meter' ? meter.data : undefined;
  const listed = target.kind === 'location' ? meters.data : undefined;
  const timeZone = meterInfo?.location.timeZone ?? listed?.location.timeZone ?? null;
  const locationName = target.kind === 'location' ? target.name : (meterInfo?.location.publicName ?? null);
  const meterInd =
    target.kind === 'meter'
      ? meterInfo?.meterInd
      : target.kind === 'location' && target.meterInd !== 'all'
        ? target.meterInd
        : undefined;
  const hasUnknownMeterInd =
    target.kind === 'location' &&
    target.meterInd !== 'all' &&
    meters.data !== undefined &&
    !meters.data.meters.some((m) => m.meterInd === target.meterInd);
  const billingDay = meterInfo?.location.billingDay ?? listed?.location.billingDay ?? null;
  const removedAtMs = meterInfo?.removedAt ? Date.parse(meterInfo.removedAt) : null;
  return { meterInfo, timeZone, locationName, meterInd, hasUnknownMeterInd, billingDay, removedAtMs };
}

/** The readings the page asks for, given the lookup's answers. */
export function checkRequests(
  url: CheckUrlState,
  answers: { meter: Answer<MeterInfo>; meters: Answer<LocationReadings> },
  now: number,
): CheckRequests {
  const asked = askedRange(url, answers, now);
  return {
    ...lookupRequests(url, now),
    readings: asked?.granularity
      ? {
          ...asked.base,
          From: asked.range.from,
          To: asked.range.to,
          granularity: asked.granularity,
          // The bill is projected to the end of a calendar period so far, never of a rolling range.
          ...(asked.projectTo === null ? {} : { ProjectTo: asked.projectTo }),
        }
      : null,
  };
}

/** What the panels under the readings ask for that the readings request alone tells. */
export interface PanelRequests {
  /** The location's tariffs (the prices under the bill). */
  tariffs: string | null;
  /** One meter's monthly peaks over the 12 months ending with the range's last month (peaksQueryOf). */
  peaks: MonthlyPeaksQuery | null;
}

/**
 * The panels' requests, asked beside the readings instead of after their answer (one round trip
 * instead of two on a phone). The peaks only for one meter over whole local days, where the
 * request is exactly the one its panel makes from the answer (peaks-query.ts); a location's are
 * left to the answer, which says how many meters it holds.
 */
export function panelRequests(readings: ReadingsArgs | null): PanelRequests {
  if (!readings) return { tariffs: null, peaks: null };
  const wholeDays = /^\d{4}-\d{2}-\d{2}$/.test(readings.To);
  return {
    tariffs: readings.name,
    peaks:
      readings.meterInd === undefined || !wholeDays
        ? null
        : { name: readings.name, meterInd: readings.meterInd, Month: readings.To.slice(0, 7) },
  };
}

/** The bill card's requests: this billing period, projected to its end, and the bill before it. */
export interface BillRequests {
  current: ReadingsArgs | null;
  last: ReadingsArgs | null;
}

/**
 * The bill card at the top of a meter or location (issue 34, the bill first), whatever range the
 * page shows: this billing period (the location's billing day, or the calendar month), so far and
 * projected to its last day, and the whole bill before it. In one bucket each: only totals are read.
 */
export function billRequests(
  url: CheckUrlState,
  answers: { meter: Answer<MeterInfo>; meters: Answer<LocationReadings> },
  now: number,
): BillRequests {
  const asked = askedRange(
    { ...url, range: { kind: 'preset', preset: 'thisBill' }, granularity: 'month' },
    answers,
    now,
  );
  if (!asked) return { current: null, last: null };
  const last = previousPeriod(asked.range);
  return {
    current: {
      ...asked.base,
      From: asked.range.from,
      To: asked.range.to,
      granularity: 'month',
      ...(asked.projectTo === null ? {} : { ProjectTo: asked.projectTo }),
    },
    last: { ...asked.base, From: last.from, To: last.to, granularity: 'month' },
  };
}

/** What the page compares the range with, and asks for that, given the range's own answer. */
export function comparisonRequests(
  url: CheckUrlState,
  answers: { meter: Answer<MeterInfo>; meters: Answer<LocationReadings>; readings: Answer<LocationReadings> },
  now: number,
): ComparisonRequests {
  const asked = askedRange(url, answers, now);
  if (!asked) return { plans: [], previous: null, lastYear: null };
  const plans = comparisonPlans(
    asked.range,
    asked.timeZone,
    now,
    rangeData(answers.readings.data, asked.range),
  );
  const argsOf = (kind: ComparisonPlan['kind']) => {
    const query = plans.find((plan) => plan.kind === kind)?.query;
    return query ? { ...asked.base, ...query, granularity: COMPARISON_GRANULARITY } : null;
  };
  return { plans, previous: argsOf('previous'), lastYear: argsOf('lastYear') };
}

/** The location, meter indicator, zone and range the page asks about; null until all are known and valid. */
function askedRange(
  url: CheckUrlState,
  answers: { meter: Answer<MeterInfo>; meters: Answer<LocationReadings> },
  now: number,
) {
  const target = targetOf(url, answers.meter, answers.meters);
  const { timeZone, locationName, meterInd, hasUnknownMeterInd } = target;
  const { range, problem, granularity, projectTo } = rangeOf(url, target, now);
  if (!locationName || !timeZone || hasUnknownMeterInd || !range || problem) return null;
  const base = { name: locationName, ...(meterInd === undefined ? {} : { meterInd }) };
  return { base, range, granularity, timeZone, projectTo };
}

/** Where the range's answer ends its data; undefined until the answer on screen is the range's own. */
function rangeData(readings: LocationReadings | undefined, range: DateRange) {
  if (!readings) return undefined;
  const answered = answerRange(readings);
  if (answered.from !== range.from || answered.to !== range.to) return undefined;
  let dataEndMs: number | null = null;
  for (const meter of readings.meters) {
    for (const end of [meter.totals.dataEnd, meter.totals.other?.dataEnd]) {
      if (end) dataEndMs = Math.max(dataEndMs ?? -Infinity, Date.parse(end));
    }
  }
  return { dataEndMs };
}

/** The answers of the page's queries. */
export interface CheckAnswers {
  meter: Answer<MeterInfo>;
  meters: Answer<LocationReadings>;
  readings: Answer<LocationReadings>;
  previous: Answer<LocationReadings>;
  lastYear: Answer<LocationReadings>;
}

/** What the page shows. */
export interface CheckView {
  requests: CheckRequests & Omit<ComparisonRequests, 'plans'>;
  /** Meter number or location name, for the document title (null on an empty page). */
  titleSubject: string | null;
  /** The lookup starts afresh when the target changes (back/forward, a bookmark). */
  lookupKey: string;
  todayUtc: string;
  errors: {
    meter: Message | null;
    location: Message | null;
    meterInd: Message | null;
    from: Message | null;
    to: Message | null;
    granularity: Message | null;
  };
  /** The meter number the server does not know (404), for the not-found alert. */
  notFoundMeter: string | null;
  /** A failure that belongs to no field. */
  otherFailure: 'network' | 'failed' | null;
  card: { meter: MeterInfo; meterNumbers: string[] | undefined } | null;
  isLoadingCard: boolean;
  /** The location's time zone, once an answer gave it. */
  timeZone: string | null;
  /** The range controls, when a target is there to ask about. */
  rangeControls: { key: string; resolved: DateRange | null; effective: Granularity | null } | null;
  /** The answer on screen; while a new one loads the previous one stays (dimmed). */
  readings: LocationReadings | undefined;
  isReadingsStale: boolean;
  isReadingsPending: boolean;
  /** Meter number or location name, for the CSV file name and the print title. */
  subject: string;
  comparisons: ComparisonTotal[];
}

/** Which field a failure belongs next to, said by meaning (the server's words stay as a detail). */
function fieldMessage(failure: Failure | null, param: string): Message | null {
  if (!failure || failure.param !== param) return null;
  if (failure.status === 404 && param === 'name') return { key: 'check.errors.locationNotFound' };
  if (failure.status === 404 && param === 'meterInd') return { key: 'check.errors.meterIndNotFound' };
  if (failure.status === 400)
    return { key: `check.errors.badParam.${param}`, values: { detail: failure.message ?? '' } };
  return null;
}

function comparisonOf(plan: ComparisonPlan, answer: Answer<LocationReadings>): ComparisonTotal {
  const { query } = plan;
  const total = query && answer.data ? locationTotal(answer.data.meters) : null;
  const bill = query && answer.data ? locationBill(answer.data.meters) : null;
  return {
    ...plan,
    consumption: total?.consumption ?? null,
    // A period without data has no bill to compare, only standing charges.
    cost:
      bill && total?.consumption !== null && total?.consumption !== undefined
        ? { amount: bill.bill.total, currency: bill.bill.currency }
        : null,
    coverage: total?.coverage ?? null,
    isLoading: plan.awaitsRange || (query !== null && answer.isFetching),
    isError: query !== null && answer.failure !== null,
  };
}

/** The check page for a URL, the answers so far and the time. */
export function deriveCheckView(url: CheckUrlState, answers: CheckAnswers, now: number): CheckView {
  const { target } = url;
  const compared = comparisonRequests(url, answers, now);
  const requests = {
    ...checkRequests(url, answers, now),
    previous: compared.previous,
    lastYear: compared.lastYear,
  };
  const targetFound = targetOf(url, answers.meter, answers.meters);
  const { meterInfo, timeZone, hasUnknownMeterInd } = targetFound;
  const { range, problem, tooLong } = rangeOf(url, targetFound, now);

  const meterFailure = target.kind === 'meter' ? answers.meter.failure : null;
  const metersFailure = target.kind === 'location' ? answers.meters.failure : null;
  const readingsFailure = requests.readings ? answers.readings.failure : null;
  const isMeterNotFound = meterFailure?.status === 404;

  const rangeErrors = {
    from: fieldMessage(readingsFailure, 'From'),
    to: fieldMessage(readingsFailure, 'To'),
    granularity: fieldMessage(readingsFailure, 'granularity'),
  };
  if (tooLong)
    rangeErrors.granularity = {
      key: `check.range.errors.${tooLong.granularity}TooLong`,
      values: { days: tooLong.days, max: MAX_RAW_RANGE_DAYS },
    };
  if (problem)
    rangeErrors[problem.field] = {
      key: problem.reason === 'order' ? 'check.range.errors.order' : 'check.range.errors.invalid',
    };
  const locationError = fieldMessage(metersFailure, 'name') ?? fieldMessage(readingsFailure, 'name');
  const other =
    (meterFailure && !isMeterNotFound && meterFailure.status !== 400 ? meterFailure : null) ??
    (metersFailure && metersFailure.param === null ? metersFailure : null) ??
    (readingsFailure && readingsFailure.param === null ? readingsFailure : null);

  const readings = requests.readings && !readingsFailure ? answers.readings.data : undefined;
  // A location's meter: from the readings on screen when they are its own, else from the meter
  // list, which answers first (the card is there before a year of readings is).
  const shownMeter = readings?.meters.length === 1 ? readings.meters[0] : undefined;
  const listedMeter: MeterReadings | undefined =
    target.kind === 'location' && target.meterInd !== 'all'
      ? answers.meters.data?.meters.find((m) => m.meterInd === target.meterInd)
      : undefined;
  const locationMeter =
    shownMeter && (!listedMeter || shownMeter.meterInd === listedMeter.meterInd) ? shownMeter : listedMeter;
  const card = meterInfo
    ? { meter: meterInfo, meterNumbers: readings?.meters[0]?.meterNumbers }
    : locationMeter
      ? { meter: locationMeter.meter, meterNumbers: locationMeter.meterNumbers }
      : null;
  const isLoadingCard =
    (target.kind === 'meter' && answers.meter.isLoading) ||
    (target.kind === 'location' &&
      target.meterInd !== 'all' &&
      !card &&
      (answers.readings.isLoading || answers.meters.isLoading));

  const resolved = range && !problem ? range : null;
  return {
    requests,
    titleSubject: titleSubjectOf(url),
    lookupKey: lookupKeyOf(url.target),
    todayUtc: utcDateOf(now),
    errors: {
      meter: meterErrorOf(meterFailure),
      location: locationError,
      meterInd: hasUnknownMeterInd
        ? { key: 'check.errors.meterIndNotFound' }
        : fieldMessage(readingsFailure, 'meterInd'),
      ...rangeErrors,
    },
    notFoundMeter: isMeterNotFound && target.kind === 'meter' ? target.meterNumber : null,
    otherFailure: other === null ? null : other.status === 'NETWORK_ERROR' ? 'network' : 'failed',
    card,
    isLoadingCard,
    timeZone,
    rangeControls:
      target.kind !== 'none' && !isMeterNotFound && locationError === null
        ? {
            key: `${serializeCheckUrl({ ...url, target: { kind: 'none' } })}|${range?.from ?? ''}|${range?.to ?? ''}`,
            resolved,
            effective: resolved ? effectiveGranularity(url.granularity, resolved) : null,
          }
        : null,
    readings,
    isReadingsStale: readings !== undefined && answers.readings.isFetching,
    isReadingsPending: requests.readings !== null && !readings && answers.readings.isFetching,
    subject: subjectOf(url, readings),
    comparisons: compared.plans.map((plan) =>
      comparisonOf(plan, plan.kind === 'previous' ? answers.previous : answers.lastYear),
    ),
  };
}

function meterErrorOf(failure: Failure | null): Message | null {
  if (failure?.status === 404) return { key: 'check.errors.meterNotFound' };
  if (failure?.status === 400)
    return { key: 'check.errors.badParam.meterNumber', values: { detail: failure.message ?? '' } };
  return null;
}

function titleSubjectOf({ target }: CheckUrlState): string | null {
  if (target.kind === 'meter') return target.meterNumber;
  if (target.kind === 'location') return target.name;
  return null;
}

/** The lookup's identity for a target: the panel starts afresh when it changes. */
export function lookupKeyOf(target: CheckTarget): string {
  if (target.kind === 'meter') return `m:${target.meterNumber}`;
  if (target.kind === 'location') return `l:${target.name}:${target.meterInd}`;
  return 'none';
}

function subjectOf({ target }: CheckUrlState, readings: LocationReadings | undefined): string {
  if (target.kind === 'meter') return target.meterNumber;
  if (target.kind === 'location' && target.meterInd === 'all') return target.name;
  if (target.kind === 'location') return readings?.meters[0]?.meter.meterNumber ?? target.name;
  return '';
}
