import type { CarbonSeriesDraft, PriceSeriesDraft } from '@cm/contracts/market-series.ts';
import type { SqlRunner } from '../../db/client.ts';
import type { SeriesPoint } from './series-csv.ts';

/** Price or carbon: the two kinds share their shape (a series row, its points). */
export type SeriesKind = 'price' | 'carbon';

// Table and column names come from this allow-list only, never from input.
const TABLES = {
  price: { series: 'price_series', points: 'price_points', value: 'value_micro' },
  carbon: { series: 'carbon_series', points: 'carbon_points', value: 'milligrams' },
} as const;

export interface SeriesRow {
  id: number;
  name: string;
  interval_minutes: number;
  time_zone: string;
  revision: number;
  created_at: Date;
  /** Price series only. */
  unit?: 'kWh' | 'MWh';
  currency?: string;
  zone?: string;
  /** Carbon series only. */
  region?: string;
  first_start: Date | null;
  last_start: Date | null;
  point_count: number;
}

function seriesSelect(kind: SeriesKind, where: string): string {
  const t = TABLES[kind];
  return `SELECT s.*, c.first_start, c.last_start, coalesce(c.point_count, 0)::int AS point_count
    FROM ${t.series} s
    LEFT JOIN LATERAL (SELECT min(starts_at) AS first_start, max(starts_at) AS last_start,
                              count(*) AS point_count
                         FROM ${t.points} p WHERE p.series_id = s.id) c ON true
    ${where} ORDER BY s.name`;
}

export function listSeries(db: SqlRunner, kind: SeriesKind): Promise<SeriesRow[]> {
  return db.query<SeriesRow>(seriesSelect(kind, ''));
}

export async function findSeries(
  db: SqlRunner,
  kind: SeriesKind,
  id: number,
): Promise<SeriesRow | undefined> {
  return (await db.query<SeriesRow>(seriesSelect(kind, 'WHERE s.id = $1'), [id]))[0];
}

export async function insertPriceSeries(db: SqlRunner, draft: PriceSeriesDraft): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO price_series (name, interval_minutes, unit, currency, time_zone, zone)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [draft.name, draft.intervalMinutes, draft.unit, draft.currency, draft.timeZone, draft.zone],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into price_series returned no id');
  return id;
}

export async function insertCarbonSeries(db: SqlRunner, draft: CarbonSeriesDraft): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO carbon_series (name, interval_minutes, time_zone, region)
     VALUES ($1, $2, $3, $4) RETURNING id`,
    [draft.name, draft.intervalMinutes, draft.timeZone, draft.region],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into carbon_series returned no id');
  return id;
}

/** Serializes writes to one series (a transaction-scoped lock) and marks it changed. */
export async function touchSeries(db: SqlRunner, kind: SeriesKind, id: number): Promise<void> {
  await db.query(`UPDATE ${TABLES[kind].series} SET revision = revision + 1 WHERE id = $1`, [id]);
}

/** Stores points, replacing the values of the same intervals. */
export async function upsertPoints(
  db: SqlRunner,
  kind: SeriesKind,
  id: number,
  points: readonly SeriesPoint[],
): Promise<void> {
  const t = TABLES[kind];
  const BATCH = 10_000;
  for (let i = 0; i < points.length; i += BATCH) {
    const part = points.slice(i, i + BATCH);
    await db.query(
      `INSERT INTO ${t.points} (series_id, starts_at, ${t.value})
       SELECT $1, to_timestamp(s / 1000.0), v
         FROM unnest($2::float8[], $3::bigint[]) AS u(s, v)
       ON CONFLICT (series_id, starts_at) DO UPDATE SET ${t.value} = excluded.${t.value}`,
      [id, part.map((point) => point.startMs), part.map((point) => point.value)],
    );
  }
}

/** Removes the values of [fromMs, toMs). */
export async function deletePoints(
  db: SqlRunner,
  kind: SeriesKind,
  id: number,
  fromMs: number,
  toMs: number,
): Promise<void> {
  await db.query(
    `DELETE FROM ${TABLES[kind].points} WHERE series_id = $1 AND starts_at >= $2 AND starts_at < $3`,
    [id, new Date(fromMs), new Date(toMs)],
  );
}

/** Points of [fromMs, toMs) as columns, by start. */
export async function pointsBetween(
  db: SqlRunner,
  kind: SeriesKind,
  id: number,
  fromMs: number,
  toMs: number,
): Promise<{ starts: number[]; values: number[] }> {
  const t = TABLES[kind];
  const rows = await db.queryArrays(
    `SELECT (extract(epoch FROM starts_at) * 1000)::float8, ${t.value}::float8
       FROM ${t.points} WHERE series_id = $1 AND starts_at >= $2 AND starts_at < $3 ORDER BY starts_at`,
    [id, new Date(fromMs), new Date(toMs)],
  );
  return { starts: rows.map((row) => Number(row[0])), values: rows.map((row) => Number(row[1])) };
}

/** Revisions of price series, by id (a remembered timeline's key). */
export async function priceRevisions(db: SqlRunner, ids: readonly number[]): Promise<Map<number, number>> {
  const rows = await db.query<{ id: number; revision: number }>(
    'SELECT id, revision FROM price_series WHERE id = ANY($1::int[])',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.revision]));
}

/** A series' own row, without its coverage (the hot paths: pricing, weighing). */
export async function seriesRow(
  db: SqlRunner,
  kind: SeriesKind,
  id: number,
): Promise<Omit<SeriesRow, 'first_start' | 'last_start' | 'point_count'> | undefined> {
  return (await db.query<SeriesRow>(`SELECT * FROM ${TABLES[kind].series} WHERE id = $1`, [id]))[0];
}

/** The carbon series of a location, with its revision (a remembered timeline's key). */
export async function locationCarbonRow(
  db: SqlRunner,
  locationId: number,
): Promise<{ id: number; interval_minutes: number; region: string; revision: number } | undefined> {
  const rows = await db.query<{ id: number; interval_minutes: number; region: string; revision: number }>(
    `SELECT s.id, s.interval_minutes, s.region, s.revision
       FROM location_carbon lc JOIN carbon_series s ON s.id = lc.series_id WHERE lc.location_id = $1`,
    [locationId],
    { prepare: 'cm_location_carbon' },
  );
  return rows[0];
}

/** The location's carbon series id, if any. */
export async function locationCarbonSeries(db: SqlRunner, locationId: number): Promise<number | null> {
  const rows = await db.query<{ series_id: number }>(
    'SELECT series_id FROM location_carbon WHERE location_id = $1',
    [locationId],
  );
  return rows[0]?.series_id ?? null;
}

export async function setLocationCarbon(
  db: SqlRunner,
  locationId: number,
  seriesId: number | null,
): Promise<void> {
  if (seriesId === null) {
    await db.query('DELETE FROM location_carbon WHERE location_id = $1', [locationId]);
    return;
  }
  await db.query(
    `INSERT INTO location_carbon (location_id, series_id) VALUES ($1, $2)
     ON CONFLICT (location_id) DO UPDATE SET series_id = excluded.series_id`,
    [locationId, seriesId],
  );
}
