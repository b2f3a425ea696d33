// The prices of a location's range, as the readings engine applies them, remembered: a page asks
// for the same range again and again (reloads, the chart's detail switch, comparisons), and a
// year's timeline is about a thousand segments built from the zone's clock. An entry is keyed by
// the tariff versions themselves (their ids and creation instants), so a new version is a new key.

import type { Channel } from '@cm/contracts/check.ts';
import { DAY_MS } from '@cm/contracts/zoned-time.ts';
import type { PriceTimeline } from '../readings/index.ts';
import type { SeriesPrices } from '../series/index.ts';
import { overlaySeries } from './dynamic-price.ts';
import {
  energyProfile,
  feedInProfile,
  priceTimeline,
  type PricedVersion,
  type ProfileOf,
  type SeriesSource,
} from './price-timeline.ts';
import { billingDays, type BillingDays } from './bill.ts';

/** What pricing a range needs: the versions (for the bill) and each channel's timeline. */
export interface RangePrices {
  versions: PricedVersion[];
  /** Import at the energy price, export at the feed-in price where a version pays it. */
  timelines: Partial<Record<Channel, PriceTimeline>>;
  /** The range's local days and their versions, for the bill. */
  days: BillingDays;
}

const KEPT = 64;
const remembered = new Map<string, RangePrices>();

/**
 * The prices over [fromMs, toMs) of the versions whose identity is `versionsKey` (with their price
 * series' revisions; read from the stored rows only when this range is not remembered). A record
 * starting in the range may end after it (a billing period): the timelines run a month past its end.
 */
export async function rangePrices(
  versionsKey: string,
  versionsOf: () => PricedVersion[],
  seriesOf: (fromMs: number, toMs: number) => Promise<ReadonlyMap<number, SeriesPrices>>,
  fromMs: number,
  toMs: number,
  timeZone: string,
): Promise<RangePrices> {
  const key = `${versionsKey}|${timeZone}|${fromMs}|${toMs}`;
  const known = remembered.get(key);
  if (known) {
    // Most recently used last.
    remembered.delete(key);
    remembered.set(key, known);
    return known;
  }
  const until = toMs + 32 * DAY_MS;
  const versions = versionsOf();
  const isDynamic = versions.some((version) => version.importSource || version.exportSource);
  const series = isDynamic ? await seriesOf(fromMs, until) : new Map<number, SeriesPrices>();
  const paysExport = versions.some(
    (version) => version.feedInMicro !== null || version.exportSource !== null,
  );
  const timeline = (profile: ProfileOf, sourceOf: (version: PricedVersion) => SeriesSource | null) =>
    overlaySeries(priceTimeline(versions, profile, fromMs, until, timeZone), versions, sourceOf, series);
  const prices: RangePrices = {
    versions,
    timelines: {
      import: timeline(energyProfile, (version) => version.importSource),
      ...(paysExport ? { export: timeline(feedInProfile, (version) => version.exportSource) } : {}),
    },
    days: billingDays(versions, fromMs, toMs, timeZone),
  };
  remembered.set(key, prices);
  if (remembered.size > KEPT) remembered.delete(remembered.keys().next().value ?? '');
  return prices;
}
