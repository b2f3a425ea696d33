import type { LocationTariffs, Tariff, TariffDraft } from '@cm/contracts/tariffs.ts';
import { localDateOf } from '@cm/contracts/zoned-time.ts';
import type { Db, SqlRunner } from '../../db/client.ts';
import { conflict, HttpError, notFound } from '../../http-error.ts';
import { type Actor, type AuthContext, scopeOf } from '../access/index.ts';
import { recordAudit } from '../audit/index.ts';
import { AdminLocationsService, findVisibleLocation } from '../directory/index.ts';
import { uniqueViolation } from '../../db/sql-helpers.ts';
import { priceSeriesFacts, priceSeriesRevisions, priceSeriesValues } from '../series/index.ts';
import { pricedVersions } from './price-timeline.ts';
import { rangePrices, type RangePrices } from './location-prices.ts';
import {
  deleteTariff,
  findTariffs,
  insertTariff,
  lockLocationTariffs,
  type TariffRow,
} from './tariffs.queries.ts';

const LOCATION_NOT_FOUND = 'Location not found. Check the public name.';

/** Trailing zeros of a stored numeric dropped: `0.245000` → `0.245`, `12.000000` → `12`. */
const decimal = (text: string) => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);

const seriesPrice = (seriesId: number | null, margin: string | null, taxPercent: string | null) =>
  seriesId === null
    ? null
    : { seriesId, margin: decimal(margin ?? '0'), taxPercent: decimal(taxPercent ?? '0') };

function presentTariff(row: TariffRow): Tariff {
  return {
    id: row.id,
    locationId: row.location_id,
    effectiveFrom: row.effective_from,
    currency: row.currency,
    energyPrice: decimal(row.energy_price),
    windows: row.windows,
    holidays: row.holidays,
    standingChargePerDay: decimal(row.standing_charge_per_day),
    taxPercent: decimal(row.tax_percent),
    feedInPrice: row.feed_in_price === null ? null : decimal(row.feed_in_price),
    importSeries: seriesPrice(row.import_series_id, row.import_margin, row.import_tax_percent),
    exportSeries: seriesPrice(row.export_series_id, row.export_margin, row.export_tax_percent),
    demand: row.demand,
    createdAt: row.created_at.toISOString(),
  };
}

/** Tariff versions of the locations: administrators add and schedule them, clients read their own. */
export class TariffsService {
  private readonly locations: AdminLocationsService;

  constructor(private readonly db: Db) {
    this.locations = new AdminLocationsService(db);
  }

  async list(locationId: number, nowMs = Date.now()): Promise<LocationTariffs> {
    const location = await this.locations.get(locationId);
    const rows = await findTariffs(this.db, locationId);
    return { locationId, today: localDateOf(nowMs, location.timeZone), items: rows.map(presentTariff) };
  }

  /** A client's (or administrator's) view of a location it may see; the same 404 for one it may not. */
  async forCaller(caller: AuthContext, publicName: string): Promise<LocationTariffs> {
    const location = await findVisibleLocation(this.db, publicName, scopeOf(caller));
    if (!location) throw new HttpError(404, LOCATION_NOT_FOUND, 'name');
    const rows = await findTariffs(this.db, location.id);
    return {
      locationId: location.id,
      today: localDateOf(Date.now(), location.timeZone),
      items: rows.map(presentTariff),
    };
  }

  /**
   * Adds a version. The first version of a location may start on any date (it prices the history
   * already stored); later ones start today or later, so a price that was shown is never changed
   * afterwards. Every version of a location has the same currency.
   */
  async create(actor: Actor, locationId: number, draft: TariffDraft, nowMs = Date.now()): Promise<Tariff> {
    const location = await this.locations.get(locationId);
    const today = localDateOf(nowMs, location.timeZone);
    for (const [param, source] of [
      ['importSeries', draft.importSeries],
      ['exportSeries', draft.exportSeries],
    ] as const) {
      if (!source) continue;
      const facts = await priceSeriesFacts(this.db, source.seriesId);
      if (!facts)
        throw new HttpError(400, `${param}.seriesId: there is no price series ${source.seriesId}.`, param);
      if (facts.currency !== draft.currency)
        throw new HttpError(
          400,
          `${param}: the series "${facts.name}" is in ${facts.currency}; this tariff is in ${draft.currency}.`,
          param,
        );
    }
    const id = await this.db
      .transaction(async (tx) => {
        await lockLocationTariffs(tx, locationId);
        const existing = await findTariffs(tx, locationId);
        const currency = existing[0]?.currency;
        if (currency !== undefined && currency !== draft.currency)
          throw new HttpError(
            400,
            `currency: this location's tariffs are in ${currency}; a new version must be in ${currency} too.`,
            'currency',
          );
        if (existing.length > 0 && draft.effectiveFrom < today)
          throw new HttpError(
            400,
            `effectiveFrom: a new version starts today (${today} at this location) or later: what earlier versions priced stays as it was.`,
            'effectiveFrom',
          );
        if (existing.some((row) => row.effective_from === draft.effectiveFrom))
          throw conflict(
            `effectiveFrom: a version already starts on ${draft.effectiveFrom}.`,
            'effectiveFrom',
          );
        const tariffId = await insertTariff(tx, locationId, draft);
        await recordAudit(tx, actor, {
          action: 'tariff.create',
          targetType: 'location',
          targetId: locationId,
          detail: { tariffId, ...draft },
        });
        return tariffId;
      })
      .catch((error: unknown) => {
        if (uniqueViolation(error))
          throw conflict(
            `effectiveFrom: a version already starts on ${draft.effectiveFrom}.`,
            'effectiveFrom',
          );
        throw error;
      });
    const created = (await findTariffs(this.db, locationId)).find((row) => row.id === id);
    if (!created) throw notFound('Tariff not found.');
    return presentTariff(created);
  }

  /** Removes a scheduled version (one not in force yet); versions that priced the past stay. */
  async remove(actor: Actor, locationId: number, tariffId: number, nowMs = Date.now()): Promise<void> {
    const location = await this.locations.get(locationId);
    const today = localDateOf(nowMs, location.timeZone);
    await this.db.transaction(async (tx) => {
      await lockLocationTariffs(tx, locationId);
      const row = (await findTariffs(tx, locationId)).find((candidate) => candidate.id === tariffId);
      if (!row) throw notFound('Tariff not found.');
      if (row.effective_from <= today)
        throw conflict(
          `This version is in force since ${row.effective_from}: it priced the past and stays. Add a new version to change prices from today on.`,
        );
      await deleteTariff(tx, locationId, tariffId);
      await recordAudit(tx, actor, {
        action: 'tariff.delete',
        targetType: 'location',
        targetId: locationId,
        detail: { tariffId, effectiveFrom: row.effective_from },
      });
    });
  }
}

/**
 * What pricing a location's range needs (the check page's readings): its tariff versions and each
 * channel's price timeline; null when the location has no tariff.
 */
export async function locationPrices(
  db: SqlRunner,
  location: { id: number; timeZone: string },
  fromMs: number,
  toMs: number,
): Promise<RangePrices | null> {
  // The price series' revisions are read beside the tariffs, for the series the location's tariffs
  // named last time (they rarely change); only when they name others now is there a second trip.
  const expected = seriesOfLocation.get(location.id) ?? [];
  const [rows, expectedRevisions] = await Promise.all([
    findTariffs(db, location.id),
    expected.length > 0 ? priceSeriesRevisions(db, expected) : new Map<number, number>(),
  ]);
  const seriesIds = [
    ...new Set(
      rows.flatMap((row) => [row.import_series_id, row.export_series_id]).filter((id) => id !== null),
    ),
  ].sort((a, b) => a - b);
  rememberSeriesOf(location.id, seriesIds);
  if (rows.length === 0) return null;
  // A series written since is a new key: its prices are read again.
  const revisions =
    sameIds(seriesIds, expected) || seriesIds.length === 0
      ? expectedRevisions
      : await priceSeriesRevisions(db, seriesIds);
  const key = [
    ...rows.map((row) => `${row.id}@${row.created_at.getTime()}`),
    ...seriesIds.map((id) => `s${id}r${revisions.get(id) ?? -1}`),
  ].join(',');
  return rangePrices(
    key,
    () => pricedVersions(rows.map(presentTariff)),
    (from, to) => priceSeriesValues(db, seriesIds, from, to),
    fromMs,
    toMs,
    location.timeZone,
  );
}

// Per location, the price series its tariffs named when last read (bounded: the oldest go first).
const KEPT_LOCATIONS = 10_000;
const seriesOfLocation = new Map<number, number[]>();

function rememberSeriesOf(locationId: number, ids: number[]): void {
  seriesOfLocation.delete(locationId);
  if (ids.length === 0) return;
  seriesOfLocation.set(locationId, ids);
  if (seriesOfLocation.size > KEPT_LOCATIONS)
    seriesOfLocation.delete(seriesOfLocation.keys().next().value ?? 0);
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
