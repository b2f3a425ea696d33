import { MAX_CORRECTIONS, MAX_RAW_RANGE_DAYS, MAX_RESPONSE_POINTS } from '@cm/contracts/check.ts';
import { Role } from '@cm/contracts/enums.ts';
import type {
  Channel,
  Granularity,
  LocationReadings,
  LocationReadingsQuery,
  Bill,
  MeterInfo,
  MeterReadings,
  ReadingCorrections,
  ReadingCorrectionsQuery,
} from '@cm/contracts/check.ts';
import { billingPeriod } from '@cm/contracts/billing-period.ts';
import { DAY_MS, localDateOf } from '@cm/contracts/zoned-time.ts';
import type { MonthlyPeaks, MonthlyPeaksQuery } from '@cm/contracts/demand.ts';
import type { Baseload, BaseloadQuery } from '@cm/contracts/baseload.ts';
import type { Db } from '../../db/client.ts';
import { HttpError, notFound } from '../../http-error.ts';
import {
  COMPLETENESS_WINDOW_MS,
  Completeness,
  computeReadings,
  type ChannelSegments,
  type MeterSegment,
  type SeriesColumns,
  RangeInputError,
  resolveProjectTo,
  resolveRange,
  type ResolvedRange,
  presentCarbon,
  presentReadings,
  CHANNEL_NUMBER,
  readings,
  LatestReadings,
  NO_READING,
  type LastReadingAndWindow,
  ReadingsStore,
  type ChannelReadings,
  type PriceTimeline,
  NO_KNOWN_INTERVALS,
} from '../readings/index.ts';
import { type AuthContext, scopeOf } from '../access/index.ts';
import type { AccessRead, AccessRecording, Reader } from '../access-log/index.ts';
import { presentLocation, presentMeter } from './check.presenter.ts';
import {
  findLocationMeters,
  findVisibleLocationWithMeters,
  findVisibleMeter,
  metersDuring,
  type LocationMeter,
} from '../directory/index.ts';
import {
  locationPrices,
  type RangePrices,
  billOf,
  demandLookbackFrom,
  demandSettingsKey,
  foldEarlierMonths,
  type EarlierMonths,
} from '../tariffs/index.ts';
import { locationCarbonTimeline } from '../series/index.ts';
import { bucketEdges } from '../readings/index.ts';
import { monthsEnding, peaksOf, presentMonthlyPeaks } from './monthly-peaks.ts';
import { DemandHistory } from './demand-history.ts';
import { heldReadingsKey } from './held-readings-key.ts';
import {
  BASELOAD_NIGHTS,
  baseloadOf,
  daysBefore,
  nightSplitOf,
  nightsBefore,
  type Night,
} from './baseload.ts';

/** The readings answer with each series as typed columns; written as JSON it is the contract's `LocationReadings`. */
export type LocationReadingsAnswer = Omit<LocationReadings, 'meters'> & {
  meters: (Omit<MeterReadings, 'series'> & { series: SeriesColumns })[];
};

/** The same words whether the meter does not exist or belongs to someone else: no existence leak. */
export const METER_NOT_FOUND = 'Meter not found. Check the meter number.';
export const LOCATION_NOT_FOUND = 'Location not found. Check the public name.';

export class CheckService {
  private readonly series: ReadingsStore;
  private readonly completeness: Completeness;
  private readonly latest: LatestReadings;
  private readonly access: AccessRecording | undefined;
  private readonly demandHistory = new DemandHistory();

  /** `access`: where reads by others than the meter's customer are logged ("Who read my data"). */
  constructor(
    private readonly db: Db,
    options: { useChunks?: boolean; access?: AccessRecording } = {},
  ) {
    this.access = options.access;
    this.series = new ReadingsStore(db, options.useChunks ?? true);
    this.completeness = new Completeness(db);
    this.latest = new LatestReadings(db);
  }

  async meterInfo(
    caller: AuthContext,
    meterNumber: string,
    reader: Reader | null = null,
  ): Promise<MeterInfo> {
    const meter = await findVisibleMeter(this.db, meterNumber, scopeOf(caller));
    if (!meter) throw notFound(METER_NOT_FOUND);
    const last = await this.latest.of([meter], COMPLETENESS_WINDOW_MS);
    await this.logRead(reader, [meter.id], ['details'], null, 'GetMeterInfo');
    return this.describeMeter(meter, last.get(meter.id));
  }

  async describeMeter(meter: LocationMeter, last: LastReadingAndWindow | undefined): Promise<MeterInfo> {
    const latest = last ?? NO_READING;
    return presentMeter(meter, latest, await this.completeness.of(meter, latest), Date.now());
  }

  /**
   * Values of a meter's channel between From and To (the meter's location days) that a later
   * import or device batch replaced: before and after, when, and from what. Administrators also see
   * the import's own note naming who ran it.
   */
  async readingCorrections(
    caller: AuthContext,
    query: ReadingCorrectionsQuery,
    reader: Reader | null = null,
  ): Promise<ReadingCorrections> {
    const meter = await findVisibleMeter(this.db, query.meterNumber, scopeOf(caller));
    if (!meter) throw new HttpError(404, METER_NOT_FOUND, 'meterNumber');
    const channel = query.channel ?? 'import';
    const range = resolveQueryRange({ ...query, granularity: 'day' }, meter.location.timeZone);
    const found = await readings.corrections(
      this.db,
      {
        meterId: meter.id,
        channel: CHANNEL_NUMBER[channel],
        from: new Date(range.fromMs),
        to: new Date(range.toMs),
      },
      MAX_CORRECTIONS,
      caller.user.role === Role.Admin,
    );
    await this.logRead(reader, [meter.id], ['registers', 'intervals'], range, 'GetReadingCorrections');
    return {
      meterNumber: meter.meterNumber,
      channel,
      from: new Date(range.fromMs).toISOString(),
      to: new Date(range.toMs).toISOString(),
      ...found,
    };
  }

  /**
   * A location's readings between From and To, per meter indicator (every indicator when meterInd
   * is omitted). An indicator's history spans every physical meter it held, so a meter exchange
   * keeps consumption continuous.
   */
  async locationReadings(
    caller: AuthContext,
    query: LocationReadingsQuery,
    reader: Reader | null = null,
  ): Promise<LocationReadingsAnswer> {
    const found = await findVisibleLocationWithMeters(this.db, query.name, scopeOf(caller), query.meterInd);
    if (!found) throw new HttpError(404, LOCATION_NOT_FOUND, 'name');
    const { location } = found;
    const range = resolveQueryRange(query, location.timeZone);
    const from = new Date(range.fromMs);
    const to = new Date(range.toMs);
    const { current, overlapping } = metersDuring(found.meters, from, to);
    // Every indicator that ever held a meter has a current (last installed) one.
    if (query.meterInd !== undefined && current.length === 0) {
      throw new HttpError(404, `This location has no meter ${query.meterInd}.`, 'meterInd');
    }
    refuseOversizeAnswer(query, range, current);
    // Prices are read while the readings load (and only when some will be).
    const where = { id: location.id, timeZone: location.timeZone, billingDay: location.billingDay };
    const projectToMs = range.projectToMs ?? range.toMs;
    const prices =
      current.length === 0
        ? Promise.resolve(null)
        : locationPrices(this.db, where, range.fromMs, projectToMs);
    const carbon =
      current.length === 0
        ? Promise.resolve(null)
        : locationCarbonTimeline(this.db, location.id, range.fromMs, range.toMs);
    const nowMs = Date.now();
    // Each meter's card (latest reading, completeness: one round trip) is read while its readings load.
    const latestOfAll = this.latest.of(current, COMPLETENESS_WINDOW_MS);
    const meters = [];
    for (const currentMeter of current) {
      const held = overlapping.filter((meter) => meter.meterInd === currentMeter.meterInd);
      const [{ computed, bill, region }, meter] = await Promise.all([
        this.indicator(
          held,
          { ...range, timeZone: location.timeZone, billingDay: location.billingDay, nowMs, prices, carbon },
          {
            primary: query.channel ?? 'import',
            ...(query.maxPoints === undefined ? {} : { maxPoints: query.maxPoints }),
          },
        ),
        latestOfAll.then((latest) => this.describeMeter(currentMeter, latest.get(currentMeter.id))),
      ]);
      meters.push({
        meterInd: currentMeter.meterInd,
        meter,
        meterNumbers: held.map((meter) => meter.meterNumber),
        ...presentReadings(computed),
        bill,
        ...(region === null ? {} : { carbon: presentCarbon(computed, region) }),
      });
    }
    await this.logRead(
      reader,
      overlapping.map((meter) => meter.id),
      ['details', 'registers', 'intervals', 'cost'],
      range,
      'GetElectricMeterInformationByLocationPublicName',
    );
    return {
      location: presentLocation(location),
      from: from.toISOString(),
      to: to.toISOString(),
      granularity: range.granularity,
      meters,
    };
  }

  /**
   * A meter's (meterInd) or a location's peak demand in each of the 12 local months ending with
   * Month, and their rolling average: a location's main supply meter(s), else all its meters
   * summed interval by interval (what they draw at once, not the sum of their own peaks).
   */
  async monthlyPeaks(
    caller: AuthContext,
    query: MonthlyPeaksQuery,
    reader: Reader | null = null,
  ): Promise<MonthlyPeaks> {
    const found = await findVisibleLocationWithMeters(this.db, query.name, scopeOf(caller), query.meterInd);
    if (!found) throw new HttpError(404, LOCATION_NOT_FOUND, 'name');
    const { location } = found;
    const timeZone = location.timeZone;
    const nowMs = Date.now();
    const { fromMs, toMs } = monthsEnding(query.Month, timeZone, nowMs);
    const from = new Date(fromMs);
    const to = new Date(toMs);
    const { current, overlapping } = metersDuring(found.meters, from, to);
    if (query.meterInd !== undefined && current.length === 0)
      throw new HttpError(404, `This location has no meter ${query.meterInd}.`, 'meterInd');
    const mains = current.filter((meter) => meter.mainSupply);
    const basis = query.meterInd !== undefined ? 'meter' : mains.length > 0 ? 'mainSupply' : 'allMeters';
    const counted = basis === 'mainSupply' ? mains : current;
    const held = counted.map((meter) => overlapping.filter((m) => m.meterInd === meter.meterInd));
    const indicators = await Promise.all(
      held.map(async (meters) => {
        const loaded = await Promise.all(meters.map((meter) => this.readingsOf(meter, from, to)));
        const segments = meters.map((meter, i) => segmentOf(meter, loaded[i]?.get(CHANNEL_NUMBER.import)));
        const computed = computeReadings(
          { import: segments },
          {
            fromMs,
            toMs,
            timeZone,
            granularity: 'month',
            nowMs,
            primary: 'import',
            keepIntervals: counted.length > 1,
          },
        );
        return {
          computed: computed.primary,
          fromMs: Math.min(...meters.map((meter) => meter.installedAt.getTime())),
          toMs: Math.max(...meters.map((meter) => meter.removedAt?.getTime() ?? Infinity)),
        };
      }),
    );
    const edges = bucketEdges(fromMs, toMs, 'month', timeZone);
    await this.logRead(
      reader,
      held.flat().map((meter) => meter.id),
      ['intervals'],
      { fromMs, toMs },
      'GetMonthlyPeaks',
    );
    return {
      location: presentLocation(location),
      meterInd: query.meterInd ?? null,
      basis,
      meterNumbers: held.flat().map((meter) => meter.meterNumber),
      ...presentMonthlyPeaks(peaksOf(indicators, edges), edges, timeZone),
    };
  }

  /** Logs a read by `reader` (none for the meters' own customer) of these meters' data. */
  private async logRead(
    reader: Reader | null,
    meterIds: readonly number[],
    data: AccessRead['data'],
    range: { fromMs: number; toMs: number } | null,
    what: string,
  ): Promise<void> {
    if (!reader || !this.access || meterIds.length === 0) return;
    await this.access.record({
      meterIds,
      reader,
      data,
      fromMs: range?.fromMs ?? null,
      toMs: range?.toMs ?? null,
      what,
    });
  }

  /**
   * A meter's always-on power over the 14 nights before the range's end (and the 14 before those)
   * and its night/day split over the range (and the same number of local days before it): the
   * rules are baseload.ts's, on the engine's intervals of the meter's import channel.
   */
  async baseload(caller: AuthContext, query: BaseloadQuery): Promise<Baseload> {
    const meter = await findVisibleMeter(this.db, query.meterNumber, scopeOf(caller));
    if (!meter) throw new HttpError(404, METER_NOT_FOUND, 'meterNumber');
    const { timeZone } = meter.location;
    const range = resolveQueryRange({ From: query.From, To: query.To, granularity: 'day' }, timeZone);
    if (range.toMs - range.fromMs > MAX_RAW_RANGE_DAYS * DAY_MS)
      throw new HttpError(400, `To: the range is at most ${MAX_RAW_RANGE_DAYS} days.`, 'To');
    const nowMs = Date.now();
    const endMs = Math.min(range.toMs, nowMs);
    const nights = nightsBefore(endMs, timeZone, BASELOAD_NIGHTS);
    const before = nightsBefore(endMs, timeZone, BASELOAD_NIGHTS, BASELOAD_NIGHTS);
    const previous = daysBefore(range.fromMs, range.toMs, timeZone);
    const fromMs = Math.min(previous.fromMs, before[0]?.start ?? range.fromMs);
    const toMs = Math.max(range.toMs, nights.at(-1)?.end ?? range.toMs);
    const loaded = await this.readingsOf(meter, new Date(fromMs), new Date(toMs));
    const { primary } = computeReadings(
      { import: [segmentOf(meter, loaded.get(CHANNEL_NUMBER.import))] },
      { fromMs, toMs, timeZone, granularity: 'day', nowMs, primary: 'import', keepIntervals: true },
    );
    const intervals = primary.intervals ?? NO_KNOWN_INTERVALS;
    const iso = (ms: number) => new Date(ms).toISOString();
    const measured = (over: readonly Night[]) => ({
      ...baseloadOf(intervals, over),
      from: iso(over[0]?.start ?? endMs),
      to: iso(over.at(-1)?.end ?? endMs),
    });
    const split = (from: number, to: number) => ({
      from: iso(from),
      to: iso(to),
      ...nightSplitOf(intervals, from, to, timeZone),
    });
    return {
      meterNumber: meter.meterNumber,
      timeZone,
      baseload: measured(nights),
      previousBaseload: measured(before),
      night: split(range.fromMs, range.toMs),
      previousNight: split(previous.fromMs, previous.toMs),
    };
  }

  /**
   * Each current meter's bill over its location's billing period up to now (the "bill to date"
   * alerts), by device id; empty without a tariff.
   */
  async billsToDate(
    location: { id: number; timeZone: string; billingDay: number | null },
    nowMs: number,
  ): Promise<Map<number, Bill>> {
    const period = billingPeriod(localDateOf(nowMs, location.timeZone), location.billingDay);
    const range = {
      ...resolveRange({ From: period.from, To: period.to }, location.timeZone, 'day'),
      granularity: 'day' as const,
    };
    const [meters, prices] = await Promise.all([
      findLocationMeters(this.db, location.id, undefined),
      locationPrices(this.db, location, range.fromMs, range.toMs),
    ]);
    const { current, overlapping } = metersDuring(meters, new Date(range.fromMs), new Date(range.toMs));
    const bills = new Map<number, Bill>();
    if (!prices) return bills;
    for (const meter of current) {
      const held = overlapping.filter((candidate) => candidate.meterInd === meter.meterInd);
      const { bill } = await this.indicator(
        held,
        {
          ...range,
          timeZone: location.timeZone,
          billingDay: location.billingDay,
          nowMs,
          prices: Promise.resolve(prices),
        },
        { primary: 'import' },
      );
      if (bill) bills.set(meter.id, bill);
    }
    return bills;
  }

  /**
   * The bill of one of a customer's meters (`userId` must see it) over [fromMs, toMs] at its
   * location's tariffs, as the check page prices it, with the energy it imported (millionths of a
   * kWh); null without a tariff, or for a meter the customer does not see. For Connect My Data's
   * UsageSummary (a grant of cost).
   */
  async meterCost(
    userId: number,
    meterNumber: string,
    fromMs: number,
    toMs: number,
    nowMs = Date.now(),
  ): Promise<{ bill: Bill; importMicro: number | null } | null> {
    const meter = await findVisibleMeter(this.db, meterNumber, { isAdmin: false, userId });
    if (!meter || toMs <= fromMs) return null;
    const { location } = meter;
    const prices = await locationPrices(this.db, location, fromMs, toMs);
    if (!prices) return null;
    const { computed, bill } = await this.indicator(
      [meter],
      {
        fromMs,
        toMs,
        granularity: 'day',
        timeZone: location.timeZone,
        billingDay: location.billingDay,
        nowMs,
        prices: Promise.resolve(prices),
      },
      { primary: 'import' },
    );
    return bill ? { bill, importMicro: computed.primary.totals.consumption } : null;
  }

  /** One meter indicator over a range: its readings computed and priced, and its bill. */
  private async indicator(
    held: LocationMeter[],
    where: ResolvedRange & {
      granularity: Granularity;
      timeZone: string;
      billingDay: number | null;
      nowMs: number;
      prices: Promise<RangePrices | null>;
      /** The grid's carbon intensity (issue 36); absent or null: no emissions. */
      carbon?: Promise<{ region: string; timeline: PriceTimeline } | null>;
      /** Where a range still going is projected to (ProjectTo); absent: not projected. */
      projectToMs?: number | undefined;
    },
    options: { primary: Channel; maxPoints?: number },
  ) {
    const from = new Date(where.fromMs);
    const to = new Date(where.toMs);
    const [loaded, prices, carbon] = await Promise.all([
      Promise.all(held.map((meter) => this.readingsOf(meter, from, to))),
      where.prices,
      where.carbon ?? null,
    ]);
    const segments = (channel: Channel) =>
      held.map((meter, i) => segmentOf(meter, loaded[i]?.get(CHANNEL_NUMBER[channel])));
    const hasExport = held.some((meter) => meter.channels.includes(CHANNEL_NUMBER.export));
    const input: ChannelSegments = {
      import: segments('import'),
      ...(hasExport ? { export: segments('export') } : {}),
    };
    const lookbackMs = prices ? demandLookbackFrom(prices.versions, where.fromMs, where.timeZone) : null;
    const computed = computeReadings(input, {
      fromMs: where.fromMs,
      toMs: where.toMs,
      timeZone: where.timeZone,
      granularity: where.granularity,
      nowMs: where.nowMs,
      primary: options.primary,
      ...(prices ? { prices: prices.timelines } : {}),
      ...(carbon ? { carbon: carbon.timeline } : {}),
      ...(options.maxPoints === undefined ? {} : { maxPoints: options.maxPoints }),
      ...(lookbackMs === null ? {} : { keepIntervals: true }),
      readingsKey: heldReadingsKey(held, where.fromMs, where.toMs, where.timeZone),
    });
    const byChannel = {
      [computed.primary.channel]: computed.primary,
      ...(computed.other ? { [computed.other.channel]: computed.other } : {}),
    };
    const bill = billOf({
      versions: prices?.versions ?? [],
      days: prices?.days ?? NO_DAYS,
      fromMs: where.fromMs,
      toMs: where.toMs,
      projectToMs: where.projectToMs,
      nowMs: where.nowMs,
      imported: byChannel.import?.cost,
      exported: byChannel.export?.cost,
      dataEndMs: byChannel.import?.totals.dataEndMs ?? null,
      ...(lookbackMs === null
        ? {}
        : {
            demand: {
              intervals: byChannel.import?.intervals ?? NO_KNOWN_INTERVALS,
              earlier: prices && (await this.earlierMonths(held, lookbackMs, where, prices.versions)),
              timeZone: where.timeZone,
              billingDay: where.billingDay,
            },
          }),
    });
    return { computed, bill, region: carbon?.region ?? null };
  }

  /**
   * The months before the range that a tariff's ratchet and capacity charge look at
   * (demandLookbackFrom), read, computed and folded here; remembered (demand-history.ts) once they
   * are past. Null when the charges need nothing before the range.
   */
  private async earlierMonths(
    held: LocationMeter[],
    lookbackMs: number,
    where: { fromMs: number; timeZone: string; nowMs: number },
    versions: RangePrices['versions'],
  ): Promise<EarlierMonths | null> {
    if (lookbackMs >= where.fromMs) return null;
    const compute = async () => {
      const from = new Date(lookbackMs);
      const to = new Date(where.fromMs);
      const loaded = await Promise.all(held.map((meter) => this.readingsOf(meter, from, to)));
      const intervals =
        computeReadings(
          { import: held.map((meter, i) => segmentOf(meter, loaded[i]?.get(CHANNEL_NUMBER.import))) },
          {
            fromMs: lookbackMs,
            toMs: where.fromMs,
            timeZone: where.timeZone,
            granularity: 'month',
            nowMs: where.nowMs,
            primary: 'import',
            keepIntervals: true,
          },
        ).primary.intervals ?? NO_KNOWN_INTERVALS;
      return foldEarlierMonths(intervals, versions, where.fromMs, where.timeZone);
    };
    // A lookback ending after now is still being written: computed each time.
    if (where.fromMs > where.nowMs) return compute();
    const key = `${heldReadingsKey(held, lookbackMs, where.fromMs, where.timeZone)}|${demandSettingsKey(versions)}`;
    return this.demandHistory.months(key, compute);
  }

  /** A meter's readings of every channel it has, read only over the time it was installed. */
  private async readingsOf(
    meter: LocationMeter,
    from: Date,
    to: Date,
  ): Promise<Map<number, ChannelReadings>> {
    // The months before or after a meter's life are not read (nor packed into chunks), however
    // long the range asked for.
    const start = Math.max(from.getTime(), meter.installedAt.getTime());
    const end = Math.min(to.getTime(), meter.removedAt?.getTime() ?? Infinity);
    if (start > end) return new Map();
    return this.series.load(meter.id, meter.channels, new Date(start), new Date(end));
  }
}

function segmentOf(meter: LocationMeter, readings: ChannelReadings | undefined): MeterSegment {
  return {
    meterNumber: meter.meterNumber,
    multiplier: meter.multiplier,
    registerDigits: meter.registerDigits,
    intervalMs: meter.intervalMinutes * 60_000,
    registers: readings?.registers ?? EMPTY_READINGS.registers,
    intervals: readings?.intervals ?? EMPTY_READINGS.intervals,
  };
}

const NO_DAYS = { edges: [], version: [] };

const EMPTY_READINGS: ChannelReadings = {
  registers: { t: [], micro: [], quality: [], revised: [] },
  intervals: { start: [], end: [], micro: [], quality: [], revised: [] },
};

/** One request must not build an answer large enough to starve the others. */
function refuseOversizeAnswer(
  query: LocationReadingsQuery,
  range: ResolvedRange & { granularity: Granularity },
  meters: LocationMeter[],
) {
  if (range.granularity !== 'raw' && range.granularity !== 'hour') return;
  const perMeter = meters.map((meter) => {
    const step = range.granularity === 'hour' ? 3_600_000 : meter.intervalMinutes * 60_000;
    const points = Math.ceil((range.toMs - range.fromMs) / step) + 1;
    return query.maxPoints === undefined ? points : Math.min(points, query.maxPoints);
  });
  const total = perMeter.reduce((sum, points) => sum + points, 0);
  if (total > MAX_RESPONSE_POINTS) {
    throw new HttpError(
      400,
      `This would answer about ${total.toLocaleString('en')} points, more than ${MAX_RESPONSE_POINTS.toLocaleString('en')}: choose a meterInd, set maxPoints, or use a coarser granularity.`,
      'granularity',
    );
  }
}

/**
 * Resolves From/To in the location's zone. Without a granularity, ranges that raw data may
 * cover are answered raw and longer ones by day, so a plain query never fails for its length.
 */
function resolveQueryRange(
  query: Pick<LocationReadingsQuery, 'From' | 'To' | 'granularity' | 'ProjectTo'>,
  timeZone: string,
): ResolvedRange & { granularity: Granularity; projectToMs?: number } {
  try {
    const range = resolveRange(query, timeZone, query.granularity ?? 'day');
    const isShort = range.toMs - range.fromMs <= MAX_RAW_RANGE_DAYS * 86_400_000;
    const granularity = query.granularity ?? (isShort ? 'raw' : 'day');
    return {
      ...range,
      granularity,
      ...(query.ProjectTo === undefined
        ? {}
        : { projectToMs: resolveProjectTo(query.ProjectTo, range, timeZone) }),
    };
  } catch (error) {
    if (error instanceof RangeInputError) throw new HttpError(400, error.message, error.param);
    throw error;
  }
}
