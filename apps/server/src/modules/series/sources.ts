// What other modules read of the series: a tariff's price series over a range (the tariffs module
// turns them into unit prices), and a location's carbon intensity as a timeline the readings engine
// weighs energy with.

import { MINUTE_MS } from '@cm/contracts/zoned-time.ts';
import type { SqlRunner } from '../../db/client.ts';
import type { PriceTimeline } from '../readings/index.ts';
import { findSeries, locationCarbonRow, pointsBetween, priceRevisions, seriesRow } from './series.queries.ts';

/** A price series' values over a range: `values[i]` millionths of `currency` per `unit` from `starts[i]`. */
export interface SeriesPrices {
  intervalMs: number;
  unit: 'kWh' | 'MWh';
  currency: string;
  starts: number[];
  values: number[];
}

/** A price series' currency and unit (undefined when there is none with that id), for a tariff that takes it. */
export async function priceSeriesFacts(
  db: SqlRunner,
  id: number,
): Promise<{ currency: string; unit: 'kWh' | 'MWh'; name: string } | undefined> {
  const row = await findSeries(db, 'price', id);
  return row ? { currency: row.currency ?? '', unit: row.unit ?? 'kWh', name: row.name } : undefined;
}

/** Each series' revision (a remembered price timeline is rebuilt when a series changed). */
export const priceSeriesRevisions = priceRevisions;

/** The values of price series over [fromMs, toMs), by id. */
export async function priceSeriesValues(
  db: SqlRunner,
  ids: readonly number[],
  fromMs: number,
  toMs: number,
): Promise<Map<number, SeriesPrices>> {
  const out = new Map<number, SeriesPrices>();
  for (const id of ids) {
    const row = await seriesRow(db, 'price', id);
    if (!row) continue;
    const intervalMs = row.interval_minutes * MINUTE_MS;
    const { starts, values } = await pointsBetween(db, 'price', id, fromMs - intervalMs, toMs);
    out.set(id, { intervalMs, unit: row.unit ?? 'kWh', currency: row.currency ?? '', starts, values });
  }
  return out;
}

// A year's intensities are 35,040 rows at 15 minutes: a page asking for the same range again (the
// chart's detail switch, a reload) finds them here, keyed by the series' revision.
const KEPT = 32;
const remembered = new Map<string, { region: string; timeline: PriceTimeline }>();

/**
 * The carbon intensity of a location's grid region over [fromMs, toMs) as a timeline: one segment
 * per interval with a value (milligrams CO2e per kWh), none where the intensity is unknown; null
 * when the location has no carbon series.
 */
export async function locationCarbonTimeline(
  db: SqlRunner,
  locationId: number,
  fromMs: number,
  toMs: number,
): Promise<{ region: string; timeline: PriceTimeline } | null> {
  const row = await locationCarbonRow(db, locationId);
  if (!row) return null;
  const key = `${row.id}@${row.revision}|${fromMs}|${toMs}`;
  const known = remembered.get(key);
  if (known) {
    remembered.delete(key);
    remembered.set(key, known);
    return known;
  }
  const intervalMs = row.interval_minutes * MINUTE_MS;
  const { starts, values } = await pointsBetween(db, 'carbon', row.id, fromMs - intervalMs, toMs);
  const carbon = {
    region: row.region,
    timeline: {
      start: Float64Array.from(starts),
      end: Float64Array.from(starts, (start) => start + intervalMs),
      price: Float64Array.from(values),
      version: new Int32Array(starts.length),
      versions: 1,
    },
  };
  remembered.set(key, carbon);
  if (remembered.size > KEPT) remembered.delete(remembered.keys().next().value ?? '');
  return carbon;
}
