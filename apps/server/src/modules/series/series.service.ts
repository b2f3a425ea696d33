import type {
  CarbonSeries,
  CarbonSeriesDraft,
  CleanestHours,
  PriceSeries,
  PriceSeriesDraft,
  SeriesDay,
  SeriesStored,
} from '@cm/contracts/market-series.ts';
import { MAX_INTENSITY, MAX_SERIES_PRICE } from '@cm/contracts/market-series.ts';
import { DAY_MS, MINUTE_MS, localDateOf, startOfLocal } from '@cm/contracts/zoned-time.ts';
import type { Db, SqlRunner } from '../../db/client.ts';
import { uniqueViolation } from '../../db/sql-helpers.ts';
import { conflict, HttpError, notFound } from '../../http-error.ts';
import { type Actor, type AuthContext, scopeOf } from '../access/index.ts';
import { recordAudit } from '../audit/index.ts';
import { AdminLocationsService, findVisibleLocation } from '../directory/index.ts';
import { parseSeriesCsv, parseSeriesValue, type SeriesPoint, type ValueRule } from './series-csv.ts';
import {
  deletePoints,
  findSeries,
  insertCarbonSeries,
  insertPriceSeries,
  listSeries,
  locationCarbonSeries,
  pointsBetween,
  setLocationCarbon,
  touchSeries,
  upsertPoints,
  type SeriesKind,
  type SeriesRow,
} from './series.queries.ts';

export type { SeriesKind };

/** Prices: millionths of the currency per unit, signed (market prices go below zero). */
export const PRICE_RULE: ValueRule = {
  digits: 6,
  min: -MAX_SERIES_PRICE,
  max: MAX_SERIES_PRICE,
  what: 'price',
};
/** Intensities: milligrams CO2e per kWh (grams with 3 decimals), never negative. */
export const CARBON_RULE: ValueRule = { digits: 3, min: 0, max: MAX_INTENSITY, what: 'intensity' };
const RULES: Record<SeriesKind, ValueRule> = { price: PRICE_RULE, carbon: CARBON_RULE };
/** Most points one upload stores: a year of 5-minute intervals, with a leap day. */
const MAX_UPLOAD_POINTS = 106_000;

const unprocessable = (message: string) => new HttpError(422, message);

function coverage(row: SeriesRow) {
  const intervalMs = row.interval_minutes * MINUTE_MS;
  if (!row.first_start || !row.last_start) return { first: null, last: null, count: 0, missing: 0 };
  const span = (row.last_start.getTime() - row.first_start.getTime()) / intervalMs + 1;
  return {
    first: row.first_start.toISOString(),
    last: new Date(row.last_start.getTime() + intervalMs).toISOString(),
    count: row.point_count,
    missing: Math.max(0, Math.round(span) - row.point_count),
  };
}

function presentPrice(row: SeriesRow): PriceSeries {
  return {
    id: row.id,
    name: row.name,
    intervalMinutes: row.interval_minutes,
    unit: row.unit ?? 'kWh',
    currency: row.currency ?? '',
    timeZone: row.time_zone,
    zone: row.zone ?? '',
    createdAt: row.created_at.toISOString(),
    coverage: coverage(row),
  };
}

function presentCarbon(row: SeriesRow): CarbonSeries {
  return {
    id: row.id,
    name: row.name,
    intervalMinutes: row.interval_minutes,
    timeZone: row.time_zone,
    region: row.region ?? '',
    createdAt: row.created_at.toISOString(),
    coverage: coverage(row),
  };
}

/** A value stored as an integer, written back as decimal text (`85370000` millionths → `85.37`). */
export function valueText(units: number, digits: number): string {
  const sign = units < 0 ? '-' : '';
  const abs = Math.abs(units);
  const whole = Math.floor(abs / 10 ** digits);
  const fraction = String(abs % 10 ** digits)
    .padStart(digits, '0')
    .replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The instants of a local date's midnight and the next one on a series' clock. */
function dayBounds(date: string, timeZone: string): { fromMs: number; toMs: number } {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number);
  const fromMs = startOfLocal({ year, month, day, hour: 0, minute: 0, second: 0 }, timeZone);
  const next = new Date(Date.UTC(year, month - 1, day) + DAY_MS);
  const toMs = startOfLocal(
    {
      year: next.getUTCFullYear(),
      month: next.getUTCMonth() + 1,
      day: next.getUTCDate(),
      hour: 0,
      minute: 0,
      second: 0,
    },
    timeZone,
  );
  return { fromMs, toMs };
}

/** A new series of either kind, validated. */
type NewSeries = { kind: 'price'; draft: PriceSeriesDraft } | { kind: 'carbon'; draft: CarbonSeriesDraft };

/** A file's points on a series' clock; a bad line, or too many, refuses the whole file (422). */
function parseFile(
  kind: SeriesKind,
  text: string,
  clock: { timeZone: string; intervalMinutes: number },
): SeriesPoint[] {
  const parsed = parseSeriesCsv(text, clock, RULES[kind]);
  if (parsed.errors.length > 0) throw unprocessable(`Nothing was stored: ${parsed.errors.join('; ')}`);
  if (parsed.points.length > MAX_UPLOAD_POINTS)
    throw unprocessable(`Nothing was stored: at most ${MAX_UPLOAD_POINTS} lines per file; split the file.`);
  return parsed.points;
}

/** What was stored: how many values, from the first interval's start to the last one's end. */
function storedOf(points: readonly SeriesPoint[], intervalMinutes: number): SeriesStored {
  const first = points[0];
  const last = points[points.length - 1];
  return {
    stored: points.length,
    first: first ? new Date(first.startMs).toISOString() : null,
    last: last ? new Date(last.startMs + intervalMinutes * MINUTE_MS).toISOString() : null,
  };
}

/** The audit entry of values stored into a series (a file, or a day that replaced the day's values). */
function importEntry(
  kind: SeriesKind,
  id: number,
  intervalMinutes: number,
  points: readonly SeriesPoint[],
  day: { fromMs: number; toMs: number } | null,
) {
  const { stored, first, last } = storedOf(points, intervalMinutes);
  return {
    action: 'series.import',
    targetType: `${kind}-series`,
    targetId: id,
    detail: day
      ? { stored, from: new Date(day.fromMs).toISOString(), to: new Date(day.toMs).toISOString() }
      : { stored, from: first, to: last },
  };
}

/** Price and carbon series: administrators create them and load files; feeds push days. */
export class SeriesService {
  private readonly locations: AdminLocationsService;

  constructor(private readonly db: Db) {
    this.locations = new AdminLocationsService(db);
  }

  async listPrices(): Promise<PriceSeries[]> {
    return (await listSeries(this.db, 'price')).map(presentPrice);
  }

  async listCarbon(): Promise<CarbonSeries[]> {
    return (await listSeries(this.db, 'carbon')).map(presentCarbon);
  }

  async getPrice(id: number): Promise<PriceSeries> {
    return presentPrice(await this.row('price', id));
  }

  async getCarbon(id: number): Promise<CarbonSeries> {
    return presentCarbon(await this.row('carbon', id));
  }

  async createPrice(actor: Actor, draft: PriceSeriesDraft): Promise<PriceSeries> {
    return this.getPrice(await this.create(actor, { kind: 'price', draft }, []));
  }

  async createCarbon(actor: Actor, draft: CarbonSeriesDraft): Promise<CarbonSeries> {
    return this.getCarbon(await this.create(actor, { kind: 'carbon', draft }, []));
  }

  /**
   * Creates a series with the values of its CSV file, both or neither: a bad file is refused
   * (422) before anything is written, so no empty series is left behind.
   */
  async importNewPrice(actor: Actor, draft: PriceSeriesDraft, text: string): Promise<PriceSeries> {
    const points = parseFile('price', text, draft);
    return this.getPrice(await this.create(actor, { kind: 'price', draft }, points));
  }

  /** A carbon series with its file, both or neither (see importNewPrice). */
  async importNewCarbon(actor: Actor, draft: CarbonSeriesDraft, text: string): Promise<CarbonSeries> {
    const points = parseFile('carbon', text, draft);
    return this.getCarbon(await this.create(actor, { kind: 'carbon', draft }, points));
  }

  /** Stores a CSV file's values (replacing those of the same intervals); a bad line refuses the whole file (422). */
  async importCsv(actor: Actor, kind: SeriesKind, id: number, text: string): Promise<SeriesStored> {
    const row = await this.row(kind, id);
    const points = parseFile(kind, text, { timeZone: row.time_zone, intervalMinutes: row.interval_minutes });
    return this.store(actor, kind, row, points, null);
  }

  /** Replaces one local day's values (`null`: unknown); the number of values must be the day's intervals (422). */
  async putDay(
    actor: Actor,
    kind: SeriesKind,
    id: number,
    date: string,
    values: readonly (string | null)[],
  ): Promise<SeriesStored> {
    const row = await this.row(kind, id);
    const { fromMs, toMs } = dayBounds(date, row.time_zone);
    const intervalMs = row.interval_minutes * MINUTE_MS;
    const expected = Math.round((toMs - fromMs) / intervalMs);
    if (values.length !== expected)
      throw unprocessable(
        `values: ${date} has ${expected} intervals of ${row.interval_minutes} minutes in ${row.time_zone}${
          toMs - fromMs !== DAY_MS ? ' (the clocks change that day)' : ''
        }; ${values.length} were given.`,
      );
    const points: SeriesPoint[] = [];
    const errors: string[] = [];
    values.forEach((text, k) => {
      if (text === null) return;
      const value = parseSeriesValue(text, RULES[kind], false);
      if (typeof value === 'string') errors.push(`values[${k}]: ${value}`);
      else points.push({ startMs: fromMs + k * intervalMs, value });
    });
    if (errors.length > 0) throw unprocessable(`Nothing was stored: ${errors.slice(0, 10).join('; ')}`);
    return this.store(actor, kind, row, points, { fromMs, toMs });
  }

  /** A local day's values, `null` where unknown. */
  async day(kind: SeriesKind, id: number, date: string): Promise<SeriesDay> {
    const row = await this.row(kind, id);
    const { fromMs, toMs } = dayBounds(date, row.time_zone);
    const intervalMs = row.interval_minutes * MINUTE_MS;
    const { starts, values } = await pointsBetween(this.db, kind, id, fromMs, toMs);
    const out: (string | null)[] = new Array<string | null>(Math.round((toMs - fromMs) / intervalMs)).fill(
      null,
    );
    starts.forEach((start, i) => {
      out[Math.round((start - fromMs) / intervalMs)] = valueText(values[i] ?? 0, RULES[kind].digits);
    });
    return {
      seriesId: id,
      date,
      start: new Date(fromMs).toISOString(),
      intervalMinutes: row.interval_minutes,
      values: out,
    };
  }

  /**
   * A local day of the carbon intensity at a location the caller may see (404 otherwise, and
   * without a carbon series): each interval, and its cleanest quarter. The day defaults to
   * tomorrow on the location's clock.
   */
  async cleanestHours(caller: AuthContext, name: string, date: string | undefined): Promise<CleanestHours> {
    const location = await findVisibleLocation(this.db, name, scopeOf(caller));
    if (!location) throw new HttpError(404, 'Location not found. Check the public name.', 'name');
    const seriesId = await locationCarbonSeries(this.db, location.id);
    if (seriesId === null) throw new HttpError(404, 'This location has no carbon series.', 'name');
    const row = await this.row('carbon', seriesId);
    const day = date ?? localDateOf(Date.now() + DAY_MS, location.timeZone);
    const { fromMs, toMs } = dayBounds(day, location.timeZone);
    const intervalMs = row.interval_minutes * MINUTE_MS;
    const { starts, values } = await pointsBetween(this.db, 'carbon', seriesId, fromMs, toMs);
    const t: number[] = [];
    for (let at = fromMs; at < toMs; at += intervalMs) t.push(at);
    const intensity: (number | null)[] = t.map(() => null);
    starts.forEach((start, i) => {
      intensity[Math.round((start - fromMs) / intervalMs)] = (values[i] ?? 0) / 1000;
    });
    const known = t.map((_, k) => k).filter((k) => intensity[k] !== null);
    const chosen = new Set(
      [...known]
        .sort((a, b) => (intensity[a] ?? 0) - (intensity[b] ?? 0) || a - b)
        .slice(0, Math.ceil(known.length / 4)),
    );
    return {
      region: row.region ?? '',
      date: day,
      intervalMinutes: row.interval_minutes,
      t,
      intensity,
      cleanest: t.map((_, k) => (chosen.has(k) ? 1 : 0)),
    };
  }

  /** The carbon series of a location's grid region (404 for an unknown location). */
  async locationCarbon(locationId: number): Promise<{ seriesId: number | null }> {
    await this.locations.get(locationId);
    return { seriesId: await locationCarbonSeries(this.db, locationId) };
  }

  async setLocationCarbon(
    actor: Actor,
    locationId: number,
    seriesId: number | null,
  ): Promise<{ seriesId: number | null }> {
    await this.locations.get(locationId);
    if (seriesId !== null && !(await findSeries(this.db, 'carbon', seriesId)))
      throw new HttpError(400, `seriesId: there is no carbon series ${seriesId}.`, 'seriesId');
    await this.db.transaction(async (tx: SqlRunner) => {
      await setLocationCarbon(tx, locationId, seriesId);
      await recordAudit(tx, actor, {
        action: 'location.carbon-series',
        targetType: 'location',
        targetId: locationId,
        detail: { seriesId },
      });
    });
    return { seriesId };
  }

  private async create(actor: Actor, what: NewSeries, points: readonly SeriesPoint[]): Promise<number> {
    const { kind, draft } = what;
    return this.db
      .transaction(async (tx: SqlRunner) => {
        const id =
          what.kind === 'price'
            ? await insertPriceSeries(tx, what.draft)
            : await insertCarbonSeries(tx, what.draft);
        await recordAudit(tx, actor, {
          action: 'series.create',
          targetType: `${kind}-series`,
          targetId: id,
          detail: { ...draft },
        });
        if (points.length > 0) {
          await upsertPoints(tx, kind, id, points);
          await recordAudit(tx, actor, importEntry(kind, id, draft.intervalMinutes, points, null));
        }
        return id;
      })
      .catch(this.nameTaken(draft.name));
  }

  private async store(
    actor: Actor,
    kind: SeriesKind,
    row: SeriesRow,
    points: readonly SeriesPoint[],
    replace: { fromMs: number; toMs: number } | null,
  ): Promise<SeriesStored> {
    await this.db.transaction(async (tx: SqlRunner) => {
      // The revision's row lock serializes writers of one series.
      await touchSeries(tx, kind, row.id);
      if (replace) await deletePoints(tx, kind, row.id, replace.fromMs, replace.toMs);
      await upsertPoints(tx, kind, row.id, points);
      await recordAudit(tx, actor, importEntry(kind, row.id, row.interval_minutes, points, replace));
    });
    return storedOf(points, row.interval_minutes);
  }

  private async row(kind: SeriesKind, id: number): Promise<SeriesRow> {
    const row = await findSeries(this.db, kind, id);
    if (!row) throw notFound(`${kind === 'price' ? 'Price' : 'Carbon'} series not found.`);
    return row;
  }

  private nameTaken(name: string) {
    return (error: unknown): never => {
      if (uniqueViolation(error)) throw conflict(`name: a series named "${name}" already exists.`, 'name');
      throw error;
    };
  }
}
