import {
  MAX_RAW_RANGE_DAYS,
  MAX_RESPONSE_POINTS,
  type Granularity,
  type LocationReadings,
  type LocationReadingsQuery,
  type MeterInfo,
} from '@cm/contracts/check.ts';
import type { Db } from '../../db/client.ts';
import { HttpError, notFound } from '../../http-error.ts';
import { computeReadings, type MeterSegment } from '../readings/consumption.ts';
import { RangeInputError, resolveRange, type ResolvedRange } from '../readings/range.ts';
import type { AuthContext } from '../auth/auth.service.ts';
import { scopeOf } from '../scope.ts';
import { presentLocation, presentMeter } from './check.presenter.ts';
import { ReadingsStore } from './readings-store.ts';
import {
  findCurrentMeters,
  findFirstGapSince,
  findLocationMeters,
  findVisibleLocation,
  findVisibleMeter,
  locationHasMeterInd,
  type MeterDetailsRow,
  type MeterRow,
} from './check.queries.ts';

/** The same words whether the meter does not exist or belongs to someone else: no existence leak. */
export const METER_NOT_FOUND = 'Meter not found. Check the meter number.';
export const LOCATION_NOT_FOUND = 'Location not found. Check the public name.';

export class CheckService {
  private readonly readings: ReadingsStore;

  constructor(private readonly db: Db) {
    this.readings = new ReadingsStore(db);
  }

  async meterInfo(caller: AuthContext, meterNumber: string): Promise<MeterInfo> {
    const meter = await findVisibleMeter(this.db, meterNumber, scopeOf(caller));
    if (!meter) throw notFound(METER_NOT_FOUND);
    return this.describeMeter(meter);
  }

  /**
   * Presents a meter with its completeness: when the readings counted in the window before the
   * last one are as many as the interval allows, there is no gap and the data is complete up to
   * the last reading; otherwise the window is scanned for the first gap (rare, and bounded).
   */
  async describeMeter(meter: MeterDetailsRow): Promise<MeterInfo> {
    let completeUpTo: Date | null = null;
    if (meter.last_read_at && meter.window_first_at) {
      const intervalMs = meter.interval_minutes * 60_000;
      const expected =
        Math.round((meter.last_read_at.getTime() - meter.window_first_at.getTime()) / intervalMs) + 1;
      completeUpTo =
        meter.window_readings >= expected
          ? meter.last_read_at
          : ((await findFirstGapSince(
              this.db,
              meter.device_id,
              meter.interval_minutes,
              meter.window_first_at,
              meter.last_read_at,
            )) ?? meter.last_read_at);
    }
    return presentMeter(meter, completeUpTo, Date.now());
  }

  /**
   * A location's readings between From and To, per meter indicator (every indicator when meterInd
   * is omitted). An indicator's history spans every physical meter it held, so a meter exchange
   * keeps consumption continuous.
   */
  async locationReadings(caller: AuthContext, query: LocationReadingsQuery): Promise<LocationReadings> {
    const location = await findVisibleLocation(this.db, query.name, scopeOf(caller));
    if (!location) throw new HttpError(404, LOCATION_NOT_FOUND, 'name');
    const range = resolveQueryRange(query, location.time_zone);
    const from = new Date(range.fromMs);
    const to = new Date(range.toMs);
    if (query.meterInd !== undefined && !(await locationHasMeterInd(this.db, location.id, query.meterInd))) {
      throw new HttpError(404, `This location has no meter ${query.meterInd}.`, 'meterInd');
    }
    const [current, overlapping] = await Promise.all([
      findCurrentMeters(this.db, location.id, query.meterInd),
      findLocationMeters(this.db, location.id, query.meterInd, from, to),
    ]);
    refuseOversizeAnswer(query, range, current);
    const nowMs = Date.now();
    const meters = [];
    for (const currentMeter of current) {
      const held = overlapping.filter((meter) => meter.meter_ind === currentMeter.meter_ind);
      const segments = await Promise.all(held.map((meter) => this.segmentOf(meter, from, to)));
      const computed = computeReadings(segments, {
        fromMs: range.fromMs,
        toMs: range.toMs,
        timeZone: location.time_zone,
        granularity: range.granularity,
        nowMs,
        ...(query.maxPoints === undefined ? {} : { maxPoints: query.maxPoints }),
      });
      meters.push({
        meterInd: currentMeter.meter_ind,
        meter: await this.describeMeter(currentMeter),
        meterNumbers: held.map((meter) => meter.meter_number),
        ...computed,
      });
    }
    return {
      location: presentLocation(location),
      from: from.toISOString(),
      to: to.toISOString(),
      granularity: range.granularity,
      meters,
    };
  }

  private async segmentOf(meter: MeterRow, from: Date, to: Date): Promise<MeterSegment> {
    return {
      meterNumber: meter.meter_number,
      multiplier: meter.multiplier,
      registerDigits: meter.register_digits,
      intervalMs: meter.interval_minutes * 60_000,
      readings: await this.readings.load(meter.device_id, from, to),
    };
  }
}

/** One request must not build an answer large enough to starve the others. */
function refuseOversizeAnswer(
  query: LocationReadingsQuery,
  range: ResolvedRange & { granularity: Granularity },
  meters: MeterRow[],
) {
  if (range.granularity !== 'raw' && range.granularity !== 'hour') return;
  const perMeter = meters.map((meter) => {
    const step = range.granularity === 'hour' ? 3_600_000 : meter.interval_minutes * 60_000;
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
  query: LocationReadingsQuery,
  timeZone: string,
): ResolvedRange & { granularity: Granularity } {
  try {
    if (query.granularity)
      return { ...resolveRange(query, timeZone, query.granularity), granularity: query.granularity };
    const range = resolveRange(query, timeZone, 'day');
    const isShort = range.toMs - range.fromMs <= MAX_RAW_RANGE_DAYS * 86_400_000;
    return { ...range, granularity: isShort ? 'raw' : 'day' };
  } catch (error) {
    if (error instanceof RangeInputError) throw new HttpError(400, error.message, error.param);
    throw error;
  }
}
