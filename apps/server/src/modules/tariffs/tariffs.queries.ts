import type { TariffDemand, TariffDraft, TariffWindow } from '@cm/contracts/tariffs.ts';
import type { SqlRunner } from '../../db/client.ts';

/** A tariff row with its decimals and dates as text, exactly as stored. */
export interface TariffRow {
  id: number;
  location_id: number;
  effective_from: string;
  currency: string;
  energy_price: string;
  windows: TariffWindow[];
  holidays: string[];
  standing_charge_per_day: string;
  tax_percent: string;
  feed_in_price: string | null;
  import_series_id: number | null;
  import_margin: string | null;
  import_tax_percent: string | null;
  export_series_id: number | null;
  export_margin: string | null;
  export_tax_percent: string | null;
  demand: TariffDemand | null;
  created_at: Date;
}

// numeric and date columns are read as text: a price stays the decimal that was stored.
const tariffColumns = `id, location_id, effective_from::text AS effective_from, currency,
  energy_price::text AS energy_price, windows, holidays::text[] AS holidays,
  standing_charge_per_day::text AS standing_charge_per_day, tax_percent::text AS tax_percent,
  feed_in_price::text AS feed_in_price, import_series_id, import_margin::text AS import_margin,
  import_tax_percent::text AS import_tax_percent, export_series_id, export_margin::text AS export_margin,
  export_tax_percent::text AS export_tax_percent, demand, created_at`;

/** A location's tariff versions, oldest first. */
export function findTariffs(db: SqlRunner, locationId: number): Promise<TariffRow[]> {
  return db.query<TariffRow>(
    `SELECT ${tariffColumns} FROM tariffs WHERE location_id = $1 ORDER BY effective_from`,
    [locationId],
    { prepare: 'cm_location_tariffs' },
  );
}

export async function insertTariff(db: SqlRunner, locationId: number, tariff: TariffDraft): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO tariffs (location_id, effective_from, currency, energy_price, windows, holidays,
       standing_charge_per_day, tax_percent, feed_in_price, import_series_id, import_margin,
       import_tax_percent, export_series_id, export_margin, export_tax_percent, demand)
     VALUES ($1, $2::date, $3, $4::numeric, $5::jsonb, $6::date[], $7::numeric, $8::numeric, $9::numeric,
       $10, $11::numeric, $12::numeric, $13, $14::numeric, $15::numeric, $16::jsonb)
     RETURNING id`,
    [
      locationId,
      tariff.effectiveFrom,
      tariff.currency,
      tariff.energyPrice,
      JSON.stringify(tariff.windows),
      tariff.holidays,
      tariff.standingChargePerDay,
      tariff.taxPercent,
      tariff.feedInPrice,
      tariff.importSeries?.seriesId ?? null,
      tariff.importSeries?.margin ?? null,
      tariff.importSeries?.taxPercent ?? null,
      tariff.exportSeries?.seriesId ?? null,
      tariff.exportSeries?.margin ?? null,
      tariff.exportSeries?.taxPercent ?? null,
      tariff.demand === null ? null : JSON.stringify(tariff.demand),
    ],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into tariffs returned no id');
  return id;
}

export async function deleteTariff(db: SqlRunner, locationId: number, id: number): Promise<boolean> {
  const rows = await db.query<{ id: number }>(
    'DELETE FROM tariffs WHERE location_id = $1 AND id = $2 RETURNING id',
    [locationId, id],
  );
  return rows.length > 0;
}

/** Serializes tariff changes of one location (a transaction-scoped lock). */
export async function lockLocationTariffs(db: SqlRunner, locationId: number): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`tariffs:${locationId}`]);
}
